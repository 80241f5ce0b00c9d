"""The layers point one way, checked on the source (an AST walk of every import, the ones
inside functions too), and the web layer loads no driver.

    rules  <- mat  <- table  <- web        cli.py, serve.py and tracetool.py on top wire them
                             <- link       the tables' MQTT, beside web (only it knows MQTT)
    rules  <- ai   <- table                the computer player knows only the rules
    firmware (drivers) <- table            firmware knows only companion.rules.squares
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What each layer may import of the project (its own modules always).
ALLOWED = {
    "companion.rules": ("companion.rules",),
    "companion.mat": ("companion.rules",),
    "companion.ai": ("companion.rules",),
    "companion.table": ("companion.rules", "companion.mat", "companion.ai", "firmware"),
    "companion.web": ("companion.table", "companion.rules"),
    "companion.link": ("companion.table", "companion.rules"),
    "firmware": ("companion.rules.squares",),
}
PROJECT = ("companion", "firmware")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: str, module: str, is_package: bool) -> list[str]:
    """Every module ``module``'s source imports, relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append(name)
            # ``from . import outputs``: the names may be modules of the package.
            found += [f"{name}.{alias.name}" for alias in node.names if not node.module]
    return found


def layer_of(module: str) -> str | None:
    return next((layer for layer in ALLOWED if module == layer or module.startswith(layer + ".")), None)


def violations(module: str, imported: list[str]) -> list[str]:
    layer = layer_of(module)
    if layer is None:
        return []               # companion.cli, companion.serve: the top wires everything
    out = []
    for name in imported:
        if not name.split(".")[0] in PROJECT or name in ("companion",):
            continue
        target = layer_of(name) or name
        if target == layer or name.startswith(layer + "."):
            continue
        if not any(name == ok or name.startswith(ok + ".") for ok in ALLOWED[layer]):
            out.append(f"{module} imports {name}")
    return out


def project_modules():
    for top in PROJECT:
        for path in sorted((ROOT / top).rglob("*.py")):
            yield path, module_name(path)


def test_every_layer_imports_only_the_layers_below_it():
    found = []
    for path, module in project_modules():
        found += violations(module, imports(path.read_text(encoding="utf-8"), module,
                                            path.name == "__init__.py"))
    assert not found, "\n".join(found)


def test_only_the_link_layer_knows_mqtt():
    found = [module for path, module in project_modules() if layer_of(module) != "companion.link"
             and any(name.split(".")[0] == "paho" for name in imports(
                 path.read_text(encoding="utf-8"), module, path.name == "__init__.py"))]
    assert not found and layer_of("companion.link.peer") == "companion.link"


def test_scenes_are_said_in_the_mats_cues_not_the_animators_effects():
    """The LED grammar has one home (companion/mat/feedback.py's ``Cue``): the table builds its
    scenes from it and the firmware's animator translates them, so no module above the drivers
    imports the animator. What the table shows is pure (``companion/table/outputs.py``): it
    imports no driver at all, the OLED's grid being companion/mat/oled.py's."""
    found = [module for path, module in project_modules() if module.startswith("companion.")
             and "firmware.animation" in imports(path.read_text(encoding="utf-8"), module,
                                                 path.name == "__init__.py")]
    assert not found
    outputs = ROOT / "companion" / "table" / "outputs.py"
    assert not [name for name in imports(outputs.read_text(encoding="utf-8"), "companion.table.outputs",
                                         False) if name.split(".")[0] == "firmware"]


@pytest.mark.parametrize("module,source", [
    ("companion.rules.cards", "from ..mat import recognizer"),
    ("companion.rules.cards", "def f():\n    import companion.table.service"),
    ("companion.mat.recognizer", "from firmware import matrix"),
    ("companion.ai.search", "from companion.mat import recognizer"),
    ("companion.ai.agent", "from ..table import service"),
    ("companion.table.service", "from companion.web import create_app"),
    ("companion.table.service", "from companion.link.links import Links"),
    ("companion.link.peer", "from companion.web import create_app"),
    ("companion.web.app", "from companion.table.service import Companion\nimport firmware.oled"),
    ("firmware.oled", "from companion.rules.position import Position"),
])
def test_the_check_finds_an_import_against_the_layers(module, source):
    assert violations(module, imports(source, module, False))


def test_importing_the_web_layer_loads_no_driver():
    code = ("import sys, companion.web\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('firmware', 'gpiozero', 'adafruit_ssd1306', 'adafruit_blinka', 'board', 'busio',"
            " 'digitalio', 'rpi_ws281x', 'lgpio') or m.startswith('adafruit'))\n"
            "print(' '.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""

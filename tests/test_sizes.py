"""One job per part, in every package: no module over 400 lines, no class over 300.

The few parts still over a limit are listed below, each with the issue that owns its split;
an entry that is no longer needed fails too, so the list only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "firmware")
MAX_MODULE = 400
MAX_CLASS = 300

# path relative to ROOT -> the parts of it allowed over a limit ("module" or a class name).
EXCEPTIONS = {
    # Issue 21 is rewriting the recognizer (the mat's reading of the reed switches).
    "companion/mat/recognizer.py": {"module", "Recognizer"},
}


def too_long(source: str) -> dict[str, int]:
    """The parts of a module over a limit: "module" and class names, with their lengths."""
    over = {}
    lines = len(source.splitlines())
    if lines > MAX_MODULE:
        over["module"] = lines
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_CLASS:
                over[node.name] = length
    return over


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_no_module_or_class_is_too_long():
    found = {}
    for path in _modules():
        name = path.relative_to(ROOT).as_posix()
        for part, length in too_long(path.read_text(encoding="utf-8")).items():
            if part not in EXCEPTIONS.get(name, set()):
                found[f"{name}: {part}"] = length
    assert not found, "\n".join(f"{part} is {length} lines" for part, length in found.items())


def test_every_exception_is_still_needed():
    stale = []
    for name, parts in EXCEPTIONS.items():
        path = ROOT / name
        over = too_long(path.read_text(encoding="utf-8")) if path.exists() else {}
        stale += [f"{name}: {part}" for part in parts if part not in over]
    assert not stale, "within the limits now, remove from EXCEPTIONS: " + ", ".join(stale)


def test_the_check_looks_at_every_package_and_can_fail():
    folders = {p.relative_to(ROOT).parts[:2] for p in _modules()}
    for layer in ("rules", "mat", "table", "web", "ai"):
        assert ("companion", layer) in folders
    assert any(parts[0] == "firmware" for parts in folders)
    long_class = "class Long:\n" + "    x = 1\n" * MAX_CLASS
    assert too_long(long_class) == {"Long": MAX_CLASS + 1}
    assert too_long("x = 1\n" * (MAX_MODULE + 1)) == {"module": MAX_MODULE + 1}
    assert too_long("class Short:\n" + "    x = 1\n" * (MAX_CLASS - 1)) == {}

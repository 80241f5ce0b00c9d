"""The README is a front door, and the map in docs/architecture.md is true.

- README.md stays under 300 lines, keeps the two commands and the libraries, and lists every
  file of docs/ in "Where to read on".
- Every row of "Where to change what" names paths that exist, and each name it puts after a
  Python file is defined in that file (after a TOML file: a key of it).
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAX_README_LINES = 300
ROOTS = ("companion/", "firmware/", "hardware/", "systemd/", "tests/", "docs/", "benchmarks/")


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def table_rows(text: str) -> list[tuple[str, str]]:
    """(first cell, second cell) of every body row of the first table in ``text``."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows.append((cells[0], cells[1]))
    return rows[1:]


def python_names(path: Path) -> set[str]:
    """Names defined at the top of a module, and ``Class.member`` for its classes' members."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(f"{node.name}.{member.name}")
                elif isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name):
                    names.add(f"{node.name}.{member.target.id}")
    return names


def toml_has(path: Path, key: str) -> bool:
    data: object = tomllib.loads(path.read_text(encoding="utf-8"))
    for part in key.split("."):
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


def row_problems(cell: str, root: Path = ROOT) -> list[str]:
    """What is untrue in one "change" cell: a path that does not exist, a name not defined in
    the file named before it, a name with no file before it."""
    problems = []
    where: Path | None = None
    for token in re.findall(r"`([^`]+)`", cell):
        if token.startswith(ROOTS):
            where = root / token
            if not where.exists():
                problems.append(f"{token} does not exist")
                where = None
        elif where is not None and where.suffix == ".py":
            if token not in python_names(where):
                problems.append(f"{token} is not defined in {where.relative_to(root)}")
        elif where is not None and where.suffix == ".toml":
            if not toml_has(where, token):
                problems.append(f"{token} is not a key of {where.relative_to(root)}")
        else:
            problems.append(f"{token} follows no file that could hold it")
    return problems


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    lines = len(text.splitlines())
    assert lines <= MAX_README_LINES, f"README.md is {lines} lines (at most {MAX_README_LINES})"
    assert "./dev sim" in text and "./dev test" in text
    for title in ("Two commands", "Playing", "Where to read on", "Libraries, and why"):
        assert f"\n## {title}" in text, title
    listed = section(text, "Where to read on")
    unlisted = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if f"docs/{p.name}" not in listed]
    assert not unlisted, f"not in the README's 'Where to read on': {unlisted}"
    for path in re.findall(r"`((?:docs|hardware)/[\w./-]+)`", listed):
        assert (ROOT / path).exists(), path


def test_every_row_of_where_to_change_what_is_true():
    rows = table_rows(section(ARCHITECTURE.read_text(encoding="utf-8"), "Where to change what"))
    assert len(rows) >= 8
    problems = [f"{task}: {p}" for task, cell in rows for p in row_problems(cell)]
    assert not problems, "\n".join(problems)


def test_the_check_of_a_row_can_fail():
    assert row_problems("`companion/rules/ways.py`'s `WAYS` and `companion/rules/way.py`") \
        == ["companion/rules/way.py does not exist"]
    assert row_problems("`firmware/backends.py`'s `LED_DRIVERS`") \
        == ["LED_DRIVERS is not defined in firmware/backends.py"]
    assert row_problems("`hardware/pinmap.toml`'s `leds.colour`") \
        == ["leds.colour is not a key of hardware/pinmap.toml"]
    assert row_problems("a `Strip` in `firmware/`") == ["Strip follows no file that could hold it"]
    assert row_problems("`firmware/leds.py`'s `Strip.write`") == []

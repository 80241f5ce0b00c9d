"""One job per part: no module of the table service over 400 lines, no class over 300."""

from __future__ import annotations

import ast
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "companion" / "table"
MAX_MODULE = 400
MAX_CLASS = 300


def test_no_table_module_or_class_is_too_long():
    too_long = []
    for path in sorted(TABLE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = len(source.splitlines())
        if lines > MAX_MODULE:
            too_long.append(f"{path.name}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_CLASS:
                    too_long.append(f"{path.name}: class {node.name} is {length} lines")
    assert not too_long, "\n".join(too_long)
    assert len(list(TABLE.glob("*.py"))) > 5      # the check looked at the service's parts

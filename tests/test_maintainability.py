"""Every module keeps radon's maintainability rank A or B (``radon mi companion firmware -s``)."""

from __future__ import annotations

from pathlib import Path

from radon.metrics import mi_rank, mi_visit

ROOT = Path(__file__).resolve().parents[1]


def test_no_module_ranks_below_b():
    ranks = {}
    for top in ("companion", "firmware"):
        for path in sorted((ROOT / top).rglob("*.py")):
            score = mi_visit(path.read_text(encoding="utf-8"), multi=True)
            ranks[str(path.relative_to(ROOT))] = (mi_rank(score), round(score, 1))
    assert len(ranks) > 40
    low = {name: r for name, r in ranks.items() if r[0] not in ("A", "B")}
    assert not low, low

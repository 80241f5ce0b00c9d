"""How often the hands emptied each square since the anchor's next move began (the counts the
tree of histories grows under, see growth.py).

The lifts kept are those after the mat showed the move before the anchor's (``_stand`` cuts
the rest). When turns published together count as shown at the same time (a rest or an
answer that publishes a turn the mat had gone past: the mat's last change), that cut can
fall after the open moves' own lifts, and a square they emptied and the next turn empties
again was counted once (snatch 32: Red's Frog c2d1 swaps the Spirit onto d1, published with
Blue's Horse c3c2 at a question; Blue's Kirin d1d3 lifts d1 again and was never grown, the
game out of step for good). The open moves were made, and every lift since the mat showed
the last of them is one more."""

from __future__ import annotations

from collections import Counter


def emptied_since(lifts: list[tuple[float, int]], shown: list[float],
                  made: Counter[int]) -> Counter[int]:
    """The lifts (when, square) counted by square, but never fewer than the open moves
    emptied (``made``) and the lifts after the mat showed the last of them (``shown``)."""
    counts = Counter(sq for _, sq in lifts)
    after = Counter(sq for t0, sq in lifts if t0 > shown[-1]) if shown else Counter()
    for sq in made.keys() | after.keys():
        counts[sq] = max(counts[sq], made[sq] + after[sq])
    return counts

"""How often the hands emptied each square since the anchor's next move began (the counts the
tree of histories grows under, see growth.py).

The lifts kept are those after the mat showed the move before the anchor's (``_stand`` cuts
the rest). When turns published together count as shown at the same time (a rest or an
answer that publishes a turn the mat had gone past: the mat's last change), that cut can
fall after the open moves' own lifts, and a square they emptied and the next turn empties
again was counted once (snatch 32: Red's Frog c2d1 swaps the Spirit onto d1, published with
Blue's Horse c3c2 at a question; Blue's Kirin d1d3 lifts d1 again and was never grown, the
game out of step for good). The open moves were made, and every lift since the mat showed
the last of them is one more: of a piece they left on the mat (the next turn begun on their
board), or of one that a later turn or a takeback's hands put on a square they emptied, whose
first lift the cut may also have dropped (no-answer 3: Red's Cricket b2d2 is published by an
answer given after Blue's next hands began; with Blue's "Serow or Centipede?" left open, Red's
Whale d2b2 fills b2 again and, two turns on, Red's Cat b2d2 lifts it: never grown, the game
out of step for good)."""

from __future__ import annotations

from collections import Counter


def emptied_since(lifts: list[tuple[float, int]], shown: list[float],
                  made: Counter[int]) -> Counter[int]:
    """The lifts (when, square) counted by square, but never fewer than the open moves
    emptied (``made``), and than that and the lifts since the mat showed the last of them
    (``shown``)."""
    counts = Counter(sq for _, sq in lifts)
    for sq, n in made.items():
        counts[sq] = max(counts[sq], n)
    if shown:
        again = Counter(sq for t0, sq in lifts if t0 > shown[-1] and made[sq])
        for sq, n in again.items():
            counts[sq] = max(counts[sq], made[sq] + n)
    return counts

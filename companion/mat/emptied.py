"""How often the hands emptied each square since the anchor's next move began (the counts the
tree of histories grows under, see growth.py).

The lifts kept are those after the mat showed the move before the anchor's (``_stand`` cuts
the rest). When turns published together count as shown at the same time (a rest or an
answer that publishes a turn the mat had gone past: the mat's last change), that cut can
fall after the open moves' own lifts, and a square they emptied and the next turn empties
again was counted once (snatch 32: Red's Frog c2d1 swaps the Spirit onto d1, published with
Blue's Horse c3c2 at a question; Blue's Kirin d1d3 lifts d1 again and was never grown, the
game out of step for good). The open moves were made, and a lift since the mat showed the
last of them of a piece they left on the mat is one more: the next turn begun on their
board. (A square they left empty was filled again first, by hands that took them back or
by a turn after them: the lifts since the anchor count those, as before.)"""

from __future__ import annotations

from collections import Counter

from .pieces import Pieces


def emptied_since(lifts: list[tuple[float, int]], shown: list[float],
                  made: Counter[int], board: Pieces | None) -> Counter[int]:
    """The lifts (when, square) counted by square, but never fewer than the open moves
    emptied (``made``), and for a piece on their ``board``, than that and the lifts of it
    since the mat showed the last of them (``shown``)."""
    counts = Counter(sq for _, sq in lifts)
    for sq, n in made.items():
        counts[sq] = max(counts[sq], n)
    if shown and board is not None:
        again = Counter(sq for t0, sq in lifts
                        if t0 > shown[-1] and made[sq] and board[sq] is not None)
        for sq, n in again.items():
            counts[sq] = max(counts[sq], made[sq] + n)
    return counts

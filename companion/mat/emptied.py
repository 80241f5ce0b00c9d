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
by a turn after them: the lifts since the anchor count those, as before.)

Nor as one count for every history (session 44: no-answer 3 read, a takeback's trace broken):
a square the open moves left empty and the hands lift again was filled again first, by a
later turn or by hands that took one of them back, and the counts cannot tell which. Each
history tells: one that goes on from the open moves (they were made) and whose own later turns
filled the square and emptied it again may count each lift of it since the mat showed the
last of them as one more (``Again``, ``again_allows``); an amendment may not (no-answer 3:
Blue's "Serow or Centipede?" left open, Red's Whale d2b2 fills b2, which Red's Cricket b2d2
emptied, and Red's Cat b2d2, two turns on, lifts it: never grown, the game out of step for
good; a takeback's hands that put Blue's Centipede c3c2 back on c3 and lift it again for
Crab c3c2 grow no history that keeps Centipede beside the amendment)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules.moves import Move
from .pieces import Pieces

if TYPE_CHECKING:
    from .histories import Node

AGAIN = 100   # (``Lifts`` numbers the lifts again on squares of their own: this + square)


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


@dataclass(frozen=True)
class Again:
    """The open moves as made (``made``), and the lifts since the mat showed the last of
    them of each square they emptied and left empty (``lifts``)."""
    made: "Node"
    lifts: Counter[int]


def again_of(lifts: list[tuple[float, int]], shown: list[float],
             made: "Node | None") -> Again | None:
    """The lifts since the open moves were shown of squares they emptied and left empty (the
    lifts ``emptied_since`` counts no more often), with the node they lead to."""
    if not shown or made is None:
        return None
    again = Counter(sq for t0, sq in lifts
                    if t0 > shown[-1] and made.emptied[sq] and made.pieces[sq] is None)
    return Again(made, again) if again else None


def again_allows(child: "Node", lifted: Counter[int], again: Again) -> bool:
    """Do the lifts allow ``child`` once each lift ``again`` counts is one more on a square
    its own turns after the open moves filled and emptied again? (Only a history that goes
    on from the open moves: the square was empty on their board, so each time its later
    turns emptied it, one of them had filled it first.)"""
    made = again.made
    depth = len(made.steps)
    at: "Node | None" = child
    while at is not None and len(at.steps) > depth:
        at = at.parent
    if at is not made or child is made:
        return False
    needed = set()
    for sq, n in child.emptied.items():
        if lifted.get(sq, 0) < n:
            if again.lifts.get(sq, 0) < n - made.emptied[sq]:
                return False
            needed.add(sq)
    moves = child.moves
    return not any(_back(moves[i], moves[i - 1], needed)
                   for i in range(max(1, len(made.moves)), len(moves)))


def _back(m: Move, before: Move, squares: set[int]) -> bool:
    """Does ``m`` move a piece of the turn ``before`` it back onto one of ``squares``? The
    hands that take ``before`` back do the same: the lifts again cannot tell them apart."""
    done = {(before.from_sq, before.to_sq), (before.spirit_from, before.spirit_to)}
    return any(t in squares and (t, f) in done
               for f, t in ((m.from_sq, m.to_sq), (m.spirit_from, m.spirit_to))
               if f is not None and t is not None)

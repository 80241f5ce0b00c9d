"""A published turn's piece, long after it stood, moved on to another square its turn allows:
the mover amending it late, or the next player lifting the piece they capture and setting it
down for a moment (issue 21 story 6). Both are legal and the mat is the same; the amendment
is read only once the piece has stood as long as a piece set down may be aside
(``sides.ASIDE_S``)."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.moves import Move
from .histories import Explanation
from .sides import ASIDE_S
from .turns import Turns


def set_aside(found: list[Explanation], opened: tuple[Move, ...], shown: list[float],
              lifts: list[tuple[float, int]], changed_at: float, t: float,
              turns: Callable[[], Turns]) -> bool:
    """Does every reading ``found`` at the rest ``t`` amend the last published turn by moving
    its piece on, lifted from the square it stood on for at least ``ASIDE_S`` after the mat
    showed it, to a square it was set down on less than ``ASIDE_S`` ago (``changed_at``),
    where the next player (``turns()``: theirs, made only when asked) could capture it? Then the reading waits until
    the piece has stood ``ASIDE_S``: a piece set aside by the next player's hand is gone by
    then. A turn amended within a moment of its rest (a pawn set down on a wrong square on its
    way) is read at once: the next player was not yet at work."""
    # (Compared as the recognizer's deadline is set: ``changed_at + ASIDE_S``, not by the
    # difference, which rounds below ASIDE_S at that instant for about half the times.)
    if not opened or not found or t >= changed_at + ASIDE_S:
        return False
    last = opened[-1]
    if last.from_sq is None or last.to_sq is None:
        return False
    for e in found:
        moves = e.node.moves
        if len(moves) != len(opened) or moves[:-1] != opened[:-1]:
            return False
        # (The same piece moved on; a Wind Spirit card's Spirit step the same.)
        amended = moves[-1]
        if (amended.from_sq != last.from_sq or amended.to_sq == last.to_sq
                or (amended.spirit_from, amended.spirit_to) != (last.spirit_from, last.spirit_to)):
            return False
    lifted = [t0 for t0, sq in lifts if sq == last.to_sq and t0 >= shown[-1]]
    if not lifted or lifted[0] - shown[-1] < ASIDE_S:
        return False
    theirs = turns()
    # (A Spirit moved on is never captured.)
    return theirs.position.spirit != last.to_sq and any(m.to_sq == last.to_sq for m in theirs.moves)

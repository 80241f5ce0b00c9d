"""A published turn's piece, long after it stood, moved on to another square its turn allows:
the mover amending it late, or the next player's hand at work: lifting the piece they capture
and setting it down for a moment, or carrying the Spirit (which their turn moves too, in the
Way of the Wind) and setting it down on its way (issue 21 story 6). Both are legal and the mat
is the same; the amendment is read only once the piece has stood as long as a piece set down
may be aside or on its way (``sides.ASIDE_S``)."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.moves import Move
from .histories import Explanation, Node
from .pieces import NOW, PieceMap
from .rereading import HESITATE_S, hesitated, rereads
from .sides import ASIDE_S
from .turns import Turns


def set_aside(found: list[Explanation], opened: tuple[Move, ...], shown: list[float],
              lifts: list[tuple[float, int]], changed_at: float, t: float,
              turns: Callable[[], Turns]) -> float | None:
    """When to read the mat again (None: now), if every reading ``found`` at the rest ``t`` amends
    the last published turn by moving one of its pieces on (its pawn, or a Wind Spirit card's
    Spirit), lifted from the square it stood on for at least ``ASIDE_S`` after the mat showed
    it, to a square it was set down on less than ``ASIDE_S`` ago (``changed_at``), where the
    next player (``turns()``: theirs, made only when asked) could capture it, or, the Spirit,
    could move it from. Then the reading waits until the piece has stood ``ASIDE_S``: a piece
    set aside by the next player's hand is gone by then, and a Spirit set down on its way has
    gone on. A turn amended within a moment of its rest (a pawn set down on a wrong square on
    its way) is read at once: the next player was not yet at work. The next player's own piece
    lifted and put back for a moment waits less (``hesitated``)."""
    # (Compared as the recognizer's deadline is set: ``changed_at + ASIDE_S``, not by the
    # difference, which rounds below ASIDE_S at that instant for about half the times.)
    if not opened or not found or t >= changed_at + ASIDE_S:
        return None
    if (t < changed_at + HESITATE_S
            and hesitated(found, opened, shown, lifts, lambda: turns().position)):
        return changed_at + HESITATE_S
    # (Or the next player's piece set down for a moment, read as the mover's: set-down 58.)
    if (rereads(found, opened, shown, lifts, lambda: turns().position)
            or _capturable(found, opened, shown, lifts, turns)):
        return changed_at + ASIDE_S
    return None


def _capturable(found: list[Explanation], opened: tuple[Move, ...], shown: list[float],
                lifts: list[tuple[float, int]], turns: Callable[[], Turns]) -> bool:
    """``set_aside``'s piece moved on where the next player could capture it (or move the
    Spirit from), lifted from the square it stood on for ``ASIDE_S`` after it was shown."""
    last = opened[-1]
    if last.from_sq is None or last.to_sq is None:
        return False
    squares = {_moved_on(last, e.node.moves, opened) for e in found}
    theirs: Turns | None = None
    if squares == {None}:
        # A reading that changes both of a Wind Spirit card's steps may still move one piece
        # on, as the mat sees it (aside-empty 42: Hawk c4d3 b4d4, its swapped student on b4
        # taken by the next player and set down on d5, read as Hawk c4d5 b4d3).
        theirs = turns()
        squares = {_one_moved(e.node, last, opened, theirs.position.occupied()) for e in found}
    if len(squares) != 1 or None in squares:
        return False
    square = squares.pop()
    # (Since it was set down there: an amendment's turn may be dated back to the lifts before
    # it, ``explaining.amended_at``, set-down 50 and 124's Spirit set right 0.5 s after.)
    since = max(shown[-1], _set_down_at(found[0].map, square))
    lifted = [t0 for t0, sq in lifts if sq == square and t0 >= since]
    if not lifted or lifted[0] - since < ASIDE_S:
        return False
    theirs = theirs or turns()
    if theirs.position.spirit == square:
        # (The Spirit is never captured; the next player's turn may carry it on.)
        return any(square in (m.from_sq, m.spirit_from) for m in theirs.moves)
    return any(m.to_sq == square for m in theirs.moves)


def _set_down_at(m: PieceMap, square: int | None) -> float:
    """When ``m``'s piece last set down on ``square`` (and lifted off it since) was set down."""
    return max((down for trail in m.trails if trail for sq, down, up in trail
                if sq == square and up != NOW), default=float("-inf"))


def _moved_on(last: Move, moves: tuple[Move, ...], opened: tuple[Move, ...]) -> int | None:
    """The square of ``last``'s piece that ``moves`` (a history) moves on to another square,
    everything else of the published turns the same: its pawn step's destination, or its Wind
    Spirit card's Spirit step's; None if the history does something else."""
    if len(moves) != len(opened) or moves[:-1] != opened[:-1]:
        return None
    amended = moves[-1]
    if amended.from_sq != last.from_sq:
        return None
    spirit_same = (amended.spirit_from, amended.spirit_to) == (last.spirit_from, last.spirit_to)
    if amended.to_sq != last.to_sq and spirit_same:
        return last.to_sq
    if (amended.to_sq == last.to_sq and not spirit_same and last.spirit_to is not None
            and amended.spirit_from == last.spirit_from):
        return last.spirit_to
    return None


def _one_moved(node: Node, last: Move, opened: tuple[Move, ...],
               published: frozenset[int]) -> int | None:
    """The square ``last`` put a piece on (its pawn's, its Spirit's, or the one its Spirit
    swapped a student onto) that ``node``, amending it (the same piece's turn), empties of
    the board published (``published``), if it fills one other and changes nothing else: one
    of that turn's pieces moved on, as the mat sees it, whatever the steps' labels; None if
    not (a Spirit step added to a turn moves a piece it did not place: takeback-wind 74)."""
    moves = node.moves
    if (len(moves) != len(opened) or moves[:-1] != opened[:-1]
            or moves[-1].from_sq != last.from_sq):
        return None
    emptied, filled = published - node.occupancy, node.occupancy - published
    # (Not back where the turn began: that is its takeback part-way, no-answer 22.)
    one = len(emptied) == len(filled) == 1 and last.from_sq not in filled
    return next(iter(emptied)) if one and emptied <= {last.to_sq, last.spirit_from,
                                                      last.spirit_to} else None

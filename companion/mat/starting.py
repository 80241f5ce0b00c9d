"""When the next player has started: a lift of a piece of theirs that proves real (``clear``),
unless it came with a lift of another piece.

Two lifts closer than ``clear`` are one motion of one hand (see ``explaining.knocked``), and
the debounce may give them in either order. A piece of the next player's lifted at once with
the last mover's own piece or the Spirit (knock 12: Red's Wind card goes on, its hand lifts
the Spirit off d4 and knocks Blue's pawn off e4 40 ms later) is that hand's knock, not the
next player starting: it must not close the last mover's amend window.

After a winning turn, a lift of the loser's piece where the winner's piece could have gone
from the square it left is not the loser starting either: the winner's hand may still hold
that piece, taking the piece it lands on (air-touch 1: Red holds its pawn off c3 while Blue
re-seats its master on b4, read as Phoenix c3b4 and the win; Red's hand then lifts Blue's c4
for 0.21 s and lands the pawn there, Sea-Snake c3c4, which must still amend the win)."""

from __future__ import annotations

from collections.abc import Callable

from .explaining import opponents
from .histories import Tree
from .record import Record
from .window import move_of


def starts(pending: dict[int, float], t: float, lifted: frozenset[int],
           lifts: list[tuple[float, int]], theirs: Callable[[int], bool],
           clear: float) -> dict[int, float]:
    """The next player's lifts still to prove real (square: when) after the lifts ``lifted``
    at ``t``; ``lifts``: the lifts before (when, square); ``theirs``: is a square a piece of
    the next player's, away from the last mover's squares?"""
    started = {sq for sq in lifted if theirs(sq)}
    if started != lifted:
        return {}   # (another piece's lift: those pending were its hand's)
    if any(t - t0 < clear and not theirs(sq) for t0, sq in lifts):
        return pending
    return {**pending, **{sq: t for sq in started}}


def next_players(tree: Tree, record: Record, sq: int) -> bool:
    """Is a lift of ``sq`` the next player's (``explaining.opponents``), and not, after a
    winning turn, the winner's hand taking a piece where the piece it moved could have gone?"""
    if not opponents(tree, record, sq):
        return False
    end = tree.follow(record.moves_open())
    if end is None or not end.over or end.parent is None:
        return True
    moved = move_of(end.steps[-1]).from_sq
    return all(m.to_sq != sq for m in tree.moves_from(end.parent.position).moves
               if m.from_sq == moved)

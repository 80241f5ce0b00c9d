"""When the next player has started: a lift of a piece of theirs that proves real (``clear``),
unless it came with a lift of another piece.

Two lifts closer than ``clear`` are one motion of one hand (see ``explaining.knocked``), and
the debounce may give them in either order. A piece of the next player's lifted at once with
the last mover's own piece or the Spirit (knock 12: Red's Wind card goes on, its hand lifts
the Spirit off d4 and knocks Blue's pawn off e4 40 ms later) is that hand's knock, not the
next player starting: it must not close the last mover's amend window."""

from __future__ import annotations

from collections.abc import Callable


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

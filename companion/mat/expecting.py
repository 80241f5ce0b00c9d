"""The pieces each square may hold: in the game as published, or after a turn the hands may
be making from it. Among maps that need as little noise, those whose pieces stand where the
game may have them are kept first (see ``pieces._beam``)."""

from __future__ import annotations

from functools import lru_cache

Expected = tuple[frozenset[str], ...]       # the pieces each square may hold
Pieces = tuple[str | None, ...]             # what stands on each square (``R r B b W``)
# (Here, not in ``pieces``, so that ``victims``, which ``pieces`` imports, can name them too.)
Visit = tuple[int, float, float]            # a square a piece stood on: (square, from, until)
Trail = tuple[Visit, ...]                   # the squares a piece stood on, in order
InAir = tuple[str, int, float, Trail]       # (piece, the square it left, when, trail)


_NONE = (None,)   # (an empty square, dropped from the pieces a square may hold)


def expected_of(boards: list[Pieces]) -> Expected:
    """For each square, the pieces ``boards`` put there."""
    # (By column: the boards transposed at once, not each square's pieces gathered apart.)
    return tuple(frozenset(column).difference(_NONE) for column in zip(*boards))


# Kept: the beam's maps keep their boards from edge to edge, and ``expected`` changes only
# when the game does, so the same pair is counted again and again (a map's 25 squares at
# every edge).
@lru_cache(maxsize=4096)
def unexpected(pieces: Pieces, expected: Expected) -> int:
    """The squares where ``pieces`` has a piece no expected board puts there (squares no
    board fills do not count: a piece set down for a moment)."""
    return sum(1 for p, e in zip(pieces, expected) if p is not None and e and p not in e)

"""The boards a piece map of the mat can be a history's (see :func:`.histories.explain`): as
it stands, or with a piece put down a moment ago read as not there yet (a captured piece set
aside before it goes off)."""

from __future__ import annotations

from .pieces import PieceMap, Pieces

ASIDE_S = 1.2     # a piece put down less than this long ago may be aside


Sides = list[list[tuple[str | None, Pieces, float | None]]]   # each map's boards (``_boards``)


def sides_of(maps: list[PieceMap], now: float) -> Sides:
    return [_boards(m, now) for m in maps]   # (a look's, for ``boards`` and ``explain``)


def boards(maps: list[PieceMap], now: float, sides: Sides | None = None) -> set[Pieces]:
    """The boards a history must leave to explain one of ``maps`` (see :func:`explain`)."""
    return {b for bs in (sides if sides is not None else sides_of(maps, now)) for _, b, _ in bs}


def _boards(m: PieceMap, now: float) -> list[tuple[str | None, Pieces, float | None]]:
    """The boards a map can be a history's: as it stands, or with one piece set aside on a
    square of its own for a moment (a captured piece put down before it goes off; one that
    stays is not aside), with when it stops being aside."""
    pieces = m.pieces
    out: list[tuple[str | None, Pieces, float | None]] = [(None, pieces, None)]
    for sq, trail in enumerate(m.trails):   # (the time first: most pieces stand for long)
        if not trail:
            continue
        until = trail[-1][1] + ASIDE_S
        if now < until and (p := pieces[sq]) is not None and p != "?":   # (the deadline's own sum)
            out.append((p, pieces[:sq] + (None,) + pieces[sq + 1:], until))
    return out

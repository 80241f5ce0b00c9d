"""The boards a piece map of the mat can be a history's (see :func:`.histories.explain`): as
it stands, or with a piece put down a moment ago read as not there yet (a captured piece set
aside before it goes off; a Wind Spirit set down on its way, its card's turn not done)."""

from __future__ import annotations

from itertools import compress
from typing import Protocol, TypeVar

from .pieces import PieceMap, Pieces

ASIDE_S = 1.2     # a piece put down less than this long ago may be aside, or on its way
ON_ITS_WAY = "~"  # (``_boards``' mark for a Wind Spirit set down on its way, not yet moved)


Sides = list[list[tuple[str | None, Pieces, float | None]]]   # each map's boards (``_boards``)


def sides_of(maps: list[PieceMap], now: float) -> Sides:
    return [_boards(m, now) for m in maps]   # (a look's, for ``boards`` and ``explain``)


class _Leaves(Protocol):
    @property
    def board_hash(self) -> int: ...   # (the board a history leaves, hashed)


H = TypeVar("H", bound=_Leaves)


def filed(nodes: list[H], sides: Sides) -> tuple[dict[int, list[H]], list[list[int]]]:
    """The ``nodes`` that leave one of the ``sides``' boards, filed by the board's hash, in
    order (most nodes leave none: not filed), and each map's boards' hashes (each board
    hashed once a look)."""
    keys = [[hash(b) for _, b, _ in bs] for bs in sides]
    wanted = set().union(*keys)
    out: dict[int, list[H]] = {}
    for n in nodes:
        if n.board_hash in wanted:
            out.setdefault(n.board_hash, []).append(n)
    return out, keys


def boards(maps: list[PieceMap], now: float, sides: Sides | None = None) -> set[Pieces]:
    """The boards a history must leave to explain one of ``maps`` (see :func:`explain`)."""
    return {b for bs in (sides if sides is not None else sides_of(maps, now)) for _, b, _ in bs}


def _boards(m: PieceMap, now: float) -> list[tuple[str | None, Pieces, float | None]]:
    """The boards a map can be a history's: as it stands, or with one piece set aside on a
    square of its own for a moment (a captured piece put down before it goes off; one that
    stays is not aside), or with a Spirit put down a moment ago back where it started (marked
    ``ON_ITS_WAY``), each with when it stops being so."""
    pieces = m.pieces
    out: list[tuple[str | None, Pieces, float | None]] = [(None, pieces, None)]
    # The squares set down on lately, found first in one comprehension: every map's 25
    # trails at every look (the time first: most pieces stand for long). Only the squares
    # with a piece are looked at, picked out in C (``compress``, ``filter``): most are empty.
    trails = m.trails
    recent = [(sq, trail) for sq, trail in zip(compress(range(len(trails)), trails),
                                               filter(None, trails))
              if now < trail[-1][1] + ASIDE_S]
    for sq, trail in recent:
        until = trail[-1][1] + ASIDE_S   # (the deadline's own sum)
        if (p := pieces[sq]) is not None and p != "?":
            out.append((p, pieces[:sq] + (None,) + pieces[sq + 1:], until))
            home = trail[0][0]
            if p == "W" and len(trail) == 2 and home != sq and pieces[home] is None:
                # The Spirit set down for a moment on its way: a Wind card part-way whose
                # Spirit is still in the hand (story 9). Only while the maps know of one
                # step of the Spirit's (a trail of two): offered after any step, it read the
                # next player's quick Spirit move as one set down (hurried 32 wedged), and
                # nothing at the rest tells the two apart; a narrowing, not a distinction.
                back = list(pieces)
                back[sq], back[home] = None, p
                out.append((ON_ITS_WAY, tuple(back), until))
    return out

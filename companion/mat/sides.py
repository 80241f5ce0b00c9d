"""The boards a piece map of the mat can be a history's (see :func:`.histories.explain`): as
it stands, or with a piece put down a moment ago read as not there yet (a captured piece set
aside before it goes off; a Wind Spirit set down on its way, its card's turn not done)."""

from __future__ import annotations

from .pieces import NOW, PieceMap, Pieces, Trails, Visit

ASIDE_S = 1.2     # a piece put down less than this long ago may be aside, or on its way
ON_ITS_WAY = "~"  # (``_boards``' mark for a Wind Spirit set down on its way, not yet moved)


Sides = list[list[tuple[str | None, Pieces, float | None]]]   # each map's boards (``_boards``)
# The mat's rests: since when they are known, and when each came (see ``_touched``).
Rests = tuple[float, tuple[float, ...]]


def sides_of(maps: list[PieceMap], now: float, rests: Rests | None = None) -> Sides:
    # (a look's, for ``boards`` and ``explain``)
    return [_boards(m, now, rests) for m in maps]


def boards(maps: list[PieceMap], now: float, sides: Sides | None = None) -> set[Pieces]:
    """The boards a history must leave to explain one of ``maps`` (see :func:`explain`)."""
    return {b for bs in (sides if sides is not None else sides_of(maps, now)) for _, b, _ in bs}


def _boards(m: PieceMap, now: float, rests: Rests | None
            ) -> list[tuple[str | None, Pieces, float | None]]:
    """The boards a map can be a history's: as it stands, or with one piece set aside on a
    square of its own for a moment (a captured piece put down before it goes off; one that
    stays is not aside), or with a Spirit put down a moment ago back where it started (marked
    ``ON_ITS_WAY``), each with when it stops being so."""
    pieces = m.pieces
    out: list[tuple[str | None, Pieces, float | None]] = [(None, pieces, None)]
    for sq, trail in enumerate(m.trails):   # (the time first: most pieces stand for long)
        if not trail:
            continue
        until = trail[-1][1] + ASIDE_S
        if now < until and (p := pieces[sq]) is not None and p != "?":   # (the deadline's own sum)
            out.append((p, pieces[:sq] + (None,) + pieces[sq + 1:], until))
            home = _home(trail, rests) if p == "W" else None
            if home is not None and home != sq and pieces[home] is None:
                # The Spirit set down for a moment on its way: a Wind card part-way whose
                # Spirit is still in the hand (story 9). Only while the maps know of one
                # step of the Spirit's (a trail of two), or after squares it only touched
                # on its way (``_home``). Offered after any step, it read the next player's
                # quick Spirit move as one set down (hurried 32 wedged), and nothing at the
                # rest tells the two apart; a narrowing, not a distinction.
                back = list(pieces)
                back[sq], back[home] = None, p
                out.append((ON_ITS_WAY, tuple(back), until))
    return out


def carried_back(m: PieceMap, pieces: Pieces) -> Trails:
    """``m``'s trails with its Spirit back where ``pieces`` (an ``ON_ITS_WAY`` board of ``m``'s)
    has it, as it stood there: a history's path takes it there, not on the squares it passed."""
    sq = m.pieces.index("W")
    home = pieces.index("W")
    trail = m.trails[sq] or ()
    i = max(j for j, v in enumerate(trail[:-1]) if v[0] == home)
    trails = list(m.trails)
    trails[sq], trails[home] = None, trail[:i] + ((home, trail[i][1], NOW),)
    return tuple(trails)


def _home(trail: tuple[Visit, ...], rests: Rests | None) -> int | None:
    """Where a Spirit set down a moment ago came from, if that is known: the start of a
    trail of two, or the square it stood on before squares it only touched on its way
    (each while the mat never rested: the hand that carried it never let go of it there,
    so a turn ending there is no turn the next player could reply to, set-down 44)."""
    if len(trail) == 2:
        return trail[0][0]
    i = len(trail) - 2
    while i >= 0 and _touched(trail[i], rests):
        i -= 1
    return trail[i][0] if 0 <= i < len(trail) - 2 else None


def _touched(visit: Visit, rests: Rests | None) -> bool:
    """Did a piece stand on ``visit``'s square only while the mat never rested? A visit
    before the rests are known from counts as a step."""
    if rests is None:
        return False
    known, times = rests
    _, came, left = visit
    return came > known and not any(came < t <= left for t in times)

"""Whether the hands moved the pieces as a history says: each piece's *path* (the squares a
history's turns took it along) against its *trail* on a piece map (the squares it stood on,
with when it arrived and left), and the noise of the rests a history leaves unexplained."""

from __future__ import annotations

from functools import lru_cache

from ..rules.moves import Move
from .pieces import NOW, PieceMap, Pieces, Trail, Trails, Visit

# (square, the turn that took the piece there, 1 if by a Wind Spirit card's Spirit step)
Path = tuple[tuple[int, int, int], ...]
Paths = tuple[Path | None, ...]
BACK_S = 1.0      # a piece back on a square its history's path left, this long, was taken back
LINGER_S = 1.0    # the player to move's piece resting this long where no turn put it: noise 1


def step(pieces: list[str | None], paths: list[Path | None], f: int, t: int, turn: int,
         spirit: int = 0) -> None:
    """A piece goes from ``f`` to ``t`` in ``turn`` (``spirit``: by a Wind Spirit card's
    Spirit step): one standing on ``t`` goes to ``f`` (a swap) if it is the Spirit's step,
    else off (a capture: the caller counts it)."""
    mover, path = pieces[f], paths[f] or ((f, 0, 0),)
    if pieces[t] is not None and mover == "W":
        pieces[f], paths[f] = pieces[t], (paths[t] or ((t, 0, 0),)) + ((f, turn, spirit),)
    else:
        pieces[f], paths[f] = None, None
    pieces[t], paths[t] = mover, path + ((t, turn, spirit),)


def paths_after(pieces: Pieces, paths: Paths, turn: int, move: Move) -> Paths:
    """Each piece's path after ``move``, the ``turn``-th, from a history with ``pieces`` and
    ``paths`` (the steps as :func:`.readings.read_move` makes them: the pawn's, then the
    Spirit's)."""
    board, out = list(pieces), list(paths)
    if move.from_sq is not None and move.to_sq is not None:
        step(board, out, move.from_sq, move.to_sq, turn)   # a pawn's, or the Spirit's
    if move.wind_card and move.spirit_from is not None and move.spirit_to is not None:
        step(board, out, move.spirit_from, move.spirit_to, turn, 1)
    return tuple(out)


def walked(paths: Paths, trails: Trails, since: float = float("-inf")) -> bool:
    """Did the hands move the pieces as the history's ``paths`` say? Each piece a history
    moved must have stood on its path's squares in order (and maybe others: set-downs),
    arriving after ``since`` (when the mat showed the anchor: a square the piece stood on
    before is no step of the history's), and each turn's pieces must have landed before the
    next turn's first piece left (the next player waits to see the turn). A Wind Spirit
    card's Spirit step comes after its pawn step (the rules' order): the Spirit lands after
    the pawn left (a Spirit resting where it went before the pawn moved went there in a turn
    of its own: set-down 22)."""
    moved = _moved(paths)
    return _walked(moved, tuple([trails[sq] or () for sq, _ in moved]), since)


@lru_cache(maxsize=4096)   # (a history's paths are asked of every map at every look)
def _moved(paths: Paths) -> tuple[tuple[int, Path], ...]:
    """The pieces ``paths`` moves (a path of two squares or more), by the square each is on."""
    return tuple((sq, path) for sq, path in enumerate(paths) if path is not None and len(path) > 1)


# Kept: only the moved pieces' trails count, and those are the same in most maps and at most
# looks (a map differs from another, and from itself a look before, in a piece or two), so
# the same question comes again and again; keyed by them alone, it is cheap to ask.
@lru_cache(maxsize=8192)
def _walked(moved: tuple[tuple[int, Path], ...], trails: tuple[Trail, ...], since: float) -> bool:
    """:func:`walked`, of the pieces moved (``_moved``) and their ``trails``."""
    landed: dict[int, float] = {}   # turn -> when its last piece landed
    left: dict[int, float] = {}     # turn -> when its first piece left
    spirit_in: dict[int, float] = {}   # turn -> when its Spirit step's first piece landed
    pawn_out: dict[int, float] = {}    # turn -> when its pawn step's piece left
    for (_, path), trail in zip(moved, trails):
        visits = _match(path, trail)
        if visits is None and (seen := _seen(path)) != path:
            path, visits = seen, _match(seen, trail)   # a pawn step carried past
        if visits is None or any(-NOW < v[1] <= since for v in visits[1:]):
            return False
        for (_, turn, spirit), visit, before in zip(path[1:], visits[1:], visits):
            landed[turn] = max(landed.get(turn, float("-inf")), visit[1])
            left[turn] = min(left.get(turn, NOW), before[2])
            if spirit:
                spirit_in[turn] = min(spirit_in.get(turn, NOW), visit[1])
            if spirit != 1:
                pawn_out[turn] = before[2]
    if any(-NOW < spirit_in[k] < pawn_out[k] < NOW for k in spirit_in if k in pawn_out):
        return False
    return all(landed[k] <= left[k + 1] for k in landed if k + 1 in left)


@lru_cache(maxsize=4096)   # (a history's paths are asked of every map at every look)
def _seen(path: Path) -> Path:
    """The squares of ``path`` the mat must have shown: a pawn step's square that the same
    turn's Spirit step swaps the pawn away from may never be stood on (a hand carries the pawn
    straight to the square the Spirit leaves; the table robot's wind4 101). The pawn's leaving
    is then its Spirit step's (marked 2: both steps)."""
    out = list(path[:1])
    for k in range(1, len(path)):
        sq, turn, spirit = path[k]
        if k + 1 < len(path) and not spirit and path[k + 1][1] == turn and path[k + 1][2]:
            continue
        if spirit and out[-1][1] != turn and path[k - 1][1] == turn and k > 1:
            spirit = 2
        out.append((sq, turn, spirit))
    return tuple(out)


def untimed(paths: Paths) -> Trails:
    """A history's paths as trails whose times are not known (a mat read from the board)."""
    return tuple(None if path is None else tuple((sq, float("-inf"), NOW) for sq, *_ in path)
                 for path in paths)


# Kept: the same histories are asked of the same maps' trails look after look (a piece's
# trail changes only when it moves; four in five asks were ones made before).
@lru_cache(maxsize=8192)
def _match(path: Path, trail: Trail) -> tuple[Visit, ...] | None:
    """The visits of ``trail`` the ``path``'s squares are, in order (the last one the square
    the piece stands on now), or None."""
    out = []
    i, later = len(trail), len(trail)
    for k in range(len(path) - 1, -1, -1):
        sq = path[k][0]
        i -= 1
        while i >= 0 and trail[i][0] != sq:
            i -= 1
        if i < 0:
            return None
        # A piece back on a square its path had left, resting there, had its turn taken back,
        # not set down on the way (a takeback re-read as the turn and a reply: takeback 8).
        before = {s for s, *_ in path[:k + 1]}
        if any(v[0] in before and v[2] - v[1] >= BACK_S for v in trail[i + 1:later]):
            return None
        later = i
        out.append(trail[i])
    return tuple(out[::-1])


def idle_noise(paths: Paths, m: PieceMap, idle: frozenset[str], since: float, shown: float) -> int:
    """The noise of the squares where a piece of ``idle`` (the player to move) that the
    history leaves where it stood rested ``LINGER_S`` or more since ``since``, and left after
    the mat showed the game as published (``shown``; a turn taken back since rested there as
    the takeback's own: takeback 1), 1 each: hands at work on the other player's turn do not
    leave it there (calm 48: a Wind card's swap, shown and published, re-read as the mover's
    Spirit set down on its way)."""
    if not idle:
        return 0
    return sum(1 for sq, path in enumerate(paths)
               if path is not None and len(path) == 1 and m.pieces[sq] in idle
               for v in (m.trails[sq] or ())[:-1]
               if v[1] > since and shown < v[2] and v[2] - v[1] >= LINGER_S)

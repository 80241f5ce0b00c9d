"""A Spirit glimpse: the next player lifts the Spirit 50-250 ms after a turn landed it, before
the mat could rest there. The switches cannot tell that landing from the Spirit set down a
moment on its way (a hesitation of one hand): both leave the same edges. A history whose one
board the mat did not rest on is such a landing, carried on by the next turn's Spirit step, is
not put after the one-turn reading (``resting.seen_at_rest``): both stay, and where their
cards or seats differ the table asks (whose step, move or takeback), as the histories'
disagreement calls for (snatch 184: Crane c3c4 and Blue's Horse c4d4 the Spirit on c4 for
64 ms, read silently as Phoenix c3d4; hurried 42: Sheep c3c2 and Giraffe c2c3 read as the
Spirit set down on c2, nothing played)."""

from __future__ import annotations

from .histories import Node
from .record import Record


def rested_boards(record: Record, lifts: list[tuple[float, int]], shown: list[float],
                  rested: list[tuple[float, frozenset[int]]]) -> set[frozenset[int]]:
    """The boards the mat rested on since it first rested on the game as published (since it
    was shown), before the hands' last lift; since it was shown if the mat had rested on it
    before (then its next rest there is a round trip's end: spirit-back 55, Turtle c3d2
    asked, rested on, then Rat d2c3 moved the Spirit back, and Turtle's board no longer
    counted)."""
    board = record.position.occupied()
    last_lift = max((t0 for t0, _ in lifts), default=float("-inf"))
    last_shown = shown[-1] if shown else float("-inf")
    since = last_shown
    if not any(occ == board and t0 <= last_shown for t0, occ in rested):
        since = min((t0 for t0, occ in rested if occ == board and t0 >= last_shown),
                    default=last_shown)
    return {occ for t0, occ in rested if since < t0 < last_lift}


Rests = list[tuple[float, frozenset[int]]]


def stood(lifts: list[tuple[float, int]], shown: list[float], rested: Rests) -> Rests:
    """The rests (when, board) after the mat showed the game as published, before the
    hands' last lift: none of their boards is a glimpse (the Spirit stood there the settle
    time; whether a history may end a turn on it is :func:`rested_boards`'s to say).
    No-answer 32: Blue's Sasori c3e3 rested 1.4 s (asked), then Red's Whale e3c3 lifted the
    Spirit; the rests counted from the Whale's return to the board as published, after it."""
    last_lift = max((t0 for t0, _ in lifts), default=float("-inf"))
    last_shown = shown[-1] if shown else float("-inf")
    return [(t0, occ) for t0, occ in rested if last_shown < t0 < last_lift]


def glimpses_pass(node: Node, passed: list[Node], unseen: list[Node], board: frozenset[int],
                  still: Rests, lifts: list[tuple[float, int]]) -> bool:
    """Is each of ``unseen`` (boards the mat did not rest on, of those ``node`` passes
    through, ``passed``, last first, after the game as published on ``board``) a glimpse: a
    board the next turn carried the Spirit on from (:func:`glimpsed`), never stood on
    (``still``: :func:`stood`), and carried on at once: from the hands' lift of the Spirit
    there (``lifts``) to the next board the mat rested on (or the mat now), no other whole
    board rested on? Spirit-back 130: Crane c3b2 (a moment on d2, 4.8 s on b2, asked), then
    Blue's Rabbit b2c3: not Crane c3d2 with Rabbit d2e3 and Frog e3c3 carrying a glimpse on
    through b2."""
    boards = {occ for _, occ in still if occ != board}   # (a swap leaves it as published)
    if not all(glimpsed(node, n) and n.occupancy not in boards for n in unseen):
        return False
    path = [None, *reversed(passed), node]
    ids = {id(n) for n in unseen}
    glimpses = {i for i, n in enumerate(path) if n is not None and id(n) in ids}
    occs = [board] + [n.occupancy for n in path[1:] if n is not None]
    where = _aligned(occs, glimpses, still)
    return all(_at_once(occs, glimpses, where, i, path[i], (still, lifts))
               for i in glimpses if i - 1 not in glimpses)


def _aligned(path: list[frozenset[int]], glimpses: set[int], still: Rests) -> dict[int, float]:
    """When the mat rested on each board of ``path`` but the glimpses (``still``): the board
    as published at its last rest before any other whole board, each next board at its
    first rest after the one before, the mat now (infinity) last."""
    pos, when = -1, float("-inf")
    for k, (t0, occ) in enumerate(still):
        if occ == path[0]:
            pos, when = k, t0
        elif len(occ) >= len(path[0]):
            break
    where = {0: when}
    for j in range(1, len(path)):
        if j not in glimpses:
            pos = next((k for k in range(pos + 1, len(still))
                        if still[k][1] == path[j] and j < len(path) - 1), len(still))
            where[j] = still[pos][0] if pos < len(still) else float("inf")
    return where


def _at_once(path: list[frozenset[int]], glimpses: set[int], where: dict[int, float], i: int,
             first: Node | None,
             mat: tuple[Rests, list[tuple[float, int]]]) -> bool:
    """From the hands' lift of the Spirit off the first glimpse of a chain (``i``, board
    ``first``) to the board after the chain, did the mat rest on no other whole board?"""
    still, lifts = mat
    after = i + 1
    while after in glimpses:
        after += 1
    assert first is not None
    square = first.position.spirit
    lift = min((t0 for t0, sq in lifts if sq == square and where[i - 1] < t0 < where[after]),
               default=where[i - 1])
    return not any(lift < t0 < where[after] and len(occ) >= len(path[after])
                   and occ not in (path[i - 1], path[after]) for t0, occ in still)


def glimpsed(node: Node, at: Node) -> bool:
    """Is ``at`` (a history ``node`` passes through) a board whose last turn put the Spirit on
    a square that ``node``'s next turn lifts it from, to move it alone (the next player's
    Spirit step carrying it on)?"""
    n = len(at.moves)
    if not at.moves or len(node.moves) <= n:
        return False
    last, nxt = at.moves[-1], node.moves[n]
    spirit = at.position.spirit
    placed = spirit in (last.to_sq, last.spirit_to)
    alone = (nxt.from_sq == spirit if not nxt.wind_card
             else nxt.from_sq is None and nxt.spirit_from == spirit)
    return placed and alone


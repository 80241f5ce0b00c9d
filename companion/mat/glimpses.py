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
    was shown), before the hands' last lift."""
    board = record.position.occupied()
    last_lift = max((t0 for t0, _ in lifts), default=float("-inf"))
    last_shown = shown[-1] if shown else float("-inf")
    since = min((t0 for t0, occ in rested if occ == board and t0 >= last_shown),
                default=last_shown)
    return {occ for t0, occ in rested if since < t0 < last_lift}


def stood(lifts: list[tuple[float, int]], shown: list[float],
          rested: list[tuple[float, frozenset[int]]]) -> set[frozenset[int]]:
    """The boards the mat rested on after it showed the game as published, before the hands'
    last lift, whichever came first: none of them is a glimpse (the Spirit stood there the
    settle time; whether a history may end a turn on it is :func:`rested_boards`'s to say).
    No-answer 32: Blue's Sasori c3e3 rested 1.4 s (asked), then Red's Whale e3c3 lifted the
    Spirit; the rests counted from the Whale's return to the board as published, after it."""
    last_lift = max((t0 for t0, _ in lifts), default=float("-inf"))
    last_shown = shown[-1] if shown else float("-inf")
    return {occ for t0, occ in rested if last_shown < t0 < last_lift}


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

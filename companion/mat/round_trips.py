"""A Spirit moved away and back by the two players leaves the mat as it was: a history that
stops at a turn and one that goes on from it with such a round trip explain one mat, and only
the players can tell them apart (session 42's spirit-back 21: Sheep d2d1, or Sheep d2d1, Dragon
d1c2 and Cobra c2d1; read as the first until the hands went on, 6.4 s late)."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import common_prefix
from .histories import Tree


def round_trip(paths: list[tuple[Move, ...]], opened: tuple[Move, ...]) -> bool:
    """Does some history of ``paths`` stop at the last turn they all agree on, not published
    yet (``opened``), while another goes on from it?"""
    common = common_prefix(paths)
    return (common > len(opened) and any(len(p) == common for p in paths)
            and len(set(paths)) > 1)


def since_published(paths: list[tuple[Move, ...]], opened: tuple[Move, ...]) -> bool:
    """Does some history of ``paths`` stop at the last published turn (``opened``) while
    another goes on from it: a round trip may have been made since? Only the players can
    tell, by their last turn: the published one, or the round trip's last (asked at once,
    the turns they agree on published with :func:`shown_then`'s time)."""
    return (bool(opened) and opened in paths
            and any(len(p) > len(opened) and p[:len(opened)] == opened for p in paths))


def shown_then(tree: Tree, paths: list[tuple[Move, ...]], opened: tuple[Move, ...], common: int,
               rested: list[tuple[float, frozenset[int]]], after: float,
               shown: float | None) -> float | None:
    """When the mat showed the board of the first ``common`` turns of ``paths``, published
    while a :func:`round_trip` after them is asked about: its first rest there after
    ``after`` (when the game as published was shown), not its last change (the round
    trip's end: the turns after are read from the lifts since that time); else ``shown``."""
    node = tree.follow(paths[0][:common]) if round_trip(paths, opened) else None
    return shown if node is None else min(
        (t0 for t0, occ in rested if occ == node.occupancy and t0 > after), default=shown)

"""Where the last mover may still be at work when a history amends or takes back published
turns: a lift there is no proof that the next player started, so it ends no turn (fast play
publishes at a lift only turns the mat showed as done). Session 41: a Wind Spirit card's turn
taken back Spirit first, its Spirit lifted from where the turn put it (takeback-wind 150), or
carried on after being set down where it came from (hurried 146), was read as the turn amended
and the next player's lift, and the amendment published while the hands were still at work."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import agreement
from .histories import Node
from .undoing import steps


def at_work(node: Node, opened: tuple[Move, ...]) -> frozenset[int]:
    """The squares of the published turns (``opened``) that ``node`` does not keep."""
    replaced = opened[agreement(node.moves, opened):]
    return frozenset(sq for move in replaced for step in steps(move) for sq in step
                     if sq is not None)

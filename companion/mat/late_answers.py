"""Answers that come late: the turns they publish were shown when the mat first rested on
them, not when the answer came (session 37's cause 3: the lifts since are the next turns')."""

from __future__ import annotations

from .histories import Node


def first_rest(node: Node, common: int, rested: list[tuple[float, frozenset[int]]],
               before: float, at: float, shown: float | None) -> float:
    """When the mat showed the last of ``node``'s first ``common`` turns, published now at
    ``at`` (its last change, or ``shown``: a fast lift's): if the hands went on past it (an
    answer that came late), when it first rested on its board after ``before``, and the
    lifts since are the next turns' (no-answer 3)."""
    if shown is not None or common >= len(node.moves):
        return at
    while len(node.steps) > common and node.parent is not None:
        node = node.parent
    return min([at] + [t0 for t0, occ in rested if occ == node.occupancy and t0 > before])

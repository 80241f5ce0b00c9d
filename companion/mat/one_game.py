"""Histories that read the hands two ways and lead to the same game with the same cards."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import agreement, cards_of
from .histories import Node


def one_game(found: list[Node], opened: tuple[Move, ...]) -> list[Node]:
    """``found``, or, when every history leads to the same game with the same cards (a Wind
    Spirit step read two ways), the one that changes least of what was published (``opened``):
    nothing is left to ask. (Two cards of one pattern used in turn by both players reach the
    same game too, with other cards in hand: the record would then name the wrong cards, so
    they are asked about.)"""
    if len({n.position for n in found}) == 1 and len({cards_of(n) for n in found}) == 1:
        return [min(found, key=lambda n: (-agreement(n.moves, opened), len(n.steps)))]
    return found

"""Replies that move pieces straight back along the last turn's steps: also that turn's
takeback part-way (issue 21 story 5, and session 37's cause 10: a Wind Spirit card's turn
taken back Spirit first, the mat resting between the two halves)."""

from __future__ import annotations

from ..rules.moves import Move
from .histories import Node, Tree


def steps(move: Move) -> set[tuple[int | None, int | None]]:
    """A turn's steps (from, to): the pawn's (or a regular card's Spirit move), the Spirit's."""
    return {(move.from_sq, move.to_sq), (move.spirit_from, move.spirit_to)} - {(None, None)}


def undoes(reply: Move, move: Move) -> bool:
    """Does ``reply`` only move pieces straight back along ``move``'s steps?"""
    return all((t, f) in steps(move) for f, t in steps(reply))


def spirit_put_back(found: list[Node], opened: tuple[Move, ...]) -> bool:
    """Is every history ``found`` the last published turn, a Wind Spirit card's, and a reply
    that only moves its Spirit straight back? The mat is then also that turn's takeback
    part-way, its Spirit put back first and its pawn step still to go back, which the pawn's
    return (or the next turn) settles."""
    return bool(opened) and all(n.moves[:-1] == opened and n.pending is None
                                and _spirit_back(n.moves[-1], opened[-1]) for n in found)


def spirit_first(tree: Tree, opened: tuple[Move, ...]) -> Node | None:
    """The history that takes back the last two published turns when the last only moves
    the Spirit of the one before, a Wind Spirit card's, straight back: that turn taken back
    Spirit first. None if not."""
    if len(opened) < 2 or not _spirit_back(opened[-1], opened[-2]):
        return None
    return tree.follow(opened[:-2])


def _spirit_back(reply: Move, move: Move) -> bool:
    """Does ``reply`` only move the Spirit of ``move``, a Wind Spirit card's turn, straight
    back (its pawn step not undone)?"""
    return (move.wind_card and len(steps(move)) == 2 and undoes(reply, move)
            and len(steps(reply)) < 2)

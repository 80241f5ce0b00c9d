"""Replies that move pieces straight back along the last turn's steps: also that turn's
takeback part-way (issue 21 story 5, and session 37's cause 10: a Wind Spirit card's turn
taken back Spirit first, the mat resting between the two halves)."""

from __future__ import annotations

from ..rules.moves import Move
from .asking import TAKEBACK, Question
from .histories import Explanation, Node, Tree


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


def taking_back(tree: Tree, nodes: list[Node], opened: tuple[Move, ...],
                asked: Question | None, first: Node | None) -> frozenset[Node]:
    """The histories that take back published turns ``opened``, whose pieces
    rested where those turns put them as their own, the other player's too (a Wind Spirit
    card's swap taken back: late-answer 24), so they pay no idle noise (see
    :func:`.histories.explain`): those that stop short of them, ``first`` (see
    :func:`spirit_first`), and while the question ``asked`` offers a takeback, those that
    make another turn in place of the one it offers to take back."""
    out = set() if first is None else {first}
    node = tree.follow(opened)
    while node is not None and node.parent is not None:
        node = node.parent
        out.add(node)
    return frozenset(out) | instead(nodes, opened, asked)


def instead(nodes: list[Node], opened: tuple[Move, ...],
            asked: Question | None) -> frozenset[Node]:
    """While the question ``asked`` offers to take back a published turn: the histories
    ``nodes`` that make another turn in place of it."""
    if asked is None or TAKEBACK not in asked.prefixes:
        return frozenset()
    return _in_place(nodes, opened[:asked.depth + 1])


def asked_instead(nodes: list[Node], opened: tuple[Move, ...],
                  asked: Question | None) -> frozenset[Node]:
    """:func:`instead`, and while the question ``asked`` asks about a published turn with an
    option that makes another turn in its place, the histories ``nodes`` that do (the
    players are asked: the next player's start does not answer it). No-answer 144: Red's
    Mantis c3b4, published; the Spirit went back ("Frog, or take back Mantis?"), then Red's
    Lion a1b2 c3c4 came, asked "Lion or Mantis?": Mantis taken back and Lion, or Blue's Frog
    and Lion; Blue's start kept only the Frog history."""
    turn = opened[:asked.depth + 1] if asked is not None else ()
    if asked is not None and len(turn) > asked.depth and any(
            p[:len(turn)] != turn for ps in asked.prefixes.values() for p in ps):
        return _in_place(nodes, turn)
    return instead(nodes, opened, asked)


def _in_place(nodes: list[Node], turn: tuple[Move, ...]) -> frozenset[Node]:
    """The histories ``nodes`` that do not play ``turn`` (from the anchor)."""
    return frozenset(n for n in nodes if n.moves[:len(turn)] != turn)


def _spirit_back(reply: Move, move: Move) -> bool:
    """Does ``reply`` only move the Spirit of ``move``, a Wind Spirit card's turn, straight
    back (its pawn step not undone)?"""
    return (move.wind_card and len(steps(move)) == 2 and undoes(reply, move)
            and len(steps(reply)) < 2)


def moved_back(found: list[Explanation], nodes: list[Node],
               opened: tuple[Move, ...]) -> list[Explanation]:
    """When every history ``found`` takes back the last published turn, a regular card's
    Spirit move: the grown histories in which the next player moved that Spirit straight back
    instead, as noisy (the mat is the same; story 1). Only the hands or the players can tell
    them apart, so they are read beside the takeback, not left out (snatch 2: Blue's Turtle
    a2b3 moving back the Spirit Red's Eel b3a2 had just placed was published as Eel taken
    back: Eel's shown time, that of an answer after a chain of fast Spirit moves, was later
    than the Spirit's own landing, and the reply failed its trail)."""
    if not found or not opened or any(e.node.moves != opened[:-1] for e in found):
        return []
    last = opened[-1]
    if last.wind_card or last.from_sq is None or len(steps(last)) != 1:
        return []
    known = {e.node for e in found}
    return [Explanation(n, found[0].cost, found[0].map) for n in nodes
            if n not in known and n.pending is None and n.moves[:-1] == opened
            and n.parent is not None and n.parent.pieces[last.to_sq or 0] == "W"
            and not n.moves[-1].wind_card and undoes(n.moves[-1], last)
            and n.occupancy == found[0].node.occupancy]

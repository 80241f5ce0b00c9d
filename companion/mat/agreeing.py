"""Fast play read two ways: a lift that ends the last turn of every history found publishes
the turns they all agree on (hurried 20: a Spirit lifted 0.05-0.25 s after it landed is
also one hand's Spirit set down on its way, and the histories disagree on its last step)."""

from __future__ import annotations

from .explaining import common_prefix, fast_squares
from .histories import Explanation, Node, Tree
from .pieces import PIECES
from .record import Record
from .undoing import steps


def agreed_turn(found: list[Explanation], tree: Tree, record: Record, midway: list[Node],
                lifted: frozenset[int], lifts: tuple[list[tuple[float, int]], float, float],
                version: int) -> dict[int, tuple[float, int, Node, float]]:
    """The history of the turns every history of ``found`` has alike, past those published,
    and the squares of ``lifted`` a lift of which leaves those turns over in each history:
    it ends the history's last turn, or it is a piece of that turn's mover, two turns or
    more past the agreed ones (an amendment of the last turn keeps them); one history at
    least must be ended. With when the mat last showed those turns: at the first lift, after
    ``shown_at``, of a square the turn after them moves in a history (else ``t``). Empty if
    there are none, or they agree on no turn more. As the recognizer's fast lifts: by square,
    (``t``, ``version``, the agreed history, when shown); ``lifts`` is (the lifts since the
    anchor, ``shown_at``, ``t``)."""
    nodes = list({id(e.node): e.node for e in found}.values())
    if len(nodes) < 2 or any(n.pending is not None or not n.steps for n in nodes):
        return {}
    opened = record.moves_open()
    agreed = common_prefix([n.moves for n in nodes])
    node = tree.follow(nodes[0].moves[:agreed])
    if agreed <= len(opened) or node is None or node.pending is not None:
        return {}
    ending = [set(fast_squares(tree, n, midway, lifted)) for n in nodes]
    ends = sorted(sq for sq in set().union(*ending)
                  if all(sq in e or _amends(n, sq, agreed) for n, e in zip(nodes, ending)))
    shown = _shown(nodes, agreed, lifts) if ends else lifts[2]
    return {sq: (lifts[2], version, node, shown) for sq in ends}


def _shown(nodes: list[Node], agreed: int,
           lifts: tuple[list[tuple[float, int]], float, float]) -> float:
    """When the mat last showed the ``agreed`` turns: at the first lift, after the last
    publication, of a square the turn after them moves in one of ``nodes`` (else now)."""
    after = {sq for n in nodes if len(n.moves) > agreed
             for step in steps(n.moves[agreed]) for sq in step if sq is not None}
    made, shown_at, t = lifts
    return min((t0 for t0, sq in made if t0 > shown_at and sq in after), default=t)


def _amends(node: Node, sq: int, agreed: int) -> bool:
    """Is ``sq`` a piece of ``node``'s last mover, two turns or more past the ``agreed``
    ones (lifted, it may amend that turn only)?"""
    theirs = PIECES[1 - node.position.turn]
    return len(node.moves) >= agreed + 2 and node.pieces[sq] in theirs

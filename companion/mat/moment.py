"""A Spirit set down for a moment, then moved on, is the hand that set it down going on (issue 21
story 6: "a pawn set down on a wrong square for 0.3-0.8 s, then moved on").

Red's Centipede c3b3 moves the Spirit: the hand sets it on c4 for 0.64 s, the mat rests there,
and the hand goes on to b3 (set-down 66). The mat is also Red's Centipede c3c4 and Blue's Rooster
c4b3, the Spirit being nobody's piece: a "whose step" question nobody answers, and the turn is
read only when the next hands tell, 4 s late. A pawn set down on its way is read so already (a
turn amended within ``sides.ASIDE_S`` of its rest is the mover's: ``set_aside``); the Spirit is
the same hand. A player who takes up the Spirit the other just set down waits to see the turn:
the next player is at work no sooner than a moment's set-down lasts (``MOMENT_S``), and a reply
made sooner, before the mat has rested (the snatch, a hurried start), is not read so: there was no
rest to tell a hand that let go."""

from __future__ import annotations

from .histories import Explanation, Node
from .pieces import NOW, PieceMap, Trail

MOMENT_S = 0.8   # a piece set down for a moment stands this long at most (the 0.3-0.8 s)


def one_hand(found: list[Explanation], rested: list[tuple[float, frozenset[int]]]
             ) -> list[Explanation]:
    """The histories of ``found`` that do not read a Spirit set down for a moment, then moved
    on, as two players' turns: one turn putting it on a square, the next (the other player's)
    lifting it off less than ``MOMENT_S`` after it was set down there, the mat having rested
    in between (``rested``). Those go when another history reads the same hands as one (the
    Spirit set down on its way, or the turn amended): all of ``found`` if none does."""
    if len(found) < 2:
        return found
    rests = [t for t, _ in rested]
    kept = [e for e in found if e.node.pending is not None or not _handed_on(e, rests)]
    return kept or found


def _handed_on(e: Explanation, rests: list[float]) -> bool:
    """Does ``e``'s history end a turn on a square its map's Spirit stood on for a moment?"""
    trail = _spirit_trail(e.map)
    node: Node | None = e.node
    while trail and node is not None and node.parent is not None and node.parent.parent is not None:
        turn, before = node.parent, node.parent.parent
        sq = turn.position.spirit
        if (sq is not None and before.position.spirit != sq and node.position.spirit != sq
                and _for_a_moment(trail, sq, rests)):
            return True
        node = turn
    return False


def _spirit_trail(m: PieceMap) -> Trail | None:
    """The trail of the Spirit standing on ``m``'s board, if it stands there."""
    sq = next((s for s, p in enumerate(m.pieces) if p == "W"), None)
    return m.trails[sq] if sq is not None else None


def _for_a_moment(trail: Trail, sq: int, rests: list[float]) -> bool:
    """Did the Spirit, when it last left ``sq``, stand there less than ``MOMENT_S``, through a
    rest of the mat?"""
    visit = next((v for v in reversed(trail) if v[0] == sq and v[2] != NOW), None)
    if visit is None:
        return False
    _, down, up = visit
    return up - down < MOMENT_S and any(down < t < up for t in rests)

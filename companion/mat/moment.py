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

from typing import NamedTuple

from ..rules.moves import Move
from .histories import Explanation, Node
from .pieces import NOW, PieceMap, Trail

MOMENT_S = 0.8   # a piece set down for a moment stands this long at most (the 0.3-0.8 s)


class Moment(NamedTuple):
    """A Spirit's moment read as one hand: when the Spirit was set down (``down``), and the
    histories that read it as the two players' turns (``two``), asked about beside it."""
    down: float
    two: list[Node]


def one_hand(found: list[Explanation], rested: list[tuple[float, frozenset[int]]]
             ) -> tuple[list[Explanation], list[Explanation], Moment | None]:
    """The histories of ``found`` that do not read a Spirit set down for a moment, then moved
    on, as two players' last turns: one turn putting it on a square, the next (the other
    player's) lifting it off less than ``MOMENT_S`` after it was set down there, the mat having
    rested in between (``rested``). Those go when another history agrees with them on every
    turn before the two and reads the hands since otherwise (the Spirit set down on its way, or
    the turn amended); all of ``found`` stay if none does. Also those that went, and when the
    first of them set the Spirit down (None if none went): they are kept growing, as a turn
    read as one hand's split in two is (``snatching.split_in_two``), and the turn published in
    their place is dated from then (``explaining.shown_after``), so that the two-hands reading
    is read if the next hands are the other player's; and they are asked about beside it
    (:func:`.resting.rested_reading`): a player who made the reply says so (a reply may be
    lifted as soon as a Spirit set down for a moment: knock 86's Red lifted it 0.800 s
    after, and answered "Tiger"; no time tells the two apart)."""
    if len(found) < 2:
        return found, [], None
    rests = [t for t, _ in rested]
    whole = [e for e in found if e.node.pending is None]
    downs = {id(e): down for e in whole if (down := _handed_on(e, rests)) is not None}
    others = [e.node.moves for e in whole if id(e) not in downs]
    gone = [e for e in whole if id(e) in downs
            and any(_one_turn(e.node.moves, f) for f in others)]
    if not gone:
        return found, [], None
    dropped = {id(e) for e in gone}
    return ([e for e in found if id(e) not in dropped], gone,
            Moment(min(downs[g] for g in dropped), [e.node for e in gone]))


def _one_turn(two: tuple[Move, ...], one: tuple[Move, ...]) -> bool:
    """Does the history ``one`` read the hands of ``two``'s last two turns otherwise, every turn
    before them the same, and not the turn that set the Spirit down (a history that keeps it
    and reads the hands after as two other turns is no one hand: fast 64's Rhinoceros b4b3
    c1a1, Blue's Scorpion e3d4 and Red's Elephant a1b2 for Blue's Octopus e3d4 a1b2)? Or the
    turn before them too, a regular card's pawn step in ``two`` that ``one`` reads as a Wind
    Spirit card's, its Spirit step the two turns' (set-down 168: Mantis e2e1, Blue's Tanuki
    a3b4 and Red's Boar b4a4 for Spider e2e1 a3a4)?"""
    n = len(two) - 2
    if one[:n] == two[:n]:
        return one[n:n + 1] != two[n:n + 1]
    if n < 1 or len(one) < n or one[:n - 1] != two[:n - 1]:
        return False
    step, whole = two[n - 1], one[n - 1]
    return (step.spirit_from is None and whole.spirit_from is not None
            and (step.from_sq, step.to_sq) == (whole.from_sq, whole.to_sq))


def _handed_on(e: Explanation, rests: list[float]) -> float | None:
    """When the Spirit was set down on the square ``e``'s last turn but one ends on, if it
    stood there for a moment before ``e``'s last turn lifted it and moved it on, not back to
    where it stood before the two (that is the Spirit moved straight back, asked: robot
    wind2 mat 9's Eel; None if not)."""
    node: Node = e.node
    turn = node.parent
    trail = spirit_trail(e.map)
    if trail is None or turn is None or turn.parent is None:
        return None
    sq, before = turn.position.spirit, turn.parent.position.spirit
    if sq is None or sq == before or node.position.spirit in (sq, before):
        return None
    return _for_a_moment(trail, sq, rests)


def spirit_trail(m: PieceMap) -> Trail | None:
    """The trail of the Spirit standing on ``m``'s board, if it stands there."""
    sq = next((s for s, p in enumerate(m.pieces) if p == "W"), None)
    return m.trails[sq] if sq is not None else None


def _for_a_moment(trail: Trail, sq: int, rests: list[float]) -> float | None:
    """When the Spirit, when it last left ``sq``, was set down there, if it stood there less
    than ``MOMENT_S``, through a rest of the mat (None if not)."""
    visit = next((v for v in reversed(trail) if v[0] == sq and v[2] != NOW), None)
    if visit is None:
        return None
    _, down, up = visit
    return down if up - down < MOMENT_S and any(down < t < up for t in rests) else None

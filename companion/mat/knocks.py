"""A knock: the hand that lifts a piece knocks a neighbour off its switch at once, and puts it
back (issue 21 story 7). Of readings as noisy as one another, those whose pieces put back
were each knocked so go first."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import agreement, before_turn, shown_at
from .histories import Explanation, Node
from .knocking import KNOCK_SPAN


def knocked(found: list[Explanation], lifts: list[tuple[float, int]],
            at_once: float, opened: tuple[Move, ...], shown: list[float]) -> list[Explanation]:
    """Of readings as noisy as one another that each put a piece back, those whose pieces
    put back were each lifted at once after a lift of one of their turns' squares (knocked
    by the hand that lifted it), if the others put back a piece lifted on its own (story 7:
    Red's Kirin c2b4 capturing b4, the hand knocking Blue's master off b3 as it lifts its own
    from c2, and the master put back 2.3 s later, is also Dog c2b3 capturing the master, with
    the pawn on b4 lifted on its own and put back: a knock comes with the lift, a capture's
    victim never comes back). The turns counted are those after the published ``opened``
    each history keeps (knock 19: Red's hand knocks Blue's master, which Blue's published
    Tiger c5c3 put on c3; counted from the anchor, c3 was a turn's square, no put-back), and
    so are the lifts: those after the mat showed the last of them (``shown``, when it showed
    each published turn), the hands of the turns counted (knock 150: the neighbour Blue's
    Mouse b3c4 knocked and put back, a knock of Mouse's lift, was counted against Red's Rat
    d4e3, whose own knock came at once with its lift: no reading was all knocks). "At once"
    is ``KNOCK_SPAN`` times ``at_once`` (the recognizer's ``clear``), as for a lift's proof:
    the hand's knock comes up to 0.1 s after its lift (knock 95: 95 ms, as debounced)."""
    if len({id(e.node) for e in found}) < 2:
        return found
    kept = [agreement(e.node.moves, opened) for e in found]
    backs = [_put_back(e.node, _after_shown(lifts, shown, k), at_once * KNOCK_SPAN, k)
             for e, k in zip(found, kept)]
    if all(backs):
        knocks = [e for e, back in zip(found, backs) if all(k for _, k in back)]
    else:   # (the knock put back since every reading's published turns: knock 178)
        since = shown_at(shown, max(kept))
        knocks = [e for e, back in zip(found, backs) if _moved_knocks(back, e.map.knock, since)]
    return knocks if knocks and len(knocks) < len(found) else found


def _moved_knocks(back: list[tuple[str | None, bool]], knock: float, since: float) -> bool:
    """Do a reading's put-backs (``back``: each piece, and whether it was knocked) go before
    a reading that puts nothing back? Only if they are all knocks of pieces other than the
    Spirit, and its map put a knocked piece back free since its turns began (``knock`` after
    ``since``: the piece that knocked it moved first, ``knocking.moved``), and since those of
    every other reading: a knock the others read in a published turn is no sign of this one
    (knock 178: Red's Scorpion b2c1 -, its hand knocking b1, published; Blue's Cobra e5d4, a
    Spirit swap, is also Scorpion amended to Octopus b2c1 e5d4, whose turn counts b1's
    knock: it went first, and Cobra was read 1.7 s late). By the lifts' times alone, the
    robot's capture lifting its pawn and the victim 30 ms apart was a knock (session 52); a
    knocked Spirit put back may be a Wind card's Spirit step still to come
    (Rhinoceros c2b3 with the Spirit knocked off b2, put back, then stepped to d2: asked)."""
    return bool(back) and all(k and p != "W" for p, k in back) and knock > since


def _after_shown(lifts: list[tuple[float, int]], shown: list[float],
                 kept: int) -> list[tuple[float, int]]:
    """The ``lifts`` after the mat showed the ``kept``-th published turn (all if none)."""
    since = shown_at(shown, kept)
    return [(t0, sq) for t0, sq in lifts if t0 > since]


def _put_back(node: Node, lifts: list[tuple[float, int]], at_once: float,
              kept: int) -> list[tuple[str | None, bool]]:
    """For each piece ``node``'s turns after its first ``kept`` put back (standing as before
    them, off their squares), by its square's last lift: the piece, and did that lift come
    within ``at_once`` after a lift of one of those turns' squares? (Knock 120: Red's Bat
    d1d2 e1d2 is shown part-way, its swap made after; Blue's Moth d2d1 then knocks the pawn
    the swap put on e1. The swap's lift of e1 is no put-back of Moth's: e1's last lift is.)"""
    root = before_turn(node, kept)
    squares = {sq for m in node.moves[kept:]
               for sq in (m.from_sq, m.to_sq, m.spirit_from, m.spirit_to)}
    starts = [t0 for t0, sq in lifts if sq in squares]
    last = {sq: t0 for t0, sq in lifts}
    return [(node.pieces[sq], any(0 < t0 - t1 <= at_once for t1 in starts)) for t0, sq in lifts
            if last[sq] == t0 and sq not in squares and node.pieces[sq] is not None
            and node.pieces[sq] == root.pieces[sq]]

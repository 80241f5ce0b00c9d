"""A published turn's Spirit step amended through the other player's reply: a turn that moved
the Spirit (a Wind Spirit card's Spirit step, or a regular card's Spirit move), the other
player's turn moving that Spirit on (straight back, or elsewhere), the mover's next turn moving
it again. The same mat is the first turn amended, one hand carrying the Spirit through the
squares the two turns set it down on (spirit-back 136: Blue's Octopus d5e4 d4e4, Red's Dog e4d4,
Blue's Butterfly d4d5, also Octopus d5e4 d4d5; spirit-back 7: Blue's Sable c3d4, Red's Otter
d4e3, Blue's Phoenix e3d2, also Phoenix c3d2). Both cost nothing, their cards differ: the table
asks the mover, nobody answers (no player made the amendment), and the turns are read only at
the next hands. So with the last published turn taken back, the Spirit home through the square
the reply set it on (not straight back: that is the move-or-takeback question; spirit-back
157: Blue's Ox e1e2, Red's Dragon e2d1, Blue's Elephant d1e1, also Ox taken back).

One hand going on sets the Spirit down for a moment at most (``moment.MOMENT_S``; robot wind2
117: Red's Spider d2d1 b1a2, its Spirit 0.13 s on b2 and 0.12 s on b1, read as Spider d2d1 b1b2
and Blue's Boar b2b1, then Red's Monkey b1a2: both are asked about,
tests/table/test_question_buttons.py). Where the Spirit stood longer than a moment on both
squares, the turn's and the reply's, the mat showed each to the next player, whose hand moved
it on (the next player is at work no sooner than a moment's set-down lasts): the amendment is
put after the histories that keep the turn and read the reply, ranked below them, not
dropped."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import before_turn
from .histories import Explanation, Node
from .moment import MOMENT_S, spirit_trail
from .pieces import NOW, Trail


def reply_stands(found: list[Explanation], opened: tuple[Move, ...], back: int | None = None
                 ) -> tuple[list[Explanation], list[Explanation]]:
    """``found`` but the histories that amend a published turn's Spirit step through the
    other player's reply to it (another history of ``found`` keeps the turn and reads the
    reply), the Spirit having stood on both squares longer than a moment; and those put
    after them. Not the turn ``back`` (from the anchor), which the open question offers to
    take back (spirit-back 55: "Rat, or take back Dog?"): the answer tells them apart (a
    question is a filter)."""
    after = [e for e in found if any(_through(e, found, opened, i)
                                     for i in range(len(opened)) if i != back)]
    if not after:
        return found, []
    gone = {id(e) for e in after}
    return [e for e in found if id(e) not in gone], after


def _through(e: Explanation, found: list[Explanation], opened: tuple[Move, ...], i: int
             ) -> bool:
    """Does ``e`` amend the Spirit step of ``opened[i]`` through a reply that another history
    of ``found`` reads, the Spirit standing longer than a moment on both squares?"""
    node, turn = e.node, opened[i]
    if node.moves[:i] != opened[:i] or node.moves[i:i + 1] == (turn,):
        return False
    before = before_turn(node, i)
    step = _spirit_step(turn, before)
    if step is None:
        return False
    if len(node.moves) == i:
        # The last published turn taken back, the Spirit home through the reply's square
        # (not straight back: that is the move-or-takeback question): spirit-back 79, 130, 157.
        if i != len(opened) - 1:
            return False
    else:
        amended = _spirit_step(node.moves[i], before)
        if amended is None or amended[1] == step[1] or not _same_pawn(turn, node.moves[i]):
            return False
    replies = {_spirit_step(o.node.moves[i + 1], before_turn(o.node, i + 1)) for o in found
               if o.node.moves[:i + 1] == opened[:i + 1] and len(o.node.moves) > i + 1}
    home = step[0] if len(node.moves) == i else None
    return any(r is not None and r[0] == step[1] and r[1] != home
               and _stood(spirit_trail(e.map), step[1], r[1]) for r in replies)



def _spirit_step(move: Move, before: Node) -> tuple[int, int] | None:
    """The Spirit's step of ``move`` made in ``before``'s position (from, to), if it has one."""
    if move.wind_card and move.spirit_from is not None and move.spirit_to is not None:
        return move.spirit_from, move.spirit_to
    if (not move.wind_card and move.from_sq is not None and move.to_sq is not None
            and move.from_sq == before.position.spirit):
        return move.from_sq, move.to_sq
    return None


def _same_pawn(turn: Move, amended: Move) -> bool:
    """Do the two turns make the same pawn step (none for a regular card's Spirit move)?"""
    if turn.wind_card and amended.wind_card:
        return (turn.from_sq, turn.to_sq) == (amended.from_sq, amended.to_sq)
    return not turn.wind_card and not amended.wind_card


def _stood(trail: Trail | None, on: int, then: int) -> bool:
    """Did the Spirit (``trail``), when it last stood on ``on`` and next on ``then`` (maybe
    set down on its way between: spirit-back 123's Serow d1d2 touched b2 for 0.17 s), stand
    on each a moment's set-down or longer, and go on from ``then``?"""
    visits = list(trail or ())
    for i in range(len(visits) - 2, -1, -1):
        j = next((j for j in range(i + 1, len(visits)) if visits[j][0] == then), None)
        if visits[i][0] == on and j is not None:
            return (visits[j][2] != NOW
                    and all(up - down >= MOMENT_S for _, down, up in (visits[i], visits[j])))
    return False

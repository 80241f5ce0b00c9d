"""A Wind Spirit card turn's Spirit step amended through the other player's published reply
that moved that Spirit straight back (spirit-back 136: Blue's Octopus d5e4 d4e4, Red's Dog
e4d4, Blue's Butterfly d4d5, also Octopus d5e4 d4d5 with Dog read as Blue's hand putting the
Spirit back). The reply kept that turn open only for its takeback, the pawn's return
(:func:`.undoing.spirit_put_back`): once the other player's move is published, its mover's
window to amend is closed (docs/recognizer.md, rule 6), unless the reply was no other
player's: the one hand going on, which sets the Spirit down only for a moment on each square
(robot wind2 117: Red's Spider d2d1 b1a2, its Spirit 0.13 s on b2 and 0.12 s on b1, read as
Spider d2d1 b1b2 and Blue's Boar b2b1, then Red's Monkey b1a2: both are asked about,
tests/table/test_question_buttons.py). So the amendment is put after the histories that keep
the turn and the reply when the Spirit stood a moment's set-down or longer on the turn's
Spirit square or back on the square it came from (the mat showed a player's turn there): it
is ranked below them, not dropped."""

from __future__ import annotations

from ..rules.moves import Move
from .histories import Explanation
from .moment import MOMENT_S, spirit_trail
from .pieces import NOW, Trail
from .undoing import spirit_back


def reply_stands(found: list[Explanation], opened: tuple[Move, ...]
                 ) -> tuple[list[Explanation], list[Explanation]]:
    """``found`` but the histories that amend the Spirit step of a published Wind Spirit
    card turn through the published reply that moved its Spirit straight back, read by
    hands that let the Spirit stand longer than a moment (the pawn step kept, the Spirit
    moved on to another square), when another history keeps the turn and the reply; and
    those put after them."""
    after = [e for e in found for i in range(len(opened) - 1)
             if spirit_back(opened[i + 1], opened[i]) and e.node.moves[:i] == opened[:i]
             and _moved_on(e.node.moves[i:i + 1], opened[i])
             and any(o.node.moves[:i + 2] == opened[:i + 2] for o in found)
             and not _one_hand(spirit_trail(e.map), opened[i])]
    if not after:
        return found, []
    gone = {id(e) for e in after}
    return [e for e in found if id(e) not in gone], after


def _moved_on(moves: tuple[Move, ...], move: Move) -> bool:
    """Is ``moves`` one Wind Spirit card turn with ``move``'s pawn step, its Spirit elsewhere?"""
    return (len(moves) == 1 and moves[0] != move and moves[0].wind_card
            and (moves[0].from_sq, moves[0].to_sq) == (move.from_sq, move.to_sq)
            and moves[0].spirit_from == move.spirit_from)


def _one_hand(trail: Trail | None, move: Move) -> bool:
    """Did the Spirit, when it last stood on ``move``'s Spirit square and then back where it
    came from, stand on each less than a moment's set-down (``trail``: the Spirit's)?"""
    if trail is None:
        return False
    on, back = move.spirit_to, move.spirit_from
    for i in range(len(trail) - 2, -1, -1):
        if trail[i][0] == on and trail[i + 1][0] == back:
            return all(up - down < MOMENT_S and up != NOW for _, down, up in trail[i:i + 2])
    return False

"""Which turns published at a rest stay open as a pair (:attr:`.record.Record.pair`): the
hands that went on after the first may be its mover's, a piece set down for a moment where it
does not end read as the next player's reply (story 6)."""

from __future__ import annotations

from ..rules.moves import Move
from .histories import Tree
from .resting import unseen_first


def paired(tree: Tree, moves: tuple[Move, ...], opened: tuple[Move, ...], kept: int,
           rested: list[tuple[float, frozenset[int]]], shown: float | None) -> bool:
    """Do the last two of the turns ``moves`` (from the anchor), published now over
    ``opened`` (``kept`` of them kept), stay open as a pair? Two made now, the first on a
    board the mat never rested on (:func:`.resting.unseen_first`); or one made now after
    all the open turns, that :func:`wind_went_on` reads as the last one's mover going on."""
    made = len(moves) - kept
    if made == 2:
        return unseen_first(tree, moves, rested, shown)
    return made == 1 and kept == len(opened) > 0 and wind_went_on(tree, moves, shown)


def wind_went_on(tree: Tree, moves: tuple[Move, ...], shown: float | None) -> bool:
    """Published at a rest (``shown`` None: not at the next player's lift, nor at an answer),
    do the last two turns of ``moves`` read a reply that moved the Spirit alone after a
    regular card's pawn step that a Wind Spirit card of its mover also begins? Then the
    Spirit's hand may be that mover's going on with the Wind card, the Spirit set down for
    a moment on its way (set-down 40: Lion b2c3 e2e4 read as Lobster b2c3, then Blue's
    Steer e2d3 at d3's rest): the two stay open, and the Wind card's turn amends them at its
    rest. The pawn step's own board was rested on (and read there): the judge commits such a
    turn at its rest, and amends it if its mover goes on with the Spirit."""
    if shown is not None or len(moves) < 2:
        return False
    before, after = tree.follow(moves[:-2]), tree.follow(moves[:-1])
    first, reply = moves[-2], moves[-1]
    if before is None or after is None or first.spirit_from is not None or first.from_sq is None:
        return False
    lifts = {sq for sq in (reply.from_sq, reply.spirit_from) if sq is not None}
    return lifts == {after.position.spirit} and any(
        m.wind_card and m.spirit_from is not None
        and (m.from_sq, m.to_sq) == (first.from_sq, first.to_sq)
        for m in tree.moves_from(before.position).moves)

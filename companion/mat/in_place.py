"""A turn that leaves the mat as it stood (a Wind Spirit swapping with a student: both squares
emptied, both filled again): at rest it is read beside "no turn" (the pieces lifted and put
back), and no question tells those apart (a history that ends at the published game has no
turn to name). The hands' lifts are the turn's: it is read at the rest, not left waiting for
the next hands (robot 1: Otter c4e4 committed 5 s after its rest)."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import common_prefix
from .histories import Explanation


def made_in_place(found: list[Explanation], opened: tuple[Move, ...]) -> list[Explanation]:
    """``found`` without the histories that are the published game ``opened`` itself, when
    every other is it and one turn more, the same turn."""
    still = [e for e in found if e.node.moves == opened]
    # (One turn: two turns that leave the mat as it stood are a move and one straight back,
    # the other player's or a takeback, which the questions and the next hands tell apart.)
    made = [e for e in found if len(e.node.moves) == len(opened) + 1
            and e.node.moves[:len(opened)] == opened]
    # (Not while a piece the turn took off stands aside on the mat: the hand that took it is
    # not done, and the piece put back is as likely: capture_aside_on_origin_wins.)
    if (not still or len(still) + len(made) != len(found)
            or any(e.aside is not None for e in made)
            or common_prefix([e.node.moves for e in made]) <= len(opened)):
        return found
    return made

"""When a turn published from the anchor was taken back: the mat rested on the anchor's
board again, and the hands before that rest were that turn's and its takeback's, no later
turn's (takeback-wind 36)."""

from __future__ import annotations

from ..rules.moves import Move
from .histories import Tree


def taken_back_at(tree: Tree, opened: tuple[Move, ...], shown: list[float],
                  rested: list[tuple[float, frozenset[int]]], since: float) -> float:
    """When the histories from the anchor step after (``since`` until now), once the first
    published turn ``opened[0]`` is taken back: the last rest on the anchor's board since the
    mat showed that turn, if later.
    Without that, a history that reads the turn and its takeback as two other turns (a
    Spirit moved there and straight back by both players) comes back each time a later turn
    is taken back, though the takeback was read and published (takeback-wind 36: Lion e3d2
    c4c3 taken back, Okija d3b1 played and taken back, read again as Okija c4c3 and Ox c3c4
    over the Lion's own lifts). ``since`` if the turn leaves the board as occupied as the anchor
    (a Spirit swap: a rest there is no takeback), or no such rest."""
    turn = tree.follow(opened[:1])
    if not opened or not shown or turn is None or turn.occupancy == tree.root.occupancy:
        return since
    board = tree.root.occupancy
    return max([since, *(t0 for t0, occ in rested if occ == board and t0 > shown[0])])

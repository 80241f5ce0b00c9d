"""An amendment that only re-reads the hands before the publication: kept with the turn as
published until the next edges tell them apart (set-down 58).

Blue's Scorpion e5d4 c3d1 swaps the Spirit (c3 -> d1) with Red's student (d1 -> c3), and is
published at the rest. Red lifts its student off c3 and sets it on a2 for 0.72 s, on its way
to b4. At that rest the mat is also Blue's turn amended to Scorpion e5d4 c3a2: the swap's four
edges re-read as the Spirit put back on c3 and d1 lifted and put back, so that c3's lift is the
Spirit's, the mover's. But that amendment leaves Red's student on d1, where the turn as
published put the Spirit, and nobody lifted d1 since the mat showed the turn: a hand amending
it would have had to. Both readings are kept (the mat waits, as for a piece set aside) until
the next edges settle it: the piece going on (Red's turn), or staying (the amendment, read
then)."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.moves import Move
from ..rules.position import Position
from .histories import Explanation
from .pieces import PIECES
from .readings import pieces_of


def rereads(found: list[Explanation], opened: tuple[Move, ...], shown: list[float],
            lifts: list[tuple[float, int]], position: Callable[[], Position]) -> bool:
    """Does every reading ``found`` amend the last published turn (``opened``; ``position``:
    the game as published) to a board that changes the piece on a square occupied on both
    that no lift has emptied since the mat showed that turn (``shown``), while the first lift
    since then was, on the published board, a piece of the player to move? The amendment
    then explains that lift only by re-reading the hands that were published (the mover's
    piece where the published turn has the next player's)."""
    if not opened or not found or not shown or any(
            len(e.node.moves) != len(opened) or e.node.moves[:-1] != opened[:-1]
            or e.node.moves == opened for e in found):
        return False
    since = sorted((t0, sq) for t0, sq in lifts if t0 > shown[-1])
    pos = position()
    published = pieces_of(pos)
    if not since or published[since[0][1]] not in PIECES[pos.turn]:
        return False
    touched = {sq for _, sq in since}
    return all(any(p is not None and q is not None and p != q and sq not in touched
                   for sq, (p, q) in enumerate(zip(published, e.node.pieces)))
               for e in found)

"""An amendment whose first lift is the next player's piece: kept with the turn as published
until the next edges tell them apart (set-down 58, 146).

Blue's Scorpion e5d4 c3d1 swaps the Spirit (c3 -> d1) with Red's student (d1 -> c3), and is
published at the rest. Red lifts its student off c3 and sets it on a2 for 0.72 s, on its way
to b4. At that rest the mat is also Blue's turn amended to Scorpion e5d4 c3a2: the swap's four
edges re-read as the Spirit put back on c3 and d1 lifted and put back, so that c3's lift is the
Spirit's, the mover's. But that amendment leaves Red's student on d1, where the turn as
published put the Spirit, and nobody lifted d1 since the mat showed the turn: a hand amending
it would have had to. Both readings are kept (the mat waits, as for a piece set aside) until
the next edges settle it: the piece going on (Red's turn), or staying (the amendment, read
then). Set-down 146: Red's Lobster c2d3 published (amended); Blue lifts c5, its own pawn, and
makes its Wind card with two moments' set-downs; at a4's 0.6 s rest the mat was read as the
Lobster amended back to c2b3 with Blue's Octopus c5d4 b3a4. The first lift was Blue's own
piece: that reading waits too, and Blue's card is read where it lands."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.moves import Move
from ..rules.position import Position
from .histories import Explanation, Node
from .pieces import PIECES, Pieces
from .readings import pieces_of

HESITATE_S = 0.25   # a piece set down for less than this, then moved on, is a hesitation (the spec)


def rereads(found: list[Explanation], opened: tuple[Move, ...], shown: list[float],
            lifts: list[tuple[float, int]], position: Callable[[], Position]) -> bool:
    """Does every reading ``found`` amend the last published turn (``opened``; ``position``:
    the game as published), while the first lift since the mat showed that turn (``shown``)
    was, on the published board, a piece of the player to move, which the reading takes for
    the mover's (``_swap_reread``: set-down 58) or for the next player's reply made before
    the amendment (set-down 146)? Then that lift may be the next player's hand, the piece it
    set down for a moment on its way: the reading waits as a piece set aside."""
    n = len(opened)
    if not n or not found or not shown:
        return False
    since = sorted((t0, sq) for t0, sq in lifts if t0 > shown[-1])
    if not since or not all(_amends(e.node.moves, opened) for e in found):
        return False
    sq = since[0][1]
    # (Asked of the moves first: only a swap puts the next player's piece where the mover's
    # board had none, on its Spirit's origin; a reply must start there.)
    if not all(sq == opened[-1].spirit_from if len(e.node.moves) == n
               else _replies_from(e.node.moves[-1], sq) for e in found):
        return False
    pos = position()
    published = pieces_of(pos)
    if published[sq] not in PIECES[pos.turn]:
        return False
    touched = {s for _, s in since}
    return all(_swap_reread(e.node, n, sq, published, touched, PIECES[pos.turn])
               if len(e.node.moves) == n else _replies_from(e.node.moves[-1], sq)
               for e in found)


def _amends(moves: tuple[Move, ...], opened: tuple[Move, ...]) -> bool:
    """Does a history amend the last published turn (and perhaps add a reply)?"""
    n = len(opened)
    return (n <= len(moves) <= n + 1 and moves[:n - 1] == opened[:-1]
            and moves[n - 1] != opened[-1])


def _swap_reread(node: Node, n: int, sq: int, published: Pieces, touched: set[int],
                 theirs: tuple[str, str]) -> bool:
    """Does ``node`` (the last of its ``n`` turns amended) lift ``sq`` as no piece of the
    next player's (``theirs``; the published turn swapped one there), and change the piece
    on a square occupied on both boards that no lift since emptied (``touched``: the
    amendment re-reads the hands before the publication)?"""
    before = node.parent
    if before is None or before.pieces[sq] in theirs:
        return False
    return any(p is not None and q is not None and p != q and s not in touched
               for s, (p, q) in enumerate(zip(published, node.pieces)))


def _replies_from(reply: Move, sq: int) -> bool:
    """Is ``reply`` (the next player's, after the amended turn) made from ``sq``?"""
    return sq in (reply.from_sq, reply.spirit_from)


def hesitated(found: list[Explanation], opened: tuple[Move, ...], shown: list[float],
              lifts: list[tuple[float, int]], position: Callable[[], Position]) -> bool:
    """Does every reading ``found`` amend the last published turn (``opened``) into a capture
    of the square first lifted since the mat showed it (``shown``), which held the next
    player's piece on the published board (``position``), while nobody lifted the square that
    turn set its piece down on? Then the mover's piece was in the hand through the rest that
    published the turn, or the next player lifted their own piece and put it back: the
    amendment waits as long as a hesitation (base computer 151)."""
    n, last = len(opened), opened[-1] if opened else None
    if last is None or last.to_sq is None or not found or not shown:
        return False
    since = sorted((t0, sq) for t0, sq in lifts if t0 > shown[-1])
    if not since or last.to_sq in {s for _, s in since}:
        return False
    sq = since[0][1]
    if not all(len(e.node.moves) == n and _amends(e.node.moves, opened)
               and e.node.moves[-1].to_sq == sq for e in found):
        return False
    pos = position()
    return pieces_of(pos)[sq] in PIECES[pos.turn]

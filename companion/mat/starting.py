"""When the next player has started: a lift of a piece of theirs that proves real (``clear``),
unless it came with a lift of another piece.

Two lifts closer than ``clear`` are one motion of one hand (see ``explaining.knocked``), and
the debounce may give them in either order. A piece of the next player's lifted at once with
the last mover's own piece or the Spirit (knock 12: Red's Wind card goes on, its hand lifts
the Spirit off d4 and knocks Blue's pawn off e4 40 ms later) is that hand's knock, not the
next player starting: it must not close the last mover's amend window. "At once" is as for a
knock (``knocks.knocked``): within ``KNOCK_SPAN`` ``clear``s after the other lift (knock 156:
Red's Rhinoceros d1d2 c5a5, published as Sheep d1d2 at the pawn's rest; its hand lifts the
Spirit off c5 and knocks Blue's b4 89 ms later, put back once the Spirit is on a5. Counted as
Blue starting, the amendment went behind Octopus b4a5 c5b4, Blue's, and the game wedged).

After a winning turn, a lift of the loser's piece where the winner's piece could have gone
from the square it left is not the loser starting either: the winner's hand may still hold
that piece, taking the piece it lands on (air-touch 1: Red holds its pawn off c3 while Blue
re-seats its master on b4, read as Phoenix c3b4 and the win; Red's hand then lifts Blue's c4
for 0.21 s and lands the pawn there, Sea-Snake c3c4, which must still amend the win).

A lift of the next player's piece whose square a piece fills again within ``EXCHANGE_S`` proves
no start either, once it is filled: it was a hand passing over the piece (an onlooker's, up to
0.15 s: longer than ``clear``), a hesitation on it, or the mover's hand taking it, the piece
it held set down in its place, one motion (air-touch 80: Blue holds its pawn off d4 while
Red's e5 is re-seated, read as Sable d4e5 taking it; the hand then lifts Red's e3 and sets the
pawn down there 0.16 s later, Otter d4e3, which must still amend Sable: the cards differ, the
table asks; air-touch 93, 111, 114, 157: 0.33-0.40 s). A piece of theirs lifted longer, or
set down elsewhere, proves they started, as before (slides 17: Red lifts its own b3 for 0.6 s
before its turn)."""

from __future__ import annotations

from collections.abc import Callable

from .explaining import opponents
from ..rules.moves import Move
from .histories import Tree
from .knocking import KNOCK_SPAN
from .pieces import Pieces
from .record import Record
from .window import move_of


# A capture's exchange, the victim lifted and the capturing piece set down in its place, takes
# up to 0.4 s (one hand's motion); a square filled again this soon was not left by a move begun.
EXCHANGE_S = 0.45


def starts(pending: dict[int, float], t: float, lifted: frozenset[int],
           lifts: list[tuple[float, int]],
           theirs: Callable[[int, list[tuple[float, int]], float], bool],
           clear: float) -> dict[int, float]:
    """The next player's lifts still to prove real (square: when) after the lifts ``lifted``
    at ``t``; ``lifts``: the lifts before (when, square); ``theirs``: is a square a piece of
    the next player's, away from the last mover's squares (given ``lifts`` and ``clear``)?"""
    started = {sq for sq in lifted if theirs(sq, lifts, clear)}
    if started != lifted:
        return {}   # (another piece's lift: those pending were its hand's)
    if any(t - t0 < clear * KNOCK_SPAN and not theirs(sq, lifts, clear) for t0, sq in lifts):
        return pending
    return {**pending, **{sq: t for sq in started}}


def touched(started: dict[int, float], placed: frozenset[int], t: float) -> dict[int, float]:
    """The lifts that proved the next player started (square: when), once pieces are set down
    on ``placed`` at ``t``: a square filled again within ``EXCHANGE_S`` of its lift proves
    nothing."""
    return {sq: t0 for sq, t0 in started.items() if sq not in placed or t - t0 >= EXCHANGE_S}


def proof(tree: Tree, record: Record, sq: int, t0: float) -> float:
    """The time a proof of start lifted at ``t0`` off ``sq`` is kept by (``touched``): its
    lift's, if the last published turn's piece could have gone to ``sq`` from the square it
    left with another card (the mover's hand may have taken that piece, and the table can ask
    which card); else none, the proof stands (set-down 60: a Spirit swapped with the next
    player's student, its square filled 0.2 s later). With the published card only, no
    question tells the two apart, and every later turn would wait for the two pieces to
    move (nudge 196: Red's Goat c3b3 takes b3; Blue nudges its d4 for 0.3 s, which Goat
    c3d4 reaches, then moves the Spirit: no piece of Blue's proves it started, and Tanuki,
    Bear and Goat waited 4.6-23.1 s for Red's b3 to move)."""
    end = tree.follow(record.moves_open())
    if end is None or end.parent is None or not end.steps:
        return float("-inf")
    move = move_of(end.steps[-1])
    return t0 if any(m.to_sq == sq and m.card != move.card
                     for m in tree.moves_from(end.parent.position).moves
                     if m.from_sq == move.from_sq) else float("-inf")


def next_players(tree: Tree, record: Record, sq: int, lifts: list[tuple[float, int]],
                 clear: float) -> bool:
    """Is a lift of ``sq`` the next player's (``explaining.opponents``), and not, after a
    winning turn or a capture whose piece came off with the mover's own (``lifts``: when,
    square), the mover's hand taking a piece where the piece it moved could have gone?"""
    if not opponents(tree, record, sq):
        return False
    end = tree.follow(record.moves_open())
    if end is None or end.parent is None or not end.steps:
        return True
    move = move_of(end.steps[-1])
    if not (end.over or knocked_off(move, end.parent.pieces, lifts, clear)):
        return True
    return all(m.to_sq != sq for m in tree.moves_from(end.parent.position).moves
               if m.from_sq == move.from_sq)


def knocked_off(move: Move, before: Pieces, lifts: list[tuple[float, int]],
                clear: float) -> bool:
    """Did ``move`` capture a piece (on the board ``before`` it) that came off within
    ``clear`` of the mover's own lift, one motion of one hand? Then it may have been
    knocked and put back, the mover's piece still in the hand (knock 171: Red's hand lifts
    its pawn off e2 and knocks Blue's e1 16 ms later, e1 is put back 1.4 s later, read as
    Rat e2e1 taking it; the pawn then takes d1, Fox e2d1, whose lift of d1 is the mover's
    capture, not Blue starting)."""
    if move.from_sq is None or move.to_sq is None or before[move.to_sq] in (None, "W"):
        return False
    own = [t0 for t0, sq in lifts if sq == move.from_sq]
    return bool(own) and any(abs(t0 - own[-1]) < clear for t0, sq in lifts if sq == move.to_sq)

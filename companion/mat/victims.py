"""A capture's victim in the hand: a piece lifted off a square that a piece of the other side
has filled since (the capture's shape). While its capture does not stand it may come back to
that square (a takeback, an amendment), or be set aside on an empty one, but it is no piece
of the player to move: it never lands where another piece was lifted and is still in the
hand, as if it captured or swapped with that piece. That landing is what the hands' noise
reads from an onlooker's brush or a knock refilled while the victim is held: at no noise
(or a put-back's, alike pieces), it cost no more than the lifted piece put back, and such
relabellings crowded the truth out of the beam (onlooker 68, 74).

Two alike pieces in the hand lifted off the same square are one choice (the first lands),
unless the first was captured there: a piece of the other side stood on the square between
the first's lift and the second's arrival. Then the second (the capture's recapturer, lifted
again) is the piece in the hand, and it lands in the first's place: no-answer 97, Blue's
Frog b4a5 after Red's Boar a4b4 took a blue pawn off b4 and Blue's Phoenix a5b4 took Red's
pawn back there, read no longer as Boar's victim landing on a5 (no history walks it there)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .expecting import InAir, Pieces, Trail

GONE = float("-inf")   # the time in the air of a piece a standing turn took off
SIDES = {"R": 0, "r": 0, "B": 1, "b": 1}   # (the Spirit and a piece from nowhere: no side's)
Stood = Iterable[tuple[str | None, Trail | None]]   # the pieces on the mat, with their trails


def victim(pieces: Pieces, piece: str, origin: int) -> bool:
    """Is ``piece``, in the hand since it left ``origin``, a capture's victim: a piece of the
    other side stands on ``origin`` now? (An origin of -1: a piece a published turn took
    off, whose square is not known; an amendment may put it back where its captor is
    lifted, so it is no victim here.)"""
    if origin < 0 or piece not in SIDES:
        return False
    there = pieces[origin]
    return there is not None and there in SIDES and SIDES[there] != SIDES[piece]


def alike_again(air: Sequence[InAir], i: int) -> bool:
    """Is the ``i``-th piece in the air a live one alike the one before it, from the same
    square? Two such are one choice, but on a brushed square the later is the one it gets
    back (nudge 45: a piece set there earlier, lifted again, is also in the air; the first
    alone could not come back, and the map was lost)."""
    return (i > 0 and air[i - 1][:2] == air[i][:2] and air[i][2] != GONE
            and air[i - 1][2] != GONE)


def captured_first(air: Sequence[InAir], stood: Stood) -> set[int]:
    """The pieces in the air (by index) that are the first of two alike ones lifted off one
    square and were captured there: the second lands in their place (see above). ``stood``:
    the pieces on the mat with their trails."""
    pairs = [i for i in range(1, len(air)) if alike_again(air, i)]
    if not pairs:
        return set()
    stood = list(stood) + [(e[0], e[3]) for e in air]
    return {i - 1 for i in pairs if _second_lands(air[i - 1], air[i], stood)}


def _second_lands(first: InAir, second: InAir, stood: Stood) -> bool:
    """Did a piece of the other side than ``first``'s stand on its square after it was lifted
    and before ``second`` (alike, lifted off that square later) arrived there?"""
    piece, origin, lifted, _ = first
    arrived = second[3][-1][1] if second[3] and second[3][-1][0] == origin else lifted
    if piece not in SIDES or not lifted < arrived:
        return False
    return any(p in SIDES and SIDES[p] != SIDES[piece]
               and any(sq == origin and lifted <= since < arrived for sq, since, _ in trail)
               for p, trail in stood if trail)

"""A capture's victim in the hand: a piece lifted off a square that a piece of the other side
has filled since (the capture's shape). While its capture does not stand it may come back to
that square (a takeback, an amendment), or be set aside on an empty one, but it is no piece
of the player to move: it never lands where another piece was lifted and is still in the
hand, as if it captured or swapped with that piece. That landing is what the hands' noise
reads from an onlooker's brush or a knock refilled while the victim is held: at no noise
(or a put-back's, alike pieces), it cost no more than the lifted piece put back, and such
relabellings crowded the truth out of the beam (onlooker 68, 74)."""

from __future__ import annotations

from .expecting import Pieces

SIDES = {"R": 0, "r": 0, "B": 1, "b": 1}   # (the Spirit and a piece from nowhere: no side's)


def victim(pieces: Pieces, piece: str, origin: int) -> bool:
    """Is ``piece``, in the hand since it left ``origin``, a capture's victim: a piece of the
    other side stands on ``origin`` now? (An origin of -1: a piece a published turn took
    off, whose square is not known; an amendment may put it back where its captor is
    lifted, so it is no victim here.)"""
    if origin < 0 or piece not in SIDES:
        return False
    there = pieces[origin]
    return there is not None and there in SIDES and SIDES[there] != SIDES[piece]

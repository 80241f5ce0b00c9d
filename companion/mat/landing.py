"""The noise of one piece landing on a square, by where it came from (see ``pieces``: the
maps are ranked by the noise the hands need)."""

from __future__ import annotations

PUT_BACK = 1      # a piece set back on the square it left, after a real lift
STRAY = 4         # a brushed square refilled by another piece than the one it lost
DEAD = 3          # a piece taken off by a turn before the anchor, put on the mat again


def landing_cost(back: bool, alike: bool, brushed: bool, returning: bool,
                 dead: bool) -> int | None:
    """The noise of a piece in the air landing on a square: ``back`` where it was lifted,
    ``alike`` a piece like the one the square lost last, on a ``brushed`` square
    (``returning``: the piece it lost is in the air), ``dead`` taken off by a standing turn
    (or a capture's victim in another lifted piece's place: ``victims``); None: it cannot."""
    if alike and brushed:
        return None   # alike pieces look alike: the one this square lost comes back
    if brushed and not back:
        if returning:
            return None   # a brush: the piece it lost comes back
        cost = STRAY
    elif back:
        cost = 0 if brushed else PUT_BACK
    else:
        cost = DEAD if dead else 0
    # Where a piece like it came from: no likelier than that one put back.
    return max(cost, PUT_BACK) if alike else cost

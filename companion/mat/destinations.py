"""Where a lifted piece may go: the steady lights of the player to move, and of a last move
its mover may still amend, each square coloured by the card that reaches it."""

from __future__ import annotations

from typing import Callable

from .readings import Reading
from .scene import BOTH_COLOUR, CARD_COLOURS, Light
from .window import Window, move_of


def _lights(reach: dict[int, set[int]]) -> dict[int, Light]:
    return {sq: Light(CARD_COLOURS[slots.pop()] if len(slots) == 1 else BOTH_COLOUR, "steady")
            for sq, slots in reach.items()}


def window_lights(w: Window | None, base: frozenset[int], occ: frozenset[int]) -> dict[int, Light]:
    """While the last mover may still go on or amend: a Wind Spirit card that could go on
    shows the Spirit's destinations in that card's colour; the pawn just moved, lifted,
    shows the other squares its turn allowed. Nothing else is lit then."""
    if w is None:
        return {}
    lifted = base - occ
    moved = move_of(w.reading)   # only a turn opens a window
    reach: dict[int, set[int]] = {}
    for r in w.readings:
        m = move_of(r)
        slot = w.before.hands[w.mover].index(m.card)
        # Only a pawn step may still go on with the Spirit: a turn that made its Spirit step
        # is whole, though a swap leaves the same squares full as its pawn step did.
        if (m.wind_card and m.spirit_to is not None and moved.spirit_from is None
                and r.midway == w.reading.occupancy
                and m.from_sq == moved.from_sq and m.to_sq == moved.to_sq):
            reach.setdefault(m.spirit_to, set()).add(slot)
        elif moved.to_sq in lifted and m.to_sq is not None and m.from_sq == moved.from_sq:
            reach.setdefault(m.to_sq, set()).add(slot)
    return _lights(reach)


def spirit_steps(readings: list[Reading], occ: frozenset[int],
                 shown: Callable[[Reading], bool]) -> list[Reading]:
    """The Wind Spirit card turns the mat shows half done: their pawn step made (a capture's
    captured pawn seen gone: ``shown``), the Spirit standing or in the hand."""
    out = []
    for r in readings:
        m = move_of(r)
        if (r.midway is not None and m.spirit_from is not None and shown(r)
                and occ in (r.midway, r.midway - {m.spirit_from})):
            out.append(r)
    return out


def destinations(readings: list[Reading], base: frozenset[int], occ: frozenset[int],
                 slot: Callable[[str], int], shown: Callable[[Reading], bool]) -> dict[int, Light]:
    """Lights for a Wind Spirit card half done (only the Spirit's steps of that card: the
    pawn has moved, no other card's move is still to be made) or else a lifted piece (its
    legal first steps), each coloured by the card that reaches it."""
    reach: dict[int, set[int]] = {}
    halfway = spirit_steps(readings, occ, shown)
    for r in halfway:
        m = move_of(r)
        assert m.spirit_to is not None, "a step's squares come in pairs"
        reach.setdefault(m.spirit_to, set()).add(slot(m.card))
    if halfway:
        return _lights(reach)
    lifted = base - occ
    for r in readings:
        m = move_of(r)
        step = (m.from_sq, m.to_sq) if m.from_sq is not None else (m.spirit_from, m.spirit_to)
        if step[0] in lifted:
            assert step[1] is not None, "a step's squares come in pairs"
            reach.setdefault(step[1], set()).add(slot(m.card))
    return _lights(reach)

"""Simulated hands: a person placing and lifting pawns on the simulated mat and pressing its
buttons. They work at the level of the switches (the simulated pins), so everything above,
the scan loop included, runs as on the Pi. Only the simulation has them.
"""

from __future__ import annotations

import threading
import time

from firmware.sim_mat import SimMat

from ..rules.squares import parse_square, square_name
from .errors import BadRequest, Conflict, NotFound
from .viewtypes import SimState

NOISY_BOUNCES = (0.0015, 0.001, 0.0025, 0.001)  # a switch's chatter when a magnet arrives


class Hands:
    def __init__(self, sim: SimMat | None):
        self._sim = sim

    def _mat(self) -> SimMat:
        if self._sim is None:
            raise NotFound("only the simulation has simulated hands")
        return self._sim

    def state(self) -> SimState:
        """The pawns, and what the simulated LED strip shows."""
        sim = self._mat()
        frame = sim.strip.frame()
        return {"pawns": sorted(square_name(sq) for sq in sim.pawns),
                "leds": {square_name(sq): list(rgb) for sq, rgb in frame.lit().items()},
                "edges": {name: list(rgb) for name, rgb in frame.edges.items()},
                "frame": sim.strip.written}

    def button(self, name: str, long: bool = False) -> None:
        sim = self._mat()
        if name not in sim.pinmap.buttons.pins:
            raise BadRequest(f"no button {name!r} (A, B or C)")
        hold = sim.pinmap.buttons.long_press_s + 0.2 if long else 0.08
        sim.press(name)
        threading.Timer(hold, sim.release, (name,)).start()

    def switch(self, square: str, on: bool, noisy: bool) -> None:
        """Place (``on``) or lift a pawn; ``noisy``: with a reed switch's chatter."""
        sim = self._mat()
        try:
            sq = parse_square(square)
        except (ValueError, TypeError):
            raise BadRequest(f"{square!r} is not a square (a1 to e5)") from None
        if (sq in sim.pawns) == on:
            raise Conflict(f"{square} already {'holds' if on else 'has no'} a pawn")
        if not noisy:
            (sim.place if on else sim.lift)(sq)
            return

        def chatter() -> None:
            # A reed switch closing under an arriving magnet chatters for a few milliseconds.
            state = on
            for gap in NOISY_BOUNCES:
                (sim.place if state else sim.lift)(sq)
                time.sleep(gap)
                state = not state
            (sim.place if on else sim.lift)(sq)
        threading.Thread(target=chatter, daemon=True).start()

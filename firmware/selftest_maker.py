"""The person at the board during the self-test: how long the test waits for them, and, in
the simulation, the scripted maker who does what the instructions say."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from firmware.hardware import Hardware
from firmware.leds import GREEN, capped
from firmware.pinmap import BUTTON_NAMES, PinMap

OCCUPIED = GREEN  # a square with a pawn on it


@dataclass(frozen=True)
class Timeouts:
    led_step: float  # each LED in the chain walk
    colour_hold: float  # each all-LED colour
    answer: float  # a yes/no question on the board
    buttons: float  # with no new button press
    squares: float  # with no new square
    clear_mat: float  # for the mat to be cleared
    reaction: float  # the scripted maker's patience for a reaction
    look: float  # time to look at a screen before it moves on


PI_TIMEOUTS = Timeouts(led_step=0.15, colour_hold=0.8, answer=30, buttons=30, squares=60, clear_mat=30,
                       reaction=0, look=2.5)


def sim_timeouts(pinmap: PinMap) -> Timeouts:
    """The scripted maker waits for a reaction a few debounce windows and scans long."""
    # Patience for a loaded machine (the scan thread can starve for tens of ms); only a fault
    # (a square that never lights) waits it out.
    reaction = 0.05 + 10 * (pinmap.matrix.debounce_s + 1 / pinmap.matrix.scan_hz)
    return Timeouts(led_step=0.0, colour_hold=0.0, answer=0, buttons=2, squares=5, clear_mat=0.5,
                    reaction=reaction, look=0.0)


class ScriptedMaker:
    """In the simulation: the person in front of the board, following the instructions."""

    def __init__(self, hw: Hardware, timeouts: Timeouts):
        assert hw.sim is not None
        self._sim = hw.sim
        self._lit = capped(OCCUPIED, hw.pinmap.leds.max_brightness)
        self._hold = hw.pinmap.buttons.debounce_s * 2 + 0.02
        self._timeouts = timeouts

    @property
    def longest_s(self) -> float:
        """The longest the maker's presses or placements can take: every step waiting out
        its patience (a square that never lights, a press never echoed)."""
        steps = 2 * 25 + len(BUTTON_NAMES)
        return steps * (self._timeouts.reaction + self._hold)

    def place_every_pawn(self) -> None:
        """A pawn on each square in turn, lifted once the square lights (or after a while)."""
        strip = self._sim.strip
        for sq in range(25):
            self._sim.place(sq)
            # wait_for returns before the loop moves on, so the lambdas read this sq.
            strip.wait_for(lambda f: f.squares[sq] == self._lit, self._timeouts.reaction)
            self._sim.lift(sq)
            strip.wait_for(lambda f: f.squares[sq] != self._lit, self._timeouts.reaction)

    def press_every_button(self, echoed: Callable[[str, float], bool]) -> None:
        for name in BUTTON_NAMES:
            self._sim.tap(name, self._hold)
            echoed(name, self._timeouts.reaction)

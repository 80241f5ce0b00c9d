"""The budget of the smallest Pi: the matrix read in bulk (lgpio group calls, modelled by the
simulation's fake lgpio), the scan slowing down at rest, and the animator waking only when a
colour changes."""

from __future__ import annotations

import random
import threading
import time

import pytest

from firmware.animation import Animator, Blink, Pulse, Steady, Sweep, Urgency, next_wake, Placed
from firmware.group_scan import GroupScanner
from firmware.leds import GREEN, LedMat
from firmware.matrix import MatrixScanner, ScanLoop
from firmware.sim_lgpio import FakeLgpio, error
from firmware.sim_mat import SimMat
from firmware.sim_strip import RecordingStrip


# -- the group scanner ----------------------------------------------------------------------------
@pytest.mark.parametrize("faults", [{}, {"diodes": False}, {"dead_switches": {2, 7}, "cut_wires": {13, 22}}])
def test_the_group_scanner_reads_what_the_pin_scanner_reads(pinmap, faults):
    mat = SimMat(pinmap, **faults)
    rng = random.Random(16)
    try:
        with GroupScanner(pinmap.matrix, mat.lgpio) as group, \
                MatrixScanner(pinmap.matrix, pin_factory=mat.factory) as pins:
            for _ in range(200):
                mat.set_pawns(rng.sample(range(25), rng.randrange(0, 12)))
                assert group.scan() == pins.scan()
    finally:
        mat.close()


def test_a_scan_makes_eleven_pin_calls(pinmap):
    mat = SimMat(pinmap)
    mat.place(0, 12, 24)
    with GroupScanner(pinmap.matrix, mat.lgpio) as scanner:
        before = dict(mat.lgpio.calls)
        assert scanner.scan() == {0, 12, 24}
        calls = {k: v - before.get(k, 0) for k, v in mat.lgpio.calls.items() if v != before.get(k, 0)}
    assert calls == {"group_write": 6, "group_read": 5}
    mat.close()


def test_the_pins_are_claimed_once_and_freed_on_close(pinmap):
    lgpio = FakeLgpio(SimMat(pinmap))
    scanner = GroupScanner(pinmap.matrix, lgpio)
    with pytest.raises(error, match="GPIO busy"):
        GroupScanner(pinmap.matrix, lgpio)
    scanner.close()
    GroupScanner(pinmap.matrix, lgpio).close()  # free again
    assert lgpio._open == 0 and not lgpio._claimed


def test_without_pull_ups_every_square_reads_occupied(pinmap):
    """The fake models the pins, not the scanner's intent: claim the columns without the
    pull-up flag and they float low, as a forgotten pull-up would on the board."""
    lgpio = FakeLgpio(SimMat(pinmap))
    lgpio.SET_PULL_UP = 0
    with GroupScanner(pinmap.matrix, lgpio) as scanner:
        assert scanner.scan() == frozenset(range(25))


# -- the scan loop at rest ------------------------------------------------------------------------
class ScriptedScanner:
    def __init__(self, config):
        self.config = config
        self.sample = frozenset()
        self.times: list[float] = []

    def scan(self) -> frozenset[int]:
        self.times.append(time.monotonic())
        return self.sample


def rate(times: list[float], start: float, end: float) -> float:
    return sum(start <= t < end for t in times) / (end - start)


def test_the_loop_slows_down_at_rest_and_speeds_up_on_the_first_change(pinmap):
    scanner = ScriptedScanner(pinmap.matrix)
    changes = []
    landed = threading.Event()

    def on_change(occupancy, t):
        changes.append((occupancy, t))
        landed.set()

    with ScanLoop(scanner, on_change, scan_hz=100, idle_hz=20, idle_after_s=0.2, debounce_s=0.025) as loop:
        time.sleep(0.2 + 0.6)
        assert loop.idle
        idle_rate = rate(scanner.times, time.monotonic() - 0.5, time.monotonic())
        placed = time.monotonic()
        scanner.sample = frozenset({7})
        assert landed.wait(1.0)
        time.sleep(0.15)
        assert not loop.idle
        busy_rate = rate(scanner.times, changes[0][1], time.monotonic())
    assert idle_rate <= 25  # 20 Hz asked
    assert busy_rate >= 50  # 100 Hz asked; a loaded machine loses some
    # Seen at the next idle scan (at most 50 ms), then one debounce window at full rate.
    assert changes == [(frozenset({7}), changes[0][1])]
    assert changes[0][1] - placed < 0.05 + 0.025 + 0.05


# -- the animator wakes when a colour changes ------------------------------------------------------
def test_next_wake_is_the_earliest_colour_change():
    blink = Placed(Blink(GREEN, Urgency.NORMAL), since=0.0)  # 0.8 s period: changes at 0.4, 0.8
    sweep = Placed(Sweep(GREEN, 0, 5, Urgency.NORMAL), since=0.0)  # a step every 0.16 s
    assert next_wake({0: Placed(Steady(GREEN), 0.0)}, {}, 1.0, 0.02) is None
    assert next_wake({0: blink}, {}, 0.1, 0.02) == pytest.approx(0.3, abs=1e-3)
    assert next_wake({0: blink}, {"red": sweep}, 0.1, 0.02) == pytest.approx(0.06, abs=1e-3)
    assert next_wake({0: Placed(Pulse(GREEN), 0.0), 1: blink}, {}, 0.1, 0.02) == pytest.approx(0.02, abs=1e-3)


def test_a_blinking_hint_wakes_the_animator_twice_a_period(pinmap):
    strip = RecordingStrip(pinmap.leds)
    with Animator(LedMat(strip, pinmap.leds), fps=50) as animator:
        animator.set_scene({4: Blink(GREEN, Urgency.HINT)})  # 1.6 s period
        time.sleep(1.7)
        wakes = animator.wakes
        frames = [f.squares[4] for _, f in strip.frames()]
    # The old tick woke 50 times a second (85 here); now once per on/off edge, plus the
    # scene change: about 3 in 1.7 s.
    assert wakes <= 6
    assert len(frames) >= 3 and frames[-1] != frames[-2]  # it still blinks

"""Buttons: the pure press / long-press logic, then gpiozero Buttons on the simulated pins."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from firmware.buttons import Buttons, ButtonTracker
from firmware.sim_mat import SimMat

LONG, DEBOUNCE = 1.0, 0.02


def run(samples):
    tracker = ButtonTracker.start(LONG, DEBOUNCE)
    events = []
    for t, held in samples:
        tracker, new = tracker.step(frozenset(held), t)
        events += [(e.kind, e.button, round(e.t, 3)) for e in new]
    return tracker, events


def test_a_short_press_is_reported_on_release():
    _, events = run([(0.0, "A"), (0.02, "A"), (0.3, ""), (0.32, "")])
    assert events == [("press", "A", 0.32)]


def test_a_long_press_is_reported_at_the_threshold_and_not_again_on_release():
    tracker, events = run([(0.0, "B"), (0.02, "B")])
    assert tracker.next_deadline == pytest.approx(1.0)  # measured from when the press began
    _, events = run([(0.0, "B"), (0.02, "B"), (1.0, "B"), (1.5, ""), (1.52, "")])
    assert events == [("long_press", "B", 1.0)]


def test_contact_bounce_makes_one_press():
    chatter = [(i * 0.002, "C" if i % 2 == 0 else "") for i in range(6)]  # 10 ms of chatter
    _, events = run(chatter + [(0.012, "C"), (0.04, "C"), (0.2, ""), (0.205, "C"), (0.21, ""), (0.24, "")])
    assert events == [("press", "C", 0.24)]


def test_a_glitch_shorter_than_the_debounce_is_no_press():
    _, events = run([(0.0, "A"), (0.01, ""), (0.05, ""), (0.1, "")])
    assert events == []


@pytest.fixture
def buttons_on_sim(pinmap):
    fast = replace(pinmap, buttons=replace(pinmap.buttons, long_press_s=0.15))
    mat = SimMat(fast)
    buttons = Buttons(fast.buttons, pin_factory=mat.factory)
    yield mat, buttons
    buttons.close()
    mat.close()


def test_presses_and_long_presses_on_the_simulated_pins(buttons_on_sim):
    mat, buttons = buttons_on_sim
    events = []
    done = threading.Event()

    def note(kind):
        def callback(name):
            events.append((kind, name))
            if len(events) == 3:
                done.set()
        return callback

    buttons.on_press = note("press")
    buttons.on_long_press = note("long")
    mat.tap("A", 0.05)
    mat.tap("C", 0.25)
    mat.press("B")
    mat.release("B")  # a 0 ms glitch: nothing
    mat.tap("B", 0.05)
    assert done.wait(1.0)
    assert events == [("press", "A"), ("long", "C"), ("press", "B")]


def test_a_cut_button_wire_never_presses(pinmap):
    mat = SimMat(pinmap, cut_wires={pinmap.buttons.pins["A"]})
    with Buttons(pinmap.buttons, pin_factory=mat.factory) as buttons:
        mat.press("A")
        assert buttons.held == frozenset()
    mat.close()

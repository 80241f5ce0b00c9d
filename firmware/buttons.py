"""The three buttons (A, B, C, left to right under the OLED): press and long press.

A press is reported when the button is let go before the long-press threshold; holding it to
the threshold reports a long press at once (and nothing on release). Debounce is our own
(``Debouncer``): gpiozero's bounce_time means different things per pin back-end and the mock
ignores it. The logic is a pure ``ButtonTracker``; ``Buttons`` wires it to gpiozero ``Button``
devices and a small thread that wakes on every edge and at every pending deadline.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gpiozero import Button
from gpiozero.pins import Factory

from firmware.debounce import Debouncer
from firmware.errors import join_thread
from firmware.pinmap import ButtonConfig

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonEvent:
    kind: str  # "press" or "long_press"
    button: str
    t: float


@dataclass(frozen=True)
class ButtonTracker:
    """Pure press / long-press logic over raw samples of the set of buttons held down."""

    long_press: float
    debouncer: Debouncer[str]
    # Buttons held (debounced) and not yet reported as long presses, with when they went down.
    down: frozenset[tuple[str, float]] = field(default=frozenset())

    @classmethod
    def start(cls, long_press: float, debounce: float) -> ButtonTracker:
        return cls(long_press, Debouncer(debounce))

    def step(self, raw: frozenset[str], t: float) -> tuple[ButtonTracker, list[ButtonEvent]]:
        debouncer = self.debouncer.update(raw, t)
        down = dict(self.down)
        events = []
        for name in sorted(debouncer.stable - self.debouncer.stable):
            # A press lands one debounce window after it began.
            down[name] = t - debouncer.window
        for name in sorted(self.debouncer.stable - debouncer.stable):
            if down.pop(name, None) is not None:
                events.append(ButtonEvent("press", name, t))
        for name, since in sorted(down.items()):
            if t >= since + self.long_press:
                events.append(ButtonEvent("long_press", name, t))
                del down[name]
        return ButtonTracker(self.long_press, debouncer, frozenset(down.items())), events

    @property
    def next_deadline(self) -> float | None:
        deadlines = [since + self.long_press for _, since in self.down]
        if self.debouncer.next_deadline is not None:
            deadlines.append(self.debouncer.next_deadline)
        return min(deadlines, default=None)


class Buttons:
    """Buttons A, B, C. Set ``on_press`` / ``on_long_press`` to ``f(name)``; they run on the
    buttons' own thread."""

    def __init__(self, config: ButtonConfig, pin_factory: Factory | None = None):
        self.on_press: Callable[[str], None] | None = None
        self.on_long_press: Callable[[str], None] | None = None
        self._buttons: dict[str, Button] = {}
        try:
            for name, pin in config.pins.items():
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                button.when_pressed = button.when_released = self._edge
                self._buttons[name] = button
        except Exception:
            self._close_devices()
            raise
        self._tracker = ButtonTracker.start(config.long_press_s, config.debounce_s)
        self._dirty = True
        self._closing = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
        self._thread.start()

    @property
    def held(self) -> frozenset[str]:
        """Buttons held down now (debounced)."""
        return self._tracker.debouncer.stable

    def _edge(self) -> None:
        # Runs on gpiozero's callback thread: only note it, the worker does the rest.
        with self._changed:
            self._dirty = True
            self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                deadline = self._tracker.next_deadline
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                self._changed.wait_for(lambda: self._dirty or self._closing, timeout)
                if self._closing:
                    return
                self._dirty = False
            raw = frozenset(name for name, button in self._buttons.items() if button.is_pressed)
            self._tracker, events = self._tracker.step(raw, time.monotonic())
            for event in events:
                callback = self.on_press if event.kind == "press" else self.on_long_press
                if callback is None:
                    continue
                try:
                    callback(event.button)
                except Exception:
                    log.exception("button callback failed for %s %s", event.kind, event.button)

    def _close_devices(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def close(self) -> None:
        with self._changed:
            self._closing = True
            self._changed.notify()
        join_thread(self._thread)
        self._close_devices()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

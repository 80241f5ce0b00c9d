"""LED effects, scenes and the animator thread that plays them.

Upper layers say *what* each square should do with a scene: ``{square: cue}`` plus cues for
edge groups, handed over with ``Animator.set_scene()`` (never blocks). A cue is plain data in
the LED grammar (``companion/mat/feedback.py``'s ``Cue``: a colour, a kind, an urgency, a
phase, a sweep's place; the ``Cue`` protocol below); the animator translates it into one of
its effects (``effect_of``), so the layers above never import this module. The animator renders
frames on its own thread: at once when the scene changes, then on a steady tick only while
something moves. Speed means urgency: hints are slow and dim, moves normal, errors fast.

An effect's clock starts when it first appears on its square; a scene that keeps an effect on
a square keeps its phase, so re-sending the same scene never restarts a blink. Effects started
by one ``set_scene`` share a clock, so ``Blink(phase=0.5)`` alternates with ``Blink()``.

Only what changes is animated: each effect says when its colour next changes (``next_change``),
and the animator sleeps until the earliest of them. A blinking hint wakes it twice a period,
not 50 times a second; only a ``Pulse`` (a continuous fade) needs the steady tick.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

from firmware.errors import join_thread
from firmware.leds import OFF, RGB, Frame, LedMat

log = logging.getLogger(__name__)


class Urgency(Enum):
    """Cycle time (seconds) and brightness of effects."""

    HINT = (1.6, 0.35)
    NORMAL = (0.8, 1.0)
    ERROR = (0.25, 1.0)

    @property
    def period(self) -> float:
        return self.value[0]

    @property
    def level(self) -> float:
        return self.value[1]


def _scaled(colour: RGB, level: float) -> RGB:
    return round(colour[0] * level), round(colour[1] * level), round(colour[2] * level)


@dataclass(frozen=True)
class Steady:
    colour: RGB
    urgency: Urgency = Urgency.NORMAL

    def colour_at(self, age: float) -> RGB:
        return _scaled(self.colour, self.urgency.level)

    def next_change(self, age: float) -> float | None:
        """Seconds until the colour may change (0: continuously; None: never)."""
        return None


@dataclass(frozen=True)
class Blink:
    """On for the first half of each cycle; ``phase`` (0-1) shifts the cycle."""

    colour: RGB
    urgency: Urgency = Urgency.NORMAL
    phase: float = 0.0

    def colour_at(self, age: float) -> RGB:
        on = (age / self.urgency.period + self.phase) % 1.0 < 0.5
        return _scaled(self.colour, self.urgency.level) if on else OFF

    def next_change(self, age: float) -> float | None:
        u = (age / self.urgency.period + self.phase) % 1.0
        return ((0.5 if u < 0.5 else 1.0) - u) * self.urgency.period


@dataclass(frozen=True)
class Pulse:
    """Breathes from full to a tenth and back, starting full."""

    colour: RGB
    urgency: Urgency = Urgency.NORMAL

    def colour_at(self, age: float) -> RGB:
        wave = 0.55 + 0.45 * math.cos(2 * math.pi * age / self.urgency.period)
        return _scaled(self.colour, self.urgency.level * wave)

    def next_change(self, age: float) -> float | None:
        return 0.0


@dataclass(frozen=True)
class Sweep:
    """A light running along a line of ``length`` squares; this square is at ``position``.

    The head moves one square per ``period / length`` seconds and leaves a dim tail.
    Build a whole line with ``sweep()``.
    """

    colour: RGB
    position: int
    length: int
    urgency: Urgency = Urgency.NORMAL

    def colour_at(self, age: float) -> RGB:
        head = int(age / self.urgency.period * self.length) % self.length
        behind = (head - self.position) % self.length
        level = {0: 1.0, 1: 0.3}.get(behind, 0.0)
        return _scaled(self.colour, self.urgency.level * level) if level else OFF

    def next_change(self, age: float) -> float | None:
        step = self.urgency.period / self.length
        return step - age % step


Effect = Steady | Blink | Pulse | Sweep
EFFECTS = (Steady, Blink, Pulse, Sweep)


class Cue(Protocol):
    """A square's light as the upper layers say it (``companion.mat.feedback.Cue``)."""

    @property
    def rgb(self) -> RGB: ...
    @property
    def kind(self) -> str: ...         # "steady", "blink", "pulse" or "sweep"
    @property
    def urgency(self) -> str: ...      # "hint", "normal" or "error"
    @property
    def phase(self) -> float: ...
    @property
    def position(self) -> int: ...
    @property
    def length(self) -> int: ...


def effect_of(light: Effect | Cue) -> Effect:
    """The effect that plays ``light`` (an effect already is one)."""
    if isinstance(light, EFFECTS):
        return light
    urgency = Urgency[light.urgency.upper()]
    if light.kind == "blink":
        return Blink(light.rgb, urgency, light.phase)
    if light.kind == "pulse":
        return Pulse(light.rgb, urgency)
    if light.kind == "sweep":
        return Sweep(light.rgb, light.position, light.length, urgency)
    if light.kind == "steady":
        return Steady(light.rgb, urgency)
    raise ValueError(f"no LED effect {light.kind!r} (known: steady, blink, pulse, sweep)")


def sweep(squares: Sequence[int], colour: RGB, urgency: Urgency = Urgency.NORMAL) -> dict[int, Sweep]:
    """A scene fragment: a light running along ``squares`` in order (a rank, a file, a path)."""
    return {sq: Sweep(colour, i, len(squares), urgency) for i, sq in enumerate(squares)}


@dataclass(frozen=True)
class Placed:
    """An effect on a square or edge group, with the time its clock started."""

    effect: Effect
    since: float


def render(squares: Mapping[int, Placed], edges: Mapping[str, Placed], t: float) -> Frame:
    """The frame a scene shows at time ``t``: a pure function."""
    colours = [OFF] * 25
    for sq, placed in squares.items():
        colours[sq] = placed.effect.colour_at(t - placed.since)
    lit_edges = {name: placed.effect.colour_at(t - placed.since) for name, placed in edges.items()}
    return Frame(tuple(colours), {n: c for n, c in lit_edges.items() if c != OFF})


def next_wake(squares: Mapping[int, Placed], edges: Mapping[str, Placed], t: float,
              tick: float) -> float | None:
    """Seconds from ``t`` until any colour of the scene can change (at least ``tick`` for a
    continuous effect); None if the scene is still."""
    waits = []
    for placed in (*squares.values(), *edges.values()):
        wait = placed.effect.next_change(t - placed.since)
        if wait is not None:
            waits.append(tick if wait == 0.0 else wait)
    # A hair past the boundary, so that the frame rendered then shows the new colour.
    return min(waits) + 1e-4 if waits else None


_Key = TypeVar("_Key", int, str)     # a square, or an edge group's name


def _place(old: Mapping[_Key, Placed], new: Mapping[_Key, Effect], now: float) -> dict[_Key, Placed]:
    return {key: old[key] if key in old and old[key].effect == effect else Placed(effect, now)
            for key, effect in new.items()}


class Animator:
    """Plays scenes on a ``LedMat`` from its own thread.

    The thread sleeps until ``set_scene`` wakes it, so a new scene reaches the strip in well
    under a millisecond; while effects move it wakes when the next one changes colour (at most
    ``fps`` times a second, for a pulse). Only frames that differ from the last one are written.
    """

    def __init__(self, leds: LedMat, fps: float = 50):
        self._leds = leds
        self._tick = 1 / fps
        self._squares: dict[int, Placed] = {}
        self._edges: dict[str, Placed] = {}
        self._dirty = False
        self._closing = False
        self.wakes = 0  # times the thread woke to render: the cost of animating
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="led-animator", daemon=True)
        self._thread.start()

    def set_scene(self, squares: Mapping[int, Effect | Cue],
                  edges: Mapping[str, Effect | Cue] | None = None) -> None:
        """Replace the scene; squares and edge groups not named are off. Returns at once."""
        square_effects = {sq: effect_of(light) for sq, light in squares.items()}
        edge_effects = {name: effect_of(light) for name, light in (edges or {}).items()}
        for sq in square_effects:
            if not 0 <= sq < 25:
                raise ValueError(f"{sq!r} is not a square (0 to 24)")
        for name in edge_effects:
            if name not in self._leds.config.edges:
                raise ValueError(f"no edge LEDs named {name!r} (known: {', '.join(self._leds.config.edges)})")
        now = time.monotonic()
        with self._changed:
            self._squares = _place(self._squares, square_effects, now)
            self._edges = _place(self._edges, edge_effects, now)
            self._dirty = True
            self._changed.notify()

    def _run(self) -> None:
        last: Frame | None = None
        while True:
            with self._changed:
                wait = next_wake(self._squares, self._edges, time.monotonic(), self._tick)
                self._changed.wait_for(lambda: self._dirty or self._closing, wait)
                self.wakes += 1
                if self._closing:
                    return
                self._dirty = False
                squares, edges = self._squares, self._edges
            frame = render(squares, edges, time.monotonic())
            if frame != last:
                try:
                    self._leds.show(frame)
                except Exception:
                    # Keep animating: a strip error must not leave the last frame lit forever.
                    log.exception("LED update failed")
                last = frame

    def close(self) -> None:
        """Stop the thread and turn the LEDs off."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        join_thread(self._thread)  # a stuck thread keeps the strip: it is not touched
        self._leds.close()

    def __enter__(self) -> Animator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""A strip that records what it is asked to show, for the simulation, tests and benchmarks."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Sequence

from firmware.leds import OFF, RGB, Frame, Strip, pixels_frame
from firmware.pinmap import LedConfig
from firmware.recording import wait_recorded


def _packed(pixels: Sequence[RGB]) -> bytes:
    """Three bytes an LED: a frame of 35 LEDs as tuples of colour tuples took about 2 kB, so
    the 10,000 frames kept took 20 MB of the simulated service's memory; packed, 1.4 MB."""
    return bytes(c for rgb in pixels for c in rgb)


def _unpacked(data: bytes) -> tuple[RGB, ...]:
    return tuple((data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3))


class RecordingStrip(Strip):
    """Keeps every write with its ``time.monotonic()`` timestamp (the last ``keep`` of them)."""

    def __init__(self, config: LedConfig, keep: int = 10_000):
        self.config = config
        self.count = config.count
        self.writes: deque[tuple[float, bytes]] = deque(maxlen=keep)
        self.closed = False
        self._count = 0  # writes ever made (the deque forgets old ones)
        self._written = threading.Condition()

    def write(self, pixels: Sequence[RGB]) -> None:
        if len(pixels) != self.count:
            raise ValueError(f"{len(pixels)} colours for a chain of {self.count} LEDs")
        with self._written:
            self.writes.append((time.monotonic(), _packed(pixels)))
            self._count += 1
            self._written.notify_all()

    def close(self) -> None:
        self.closed = True

    @property
    def written(self) -> int:
        """How many frames were ever written (``writes`` keeps only the last ``keep``)."""
        with self._written:
            return self._count

    @property
    def pixels(self) -> tuple[RGB, ...]:
        """The colours showing now, in chain order."""
        with self._written:
            return _unpacked(self.writes[-1][1]) if self.writes else (OFF,) * self.count

    def frame(self) -> Frame:
        """What the mat shows now, decoded through the pin map."""
        return pixels_frame(self.pixels, self.config)

    def frames(self) -> list[tuple[float, Frame]]:
        """Every recorded write, decoded."""
        with self._written:
            writes = list(self.writes)
        return [(t, pixels_frame(_unpacked(p), self.config)) for t, p in writes]

    def wait_for(self, predicate: Callable[[Frame], bool], timeout: float) -> tuple[float, Frame] | None:
        """The first frame showing now or written within ``timeout`` that satisfies
        ``predicate``, with the time it was written; None on timeout."""
        def decoded(write: tuple[float, bytes]) -> tuple[float, Frame]:
            return write[0], pixels_frame(_unpacked(write[1]), self.config)

        return wait_recorded(
            self._written, lambda: self._count,
            lambda: decoded(self.writes[-1] if self.writes else (time.monotonic(), _packed((OFF,) * self.count))),
            lambda n: [decoded(w) for w in list(self.writes)[-n:]],
            lambda item: predicate(item[1]), timeout)

"""The reed-switch matrix: one scan pass (``MatrixScanner``) and the loop that debounces it.

Rows are outputs held high and driven low one at a time; columns are inputs with pull-ups. A
closed switch (a pawn's magnet above it) joins its row to its column through a 1N4148, so the
column reads low exactly while that row is driven. The scanner knows pins, not games: it reports
the set of squares whose switches are closed, with the pin map's orientation.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

from gpiozero import DigitalInputDevice, DigitalOutputDevice
from gpiozero.pins import Factory

from firmware.debounce import Debouncer
from firmware.errors import join_thread
from firmware.pinmap import MatrixConfig

log = logging.getLogger(__name__)


class MatrixScanner:
    """One full pass over the matrix per ``scan()``: no sleeping, no threads."""

    def __init__(self, config: MatrixConfig, pin_factory: Factory | None = None):
        self.config = config
        self._rows: list[DigitalOutputDevice] = []
        self._columns: list[DigitalInputDevice] = []
        try:
            for pin in config.rows:
                # active_high=False: on() drives the row low, the idle level is high.
                self._rows.append(DigitalOutputDevice(pin, active_high=False, initial_value=False,
                                                      pin_factory=pin_factory))
            for pin in config.columns:
                # pull_up=True makes a column active while it reads low, i.e. while connected.
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise
        self._squares = [[config.square_at(r, c) for c in range(len(config.columns))]
                         for r in range(len(config.rows))]

    def scan(self) -> frozenset[int]:
        """The squares whose switches read closed, one row at a time."""
        occupied = []
        for row, squares in zip(self._rows, self._squares):
            row.on()
            # No settling delay: a gpiozero pin operation (0.1-0.25 ms on a Zero 2 W) is far
            # longer than the wires' RC time with 10 kOhm pull-ups.
            for column, sq in zip(self._columns, squares):
                if column.is_active:
                    occupied.append(sq)
            row.off()
        return frozenset(occupied)

    def close(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows.clear()
        self._columns.clear()

    def __enter__(self) -> MatrixScanner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


OnChange = Callable[[frozenset[int], float], None]


class Scanner(Protocol):
    """What the loop needs of a scanner: ``MatrixScanner`` or ``firmware.group_scan.GroupScanner``."""

    config: MatrixConfig

    def scan(self) -> frozenset[int]: ...

    def close(self) -> None: ...


class ScanLoop:
    """Scans at a steady rate on its own thread and reports debounced occupancy changes.

    ``on_change(occupancy, t)`` runs on the scan thread with ``t`` from ``time.monotonic()``:
    keep it short (hand work to another thread; ``Animator.set_scene`` never blocks). Besides
    the steady rate, the loop also scans at the moment a pending change would land, so a stable
    change is reported within the debounce window plus one scan period of happening.

    When nothing has moved for ``idle_after_s`` (no sample differing from the debounced
    state), the loop scans at ``idle_hz`` instead: on a Zero 2 W most of the scan's cost is
    the pins, and the mat is at rest most of a game. The first sample that differs switches
    back to the full rate at once, so the debounce window is still sampled at full rate; the
    price is the wait for that first sample, up to one idle period (40 ms at 25 Hz) instead
    of one full-rate period (10 ms at 100 Hz).
    """

    def __init__(self, scanner: Scanner, on_change: OnChange, *,
                 scan_hz: float | None = None, debounce_s: float | None = None,
                 idle_hz: float | None = None, idle_after_s: float | None = None):
        self._scanner = scanner
        self._on_change = on_change
        self.period = 1 / (scan_hz or scanner.config.scan_hz)
        self.idle_period = max(self.period, 1 / (idle_hz or scanner.config.idle_scan_hz))
        self.idle_after = idle_after_s if idle_after_s is not None else scanner.config.idle_after_s
        self.idle = False  # scanning at the idle rate now
        self._debouncer: Debouncer[int] = Debouncer(debounce_s if debounce_s is not None else scanner.config.debounce_s)
        self.scans = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="matrix-scan", daemon=True)
        self._thread.start()

    @property
    def occupancy(self) -> frozenset[int]:
        """The debounced occupancy now (empty until the first change lands)."""
        return self._debouncer.stable

    def _run(self) -> None:
        next_scan = last_motion = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            sample = self._scanner.scan()
            self.scans += 1
            before = self._debouncer.stable
            if sample != before or not self._debouncer.settled:
                last_motion = now
            self._debouncer = self._debouncer.update(sample, now)
            if self._debouncer.stable != before:
                try:
                    self._on_change(self._debouncer.stable, now)
                except Exception:
                    # A bug above must not stop the scanning: log it and keep the mat alive.
                    log.exception("on_change failed for occupancy %s", sorted(self._debouncer.stable))
            self.idle = now - last_motion >= self.idle_after
            period = self.idle_period if self.idle else self.period
            while next_scan <= now:
                next_scan += period
            wake = next_scan
            if self._debouncer.next_deadline is not None:
                wake = min(wake, self._debouncer.next_deadline)
            self._stop.wait(max(0.0, wake - time.monotonic()))

    def close(self) -> None:
        self._stop.set()
        join_thread(self._thread)

    def __enter__(self) -> ScanLoop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

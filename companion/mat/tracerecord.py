"""Recording what a live mat does as a trace (docs/traces.md), so a bug report carries its
evidence: ``onitama-companion trace FILE`` replays it through the same code.

The recorder writes raw switch transitions (before debounce, as the trace format wants them),
buttons and phone answers, with times relative to the start of the game. The service wires it
with ``RecordingScanner``, a scanner that records each scan it passes on:

    recorder = TraceRecorder(open(path, "w"), position, "wind", start=time.monotonic())
    loop = ScanLoop(RecordingScanner(hardware.scanner, recorder), on_change)
    ...
    recorder.button(time.monotonic(), "A")
    recorder.close(time.monotonic())
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, Protocol, TextIO, TypeVar

from ..rules.position import Position, parse_position
from ..rules.squares import square_name

# The scanner's settings, whatever the driver calls them: the mat layer passes them through
# untouched and knows nothing of pins.
Config = TypeVar("Config")
Config_co = TypeVar("Config_co", covariant=True)


class TraceRecorder:
    """Writes one trace. Thread-safe: the scan thread and the service both write to it."""

    def __init__(self, out: TextIO, position: Position | str, variant: str, *, start: float,
                 settings: dict[str, Any] | None = None):
        """``settings``: the live mat's ``settle``, ``scan_hz`` and ``debounce_ms``, written
        into the header so that the trace replays the way the mat ran."""
        if isinstance(position, str):
            position = parse_position(position)
        self._out = out
        self._start = start
        self._lock = threading.Lock()
        self._closed = False
        # The trace starts with the position's pieces on the mat, at rest.
        self._switches = position.occupied()
        self._write({"trace": 1, "position": str(position), "variant": variant, **(settings or {})})

    def _write(self, obj: dict[str, Any]) -> None:
        # A scan already under way when the service switched traces lands here: drop it.
        if not self._closed:
            self._out.write(json.dumps(obj) + "\n")

    def _t(self, t: float) -> float:
        return round(max(0.0, t - self._start), 4)

    def switches(self, t: float, closed: frozenset[int]) -> None:
        """A raw scan at ``t``: records every switch that changed since the last one."""
        with self._lock:
            for sq in sorted(self._switches - closed):
                self._write({"t": self._t(t), "off": square_name(sq)})
            for sq in sorted(closed - self._switches):
                self._write({"t": self._t(t), "on": square_name(sq)})
            self._switches = frozenset(closed)

    def button(self, t: float, name: str) -> None:
        with self._lock:
            self._write({"t": self._t(t), "button": name})

    def answer(self, t: float, seat: str, card: str | None = None, *, takeback: bool = False,
               turn: int | None = None) -> None:
        answer: dict[str, Any] = {"seat": seat}
        if takeback:
            answer["takeback"] = True
        else:
            answer["card"] = card
        if turn is not None:
            answer["turn"] = turn
        with self._lock:
            self._write({"t": self._t(t), "input": answer})

    def close(self, t: float) -> None:
        """Ends the trace (the ``end`` line) and closes the file."""
        with self._lock:
            self._write({"t": self._t(t), "end": True})
            self._closed = True
            self._out.close()


class Scanner(Protocol[Config_co]):
    @property
    def config(self) -> Config_co: ...

    def scan(self) -> frozenset[int]: ...

    def close(self) -> None: ...


class RecordingScanner(Generic[Config]):
    """A scanner that records every scan it returns: drop-in for ``MatrixScanner``.

    ``recorder`` may be swapped (a new trace for each game) or None (not recording)."""

    def __init__(self, scanner: Scanner[Config], recorder: TraceRecorder | None,
                 clock: Callable[[], float] = time.monotonic):
        self._scanner = scanner
        self.recorder = recorder
        self._clock = clock
        self.config: Config = scanner.config

    def scan(self) -> frozenset[int]:
        closed = self._scanner.scan()
        recorder = self.recorder
        if recorder is not None:
            recorder.switches(self._clock(), closed)
        return closed

    def close(self) -> None:
        self._scanner.close()

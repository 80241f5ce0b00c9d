"""``--record-trace``: every scan the recognizer reads is also written to a trace, a new one
each time the recognizer starts on a game (FILE, then FILE-2, FILE-3 ...), with the buttons
and the phones' answers it was given. ``onitama-companion trace`` replays them.
"""

from __future__ import annotations

import time
from pathlib import Path
from firmware.matrix import Scanner
from firmware.pinmap import MatrixConfig

from ..mat.tracerecord import RecordingScanner, TraceRecorder
from ..rules.position import Position


class Traces:
    def __init__(self, scanner: Scanner, path: Path | None, settle: float):
        self._scanner = scanner
        self._path = path
        self._settle = settle
        self._tap: RecordingScanner[MatrixConfig] | None = (
            RecordingScanner(scanner, None) if path is not None else None)
        self._count = 0

    @property
    def scanner(self) -> Scanner:
        """What the scan loop reads: the scanner, through the recording tap if recording (a
        drop-in for it)."""
        return self._tap if self._tap is not None else self._scanner

    def start(self, position: Position, variant: str) -> None:
        if self._tap is None or self._path is None:
            return
        self.stop()
        self._count += 1
        path = self._path if self._count == 1 else self._path.with_name(
            f"{self._path.stem}-{self._count}{self._path.suffix}")
        matrix = self._scanner.config
        settings = {"settle": self._settle, "scan_hz": matrix.scan_hz,
                    "debounce_ms": round(matrix.debounce_s * 1000, 3)}
        self._tap.recorder = TraceRecorder(open(path, "w", encoding="utf-8"), position, variant,
                                           start=time.monotonic(), settings=settings)

    def stop(self) -> None:
        if self._tap is not None and self._tap.recorder is not None:
            recorder, self._tap.recorder = self._tap.recorder, None
            recorder.close(time.monotonic())

    def button(self, t: float, name: str) -> None:
        if self._tap is not None and self._tap.recorder is not None:
            self._tap.recorder.button(t, name)

    def answer(self, t: float, seat: str, card: str | None, takeback: bool, turn: int | None) -> None:
        if self._tap is not None and self._tap.recorder is not None:
            self._tap.recorder.answer(t, seat, card, takeback=takeback, turn=turn)

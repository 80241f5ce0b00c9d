"""``onitama-companion trace FILE``: replay a mat trace and print what the companion understood.

The trace's switch transitions drive the simulated mat (``firmware.sim_mat.SimMat``, gpiozero
pins behaving like the wired matrix), read by the live mat's own ``MatrixScanner`` and
``Debouncer`` at the pin map's scan rate on a simulated clock, and fed to the move recognizer.
Scans whose answer is already known are skipped: while the switches have not changed since the
last scan, a scan would return the same sample, and the debouncer only acts on identical
samples at its deadline, so the replay scans at the first scan time after a change and at each
debounce deadline (as the live scan loop does). A 10-minute game replays in well under a second.
Output: one JSON object per line (docs/traces.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Iterator
from typing import overload

from firmware.debounce import Debouncer
from firmware.matrix import MatrixScanner
from firmware.pinmap import PinMap, PinMapError, load_pinmap
from firmware.sim_mat import SimMat

from .rules.position import parse_position
from .mat.events import MatEvent
from .mat.reaching import reaches
from .mat.recognizer import CLEAR_S, MAX_SETTLE_S, SETTLE_S, Recognizer
from .rules.squares import parse_square
from .rules.ways import WAYS
from .table.errors import CompanionError
from .mat.tracerecord import RecordingScanner, TraceRecorder

# The ways of playing whose main-board moves the mat reads: what --record-trace records.
VARIANTS = tuple(name for name, way in WAYS.items() if way.mat_reads_moves)
BUTTONS = ("A", "B", "C")


class TraceError(CompanionError):
    """A trace file that does not follow docs/traces.md; names the line."""


def parse_trace(lines: Iterable[str]) -> tuple[dict, list[dict]]:
    """The header and the events of a trace in JSON Lines, checked line by line."""
    header: dict | None = None
    events: list[dict] = []
    last_t = 0.0
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TraceError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise TraceError(f"line {number}: expected an object")
        if header is None:
            if obj.get("trace") != 1 or not isinstance(obj.get("position"), str):
                raise TraceError(f"line {number}: the first line must be "
                                 '{"trace": 1, "position": "...", "variant": "..."}')
            if obj.get("variant", "base") not in VARIANTS:
                raise TraceError(f"line {number}: unknown variant {obj.get('variant')!r} "
                                 f"(the mat reads {', '.join(VARIANTS)})")
            parse_position(obj["position"])
            header = obj
            continue
        last_t = _check_event(obj, number, text, last_t)
        events.append(obj)
    if header is None:
        raise TraceError("empty trace: the first line must give the position")
    return header, events


def _check_event(obj: dict, number: int, text: str, last_t: float) -> float:
    """Check one event line (its time never before ``last_t``); its time."""
    t = obj.get("t")
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t) or t < last_t:
        raise TraceError(f"line {number}: 't' must be a number of seconds, never decreasing")
    if "on" in obj or "off" in obj:
        try:
            parse_square(obj["on"] if "on" in obj else obj["off"])
        except ValueError as exc:
            raise TraceError(f"line {number}: {exc}") from None
    elif "button" in obj:
        if obj["button"] not in BUTTONS:
            raise TraceError(f"line {number}: button must be A, B or C")
    elif "input" in obj or "press" in obj:
        _check_answer(obj["input"] if "input" in obj else obj["press"], number)
    elif obj.get("end") is not True:
        raise TraceError(f"line {number}: unknown event {text.strip()!r}")
    return float(t)


def _check_answer(answer: object, number: int) -> None:
    """Check an ``input`` (or ``press``) event's answer: its seat, and the turn it names."""
    if not isinstance(answer, dict) or answer.get("seat") not in ("red", "blue"):
        raise TraceError(f"line {number}: input must be {{\"seat\": \"red\"|\"blue\", \"card\": ...}}")
    turn = answer.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 1):
        raise TraceError(f"line {number}: an input's turn is the number of the turn it answers")


def replay(header: dict, events: Iterable[dict], *, settle: float = SETTLE_S,
           clear: float = CLEAR_S, pinmap: PinMap | None = None, scan_hz: float | None = None,
           debounce_s: float | None = None, recorder: TraceRecorder | None = None) -> Iterator[MatEvent]:
    """What the companion decides while the trace plays, event by event. With ``recorder``,
    the replay is recorded as the live companion records its mat (scans, buttons, answers)."""
    pinmap = pinmap or load_pinmap()
    period = 1 / (scan_hz or pinmap.matrix.scan_hz)
    window = pinmap.matrix.debounce_s if debounce_s is None else debounce_s
    recognizer = Recognizer(header["position"], settle=settle, clear=clear, t=0.0)
    clock = _Clock()
    mat = SimMat(pinmap)
    try:
        mat.set_pawns(recognizer.occupancy)
        with MatrixScanner(pinmap.matrix, pin_factory=mat.factory) as scanner:
            source = scanner if recorder is None else RecordingScanner(scanner, recorder, clock)
            yield from _run(recognizer, mat, source, Debouncer(window, stable=recognizer.occupancy),
                            period, events, clock, recorder)
    finally:
        mat.close()


class _Clock:
    """The simulated time, readable as a clock by the recorder."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _run(recognizer: Recognizer, mat: SimMat, scanner: MatrixScanner | RecordingScanner,
         debouncer: Debouncer[int], period: float, events: Iterable[dict], clock: _Clock,
         recorder: TraceRecorder | None) -> Iterator[MatEvent]:
    yield from recognizer.advance(0.0)
    scan_due: float | None = None   # the first scan time after the switches last changed

    def until(end: float) -> Iterator[MatEvent]:
        nonlocal scan_due, debouncer
        while True:
            scan_at = min((t for t in (scan_due, debouncer.next_deadline) if t is not None), default=None)
            decide_at = recognizer.next_deadline
            # A deadline in the scan's instant (equal but for the float sums that made the two)
            # comes after the scan: what the scan shows changed before it, and the recognizer
            # decides with the change in hand.
            if decide_at is not None and decide_at < end and (scan_at is None or decide_at < scan_at - 1e-9):
                yield from recognizer.advance(decide_at)
                continue
            if scan_at is None or scan_at >= end:
                return
            scan_due = None
            clock.now = scan_at
            before = debouncer.stable
            debouncer = debouncer.update(scanner.scan(), scan_at)
            if debouncer.stable != before:
                yield from recognizer.update(scan_at, debouncer.stable)

    for event in events:
        t = float(event["t"])
        yield from until(t)
        if "on" in event:
            mat.place(parse_square(event["on"]))
        elif "off" in event:
            mat.lift(parse_square(event["off"]))
        elif "button" in event:
            if recorder is not None:
                recorder.button(t, event["button"])
            yield from recognizer.button(t, event["button"])
        elif "press" in event and (name := _labelled(recognizer, event["press"])) is not None:
            if recorder is not None:
                recorder.button(t, name)
            yield from recognizer.button(t, name)
        elif "input" in event or "press" in event:
            answer = event["input"] if "input" in event else event["press"]
            if recognizer.prompt is None:
                # The table answers the computer's question the moment it is asked; this
                # replay scans on its own grid, up to a period behind the live loop.
                yield from until(t + period)
            if not _sent(recognizer, answer):
                continue
            if recorder is not None:
                recorder.answer(t, answer["seat"], answer.get("card"),
                                takeback=bool(answer.get("takeback")), turn=answer.get("turn"))
            yield from recognizer.answer(t, answer["seat"], answer.get("card"),
                                         takeback=bool(answer.get("takeback")),
                                         turn=answer.get("turn"))
        if "on" in event or "off" in event:
            if scan_due is None:
                # The next scan on the loop's steady grid (an event on a scan time is seen by it).
                scan_due = math.ceil(t / period - 1e-9) * period
        if event.get("end"):
            yield from until(t)
            yield from recognizer.advance(t)
            if recorder is not None:
                recorder.close(t)
            return
    yield from until(math.inf)


def _labelled(recognizer: Recognizer, press: dict[str, object]) -> str | None:
    """The button the shown prompt labels with what a ``press`` means (its card, or the
    takeback): a player reads the OLED and presses that button. None if the prompt shows no
    such button (no prompt, or the card shown bare): the player answers on the phone."""
    prompt = recognizer.prompt
    meant = "takeback" if press.get("takeback") else press.get("card")
    if prompt is None or not isinstance(meant, str):
        return None
    return prompt.get("buttons", {}).get(meant)


def _sent(recognizer: Recognizer, answer: dict) -> bool:
    """Does the table pass this phone answer on (``table.answers.checked`` asks the same
    ``reaches``)? A trace's input is what the player tapped, not what the table let through."""
    return reaches(recognizer, answer.get("turn"), answer["seat"], answer.get("card"),
                   takeback=bool(answer.get("takeback")))


@overload
def _setting(given: float | None, header: dict, key: str, default: float) -> float: ...
@overload
def _setting(given: float | None, header: dict, key: str, default: None) -> float | None: ...
def _setting(given: float | None, header: dict, key: str, default: float | None) -> float | None:
    if given is not None:
        return given
    value = header.get(key, default)
    if value is not None and (not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0):
        raise TraceError(f"the trace's {key} must be a positive number, not {value!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onitama-companion trace",
                                     description="Replay a mat trace (docs/traces.md) through the "
                                     "mat's scanner, debounce and move recognizer on a simulated "
                                     "clock, and print what the companion understood as JSON Lines.")
    parser.add_argument("file", help="the trace, JSON Lines ('-' for standard input)")
    parser.add_argument("--settle", type=float,
                        help=f"seconds at rest before a move is accepted (default: the trace's "
                             f"own setting, else {SETTLE_S}; at most {MAX_SETTLE_S})")
    parser.add_argument("--scan-hz", type=float,
                        help="scan rate (default: the trace's own setting, else the pin map's)")
    parser.add_argument("--debounce-ms", type=float,
                        help="switch debounce (default: the trace's own setting, else the pin map's)")
    parser.add_argument("--pinmap", help="a pin map TOML file (default: the shipped one)")
    args = parser.parse_args(argv)
    if args.file == "-":
        header, events = parse_trace(sys.stdin)
    else:
        try:
            with open(args.file, encoding="utf-8") as fh:
                header, events = parse_trace(fh)
        except OSError as exc:
            raise TraceError(f"{args.file}: cannot read ({exc.strerror})") from None
    try:
        pinmap = load_pinmap(args.pinmap) if args.pinmap else None
    except PinMapError as exc:
        raise TraceError(str(exc)) from None
    # A trace the companion recorded carries the live mat's settings: replay with them.
    settle = _setting(args.settle, header, "settle", SETTLE_S)
    if not 0 < settle <= MAX_SETTLE_S:
        raise TraceError(f"the settle time must be above 0 and at most {MAX_SETTLE_S} s")
    scan_hz = _setting(args.scan_hz, header, "scan_hz", None)
    debounce_ms = _setting(args.debounce_ms, header, "debounce_ms", None)
    debounce = None if debounce_ms is None else debounce_ms / 1000
    for decided in replay(header, events, settle=settle, pinmap=pinmap,
                          scan_hz=scan_hz, debounce_s=debounce):
        print(json.dumps(decided))
    return 0

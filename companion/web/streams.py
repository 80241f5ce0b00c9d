"""Server-Sent Event streams of the companion's views.

A stream sends ``view`` events (the audience's view, in full on connecting, then after every
change with the move log as the turns since the last event: see :func:`since`) and, polled, ``watch`` events for things the views do not carry: the simulated
hardware, and a key of the OLED picture (the OLED worker draws a screen shortly after the view
that asked for it, so the pages refetch the picture when its key changes, not on a guess).

Each open stream holds one waitress thread for as long as the page is open, so streams wake
up at least every ``POLL_S`` to notice the server stopping (``Streams.stop``) or the
companion closing, and end by themselves. A comment line every ``HEARTBEAT_S`` keeps
waitress's idle-channel timeout from closing a quiet stream, and shows a dead client up as a
failed write.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping

from flask import Response

HEARTBEAT_S = 15.0
POLL_S = 0.5         # the slowest a stream polls (the public page's OLED picture)
SIM_PERIOD_S = 0.05  # the simulated hardware is sent at most 20 times a second
RETRY_MS = 2000      # how soon a browser reconnects after the stream drops


def event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def since(held: list[str] | None, view: dict) -> tuple[dict, list[str] | None]:
    """``view`` as sent to a page that holds the move log ``held`` (None: the page holds
    none, so it gets the whole view), and the log the page holds after it.

    The log is most of a long game's view (14 kB at turn 1000), and all but the newest turn
    is already on the page: the table's ``log`` is replaced by ``log_since: {"from": n,
    "turns": [...]}``, the page keeping its first ``n`` turns and adding ``turns`` (a
    takeback sends ``n`` one less and no turn)."""
    table = view.get("table")
    if not isinstance(table, dict) or "log" not in table:
        return view, None
    log = table["log"]
    if held is None:
        return view, log
    n = 0
    for a, b in zip(held, log):
        if a != b:
            break
        n += 1
    rest = {k: v for k, v in table.items() if k != "log"}
    return {**view, "table": {**rest, "log_since": {"from": n, "turns": log[n:]}}}, log


def oled_key(companion) -> str:
    """Changes whenever the OLED shows another picture (a 1-bit 128x64 PNG is ~1 kB)."""
    return hashlib.blake2b(companion.oled_png(), digest_size=8).hexdigest()


class Streams:
    """The streams of one app: stopped all at once when the server shuts down."""

    def __init__(self) -> None:
        self._stopping = threading.Event()

    def stop(self) -> None:
        self._stopping.set()

    def response(self, events: Iterator[str]) -> Response:
        def with_retry() -> Iterator[str]:
            yield f"retry: {RETRY_MS}\n\n"
            yield from events

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Response(with_retry(), mimetype="text/event-stream", headers=headers)

    def views(self, companion, seat: str | None, watch: Mapping[str, Callable[[], object]],
              period: float = POLL_S) -> Iterator[str]:
        """The seat's view now and after every change, and each ``watch`` function's value
        now and whenever it differs from the last one sent (polled every ``period``)."""
        subscription = companion.subscribe(seat)
        try:
            # Subscribed before the snapshot, so no change can fall between the two. The
            # snapshot is whole (a page connecting or reconnecting holds nothing yet).
            first, held = since(None, companion.view(seat))
            yield event("view", first)
            last = {name: poll() for name, poll in watch.items()}
            for name, value in last.items():
                yield event(name, value)
            last_sent = time.monotonic()
            while not self._stopping.is_set() and not _closed(companion):
                view = subscription.get(timeout=period)
                if view is not None:
                    sent, held = since(held, view)
                    yield event("view", sent)
                    last_sent = time.monotonic()
                for name, poll in watch.items():
                    value = poll()
                    if value != last[name]:
                        last[name] = value
                        yield event(name, value)
                        last_sent = time.monotonic()
                if time.monotonic() - last_sent >= HEARTBEAT_S:
                    yield ": heartbeat\n\n"
                    last_sent = time.monotonic()
        finally:
            subscription.close()


def _closed(companion) -> bool:
    # True once the companion has closed (``Companion.closed``); a companion without the flag
    # is only ever stopped after the server, whose stop ends the streams anyway.
    return bool(getattr(companion, "closed", False))

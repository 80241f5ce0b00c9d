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

Streams are capped, so that they never take the workers the seats need (see server.py): the
public pages share ``MAX_SHARED`` streams, answered 503 with ``Retry-After`` beyond it; the
simulation page (the table itself, see guard.py) has ``MAX_TABLE`` of its own; each seat keeps ``PER_SEAT`` streams of its own, and a newer one ends its oldest (a
phone whose network dropped reconnects before its old stream has noticed).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask import Response, has_request_context, request

from companion.table.viewtypes import View

HEARTBEAT_S = 15.0
POLL_S = 0.5         # the slowest a stream polls (the public page's OLED picture)
SIM_PERIOD_S = 0.05  # the simulated hardware is sent at most 20 times a second
RETRY_MS = 2000      # how soon a browser reconnects after the stream drops
MAX_SHARED = 8       # public streams, all clients together
MAX_TABLE = 4        # the simulation page's streams
PER_SEAT = 2         # streams of one seat at once
FULL_RETRY_S = 10    # the retry hint of a refused stream


def event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


# The lists of a view that grow by a turn at a time: the move log and the moves in words.
GROWING = ("log", "moves")


def since(held: dict[str, list[Any]] | None, view: View
          ) -> tuple[View, dict[str, list[Any]] | None]:
    """``view`` as sent to a page that holds the lists ``held`` (None: the page holds none,
    so it gets the whole view), and the lists the page holds after it.

    The move log, and the same moves in players' words, are most of a long game's view
    (14 kB of log at turn 1000), and all but the newest turn is already on the page: each
    such list ``key`` of the table is replaced by ``<key>_since: {"from": n, "turns": [...]}``,
    the page keeping its first ``n`` entries and adding ``turns`` (a takeback sends ``n`` one
    less and no turn)."""
    table = view.get("table")
    if not isinstance(table, dict) or "log" not in table:
        return view, None
    lists = {key: table[key] for key in GROWING if isinstance(table.get(key), list)}
    if held is None:
        return view, lists
    out = {k: v for k, v in table.items() if k not in lists}
    for key, now in lists.items():
        before = held.get(key, [])
        n = 0
        for a, b in zip(before, now):
            if a != b:
                break
            n += 1
        out[f"{key}_since"] = {"from": n, "turns": now[n:]}
    return {**view, "table": out}, lists


def oled_key(companion) -> str:
    """Changes whenever the OLED shows another picture (a 1-bit 128x64 PNG is ~1 kB)."""
    return hashlib.blake2b(companion.oled_png(), digest_size=8).hexdigest()


class StreamsFull(Exception):
    """No stream slot is free for this audience; the client should retry later."""

    retry_after = FULL_RETRY_S


class Streams:
    """The streams of one app: capped per audience, stopped all at once when the server
    shuts down."""

    def __init__(self, max_shared: int = MAX_SHARED, per_seat: int = PER_SEAT,
                 max_table: int = MAX_TABLE) -> None:
        self._stopping = threading.Event()
        self._caps = {"shared": max_shared, "table": max_table}
        self._per_seat = per_seat
        self._lock = threading.Lock()
        self._pools = {"shared": 0, "table": 0}
        self._seats: dict[str, list[threading.Event]] = {}

    def stop(self) -> None:
        self._stopping.set()

    def _admit(self, seat: str | None) -> tuple[threading.Event, Callable[[], None]]:
        """A slot for a new stream of ``seat``: (its own stop event, its release)."""
        ended = threading.Event()
        # Only the table may open the simulation's streams (guard.py): a pool of their own.
        pool = "table" if has_request_context() and request.blueprint == "sim" else "shared"
        with self._lock:
            if seat is None:
                if self._pools[pool] >= self._caps[pool]:
                    raise StreamsFull(f"too many open streams (at most {self._caps[pool]}); "
                                      "try again shortly")
                self._pools[pool] += 1
            else:
                held = self._seats.setdefault(seat, [])
                held.append(ended)
                while len(held) > self._per_seat:
                    held.pop(0).set()      # the oldest of this seat's streams ends
        released = threading.Event()

        def release() -> None:
            with self._lock:
                if released.is_set():
                    return
                released.set()
                if seat is None:
                    self._pools[pool] -= 1
                elif ended in self._seats.get(seat, []):
                    self._seats[seat].remove(ended)
        return ended, release

    def open_count(self) -> dict[str, int]:
        """Streams open now: the public pool, the table's, and each seat's."""
        with self._lock:
            return {**self._pools, **{s: len(v) for s, v in self._seats.items()}}

    def response(self, events: Iterator[str]) -> Response:
        def with_retry() -> Iterator[str]:
            yield f"retry: {RETRY_MS}\n\n"
            yield from events

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Response(with_retry(), mimetype="text/event-stream", headers=headers)

    def views(self, companion, seat: str | None, watch: Mapping[str, Callable[[], object]],
              period: float = POLL_S) -> Iterator[str]:
        """The seat's view now and after every change, and each ``watch`` function's value
        now and whenever it differs from the last one sent (polled every ``period``).

        Takes the stream's slot at once: raises :class:`StreamsFull` when there is none."""
        ended, release = self._admit(seat)
        stream = self._views(companion, seat, watch, period, ended, release)
        # A stream never started (its response was never sent) gives its slot back too.
        weakref.finalize(stream, release)
        return stream

    def _views(self, companion, seat, watch, period, ended, release) -> Iterator[str]:
        try:
            subscription = companion.subscribe(seat)
        except BaseException:
            release()
            raise
        try:
            # Subscribed first, and the snapshot is the subscription's own first view: no
            # change can fall between the two, and the snapshot is not sent again. It is
            # whole (a page connecting or reconnecting holds nothing yet).
            first, held = since(None, subscription.get(timeout=0) or companion.view(seat))
            yield event("view", first)
            last = {name: poll() for name, poll in watch.items()}
            for name, value in last.items():
                yield event(name, value)
            last_sent = time.monotonic()
            while not (self._stopping.is_set() or ended.is_set() or _closed(companion)):
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
            release()

def _closed(companion) -> bool:
    # True once the companion has closed (``Companion.closed``); a companion without the flag
    # is only ever stopped after the server, whose stop ends the streams anyway.
    return bool(getattr(companion, "closed", False))

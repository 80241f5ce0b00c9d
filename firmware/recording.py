"""Waiting on a simulated device's record of what it was asked to show (the LED strip's
frames, the OLED's pictures), for tests, the self-test and benchmarks."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_recorded(written: threading.Condition, count: Callable[[], int], latest: Callable[[], T],
                  newest: Callable[[int], list[T]], predicate: Callable[[T], bool],
                  timeout: float) -> T | None:
    """The first item showing now, or recorded within ``timeout``, that satisfies ``predicate``
    (None on timeout). ``written`` is notified on every record; ``count`` says how many were
    ever made and ``newest(n)`` returns the last ``n``, so no write between two wake-ups is
    missed. The condition's lock must be reentrant (the default ``Condition`` lock is)."""
    deadline = time.monotonic() + timeout
    with written:
        item = latest()
        if predicate(item):
            return item
        seen = count()
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            written.wait(remaining)
            now = count()
            for item in newest(now - seen) if now > seen else ():
                if predicate(item):
                    return item
            seen = now

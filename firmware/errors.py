"""What the hardware layer raises on purpose, under one root, and the bounded wait for one of
its threads to stop.

``FirmwareError`` is the root: a pin map that cannot drive the hardware (``PinMapError``), a
board that cannot drive a back-end (``UnsupportedBoard``), a display that does not answer
(``OledError``), bytes a simulated chain would misread (``SpiProtocolError``), a thread that
does not stop (``ThreadStuck``). Each keeps the built-in base it had (``ValueError``,
``RuntimeError``), so callers that catch those still do. A failed transfer stays an
``OSError``, the contract between a device's thread and its bus.
"""

from __future__ import annotations

import threading

# Every firmware thread waits on a condition or an event and wakes at once when told to stop;
# a bus transfer takes a few ms. Two seconds is long past that, short enough for a shutdown.
JOIN_TIMEOUT_S = 2.0


class FirmwareError(Exception):
    """The root of the hardware layer's own errors."""


class ThreadStuck(FirmwareError, RuntimeError):
    """A device's thread did not stop in time (blocked in a driver or on a bus). The device is
    left as it is: the thread still holds it."""


def join_thread(thread: threading.Thread, timeout: float | None = None) -> None:
    """Wait for ``thread`` to end, at most ``timeout`` seconds (``JOIN_TIMEOUT_S`` unless
    told): raises ``ThreadStuck`` naming it if it is still running."""
    limit = JOIN_TIMEOUT_S if timeout is None else timeout
    thread.join(limit)
    if thread.is_alive():
        raise ThreadStuck(f"the {thread.name} thread did not stop within {limit:g} s")

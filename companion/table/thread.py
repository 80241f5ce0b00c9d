"""The game thread: one thread runs everything that reads or changes the game, one event at a
time, so a check and the action it guards can never be split by another request.

Other threads hand it work: ``post`` (the scan loop, the buttons: nobody waits) or ``call``
(the web handlers: the caller waits for the result, or the exception, raised in its thread).
After every event, and whenever ``timeout()`` runs out, it calls ``tick()`` (the recognizer's
clock, then publishing), then runs the cyclic collector's pass if one is due (:mod:`.collector`:
between the recognizer's calls, not inside them, once the service has taken the collector over).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from .collector import collect_due
from .errors import REFUSALS, Busy
from .logwords import bug, public_words

log = logging.getLogger(__name__)
T = TypeVar("T")
_STOP = object()


class GameThread:
    def __init__(self, tick: Callable[[], None], timeout: Callable[[], float],
                 answered: Callable[[], None]):
        self._tick = tick
        self._timeout = timeout
        self._answered = answered          # before a call returns: publish what it did
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="game", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()

    def post(self, work: Callable[[], object]) -> None:
        """Run ``work`` on the game thread; nobody waits for it."""
        self._queue.put(work)

    def call(self, work: Callable[[], T], timeout: float = 5.0) -> T:
        """Run ``work`` on the game thread and return its result (or raise its exception).

        After ``timeout`` the caller is told the companion is busy, and then ``work`` never
        runs: the caller has given up on it (a phone shows "not done"), so doing it later
        would be an action nobody confirmed. Cancelling and starting are atomic (the
        future's own lock): work already started is waited for and answered instead."""
        future: Future[T] = Future()
        self._queue.put((work, future))
        try:
            return future.result(timeout)
        except TimeoutError:
            if future.cancel():
                raise Busy("the companion is busy; try again") from None
        return future.result()

    def _run(self) -> None:
        while True:
            try:
                item = self._queue.get(timeout=self._timeout())
            except queue.Empty:
                item = None
            if item is _STOP:
                return
            try:
                if isinstance(item, tuple):
                    self._answer(*item)
                elif item is not None:
                    item()  # type: ignore[operator]
                self._tick()
                collect_due()
            except REFUSALS as exc:
                # A refusal of something done at the mat (the outputs say why): not a bug.
                log.warning("game thread: %s", public_words(exc))
            except Exception as exc:
                # Keep the table alive: log the bug and go on with the next event.
                bug(log, "game thread: an event", exc)

    def _answer(self, work: Callable[[], object], future: Future[object]) -> None:
        if not future.set_running_or_notify_cancel():
            return          # its caller gave up waiting: it must not happen now
        try:
            result = work()
        except REFUSALS as exc:
            # A refusal changes nothing in the game, but the views may say why (an action the
            # disk refused: "Cannot save"): they show it too once the caller has the answer.
            self._answered()
            future.set_exception(exc)
        except Exception as exc:
            # A bug: fail this request now (the caller sees the error) rather than let it
            # wait for a result that will never come; the game thread goes on.
            bug(log, "a request", exc)
            future.set_exception(exc)
        else:
            # Publish before answering: once a request returns, every view shows it.
            self._answered()
            future.set_result(result)

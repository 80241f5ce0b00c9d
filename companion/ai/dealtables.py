"""The exact endgames of the game being played: built once at the deal, on a thread of
their own, then used by every search and hint of that game.

One table is kept at a time (about 25 MB for four pieces, 440 MB for five): starting the
next game's drops the last one, and cancels it if it is still being built; the 512 MB boards
build none, the boards with 8 GB or more five pieces after four
(``memory.MemoryBudget.endgame_pieces``). The build runs in the native core
with the GIL released, so the game thread and the web server go on; a search made before the
table is ready plays without it. Without the native core there is no table (the Python
solver would take hours at this size): :meth:`DealTables.start` says so by returning False.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from companion.rules.cards import CardTable

from . import endgame
from .memory import budget
from .native.searcher import available

log = logging.getLogger(__name__)

# A deal's cards' names, sorted, then (when a table covers them) their step masks.
DealKey = tuple[str | int, ...]


def deal_key(cards: Iterable[str], table: CardTable) -> DealKey:
    """Which table a deal needs: its cards' names in order, with their steps (a custom card
    file may give a name other steps)."""
    names = tuple(sorted(set(cards)))
    return names + tuple(endgame.reach(names, table)) if endgame.covered(names, table) else names


class DealTables:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: DealKey | None = None
        self._table: endgame.Endgames | None = None
        self._handle: Any = None            # the core's table while it is being built
        self._started = 0.0
        self._failed: DealKey | None = None

    def start(self, cards: Iterable[str], table: CardTable) -> bool:
        """Build the table of this deal (five plain cards) unless it is built or being built.
        False: no table for it (not five plain cards, no native core, or a board with too
        little memory)."""
        names = tuple(sorted(set(cards)))
        if not budget().endgames or len(names) != 5 or not endgame.covered(names, table) or not available():
            return False
        key = deal_key(names, table)
        with self._lock:
            if self._key == key:
                return True
            if self._handle is not None:
                endgame.cancel(self._handle)
            self._key, self._table, self._handle = key, None, None
            self._started = time.monotonic()
        # Four pieces first, in seconds; a larger table (where the budget asks for one, a
        # minute or more) replaces it when it is built.
        students = [2] if budget().endgame_pieces <= 4 else [2, budget().endgame_pieces - 2]
        threading.Thread(target=self._build, args=(key, names, table, students), name="endgames",
                         daemon=True).start()
        return True

    def _build(self, key: DealKey, names: tuple[str, ...], table: CardTable, students: list[int]) -> None:
        def started(handle: Any) -> None:
            with self._lock:
                if self._key == key:
                    self._handle = handle
                else:
                    endgame.cancel(handle)

        for k in students:
            try:
                built = endgame.solve(names, table, students=k, started=started)
            except (RuntimeError, MemoryError) as exc:
                if "cancelled" not in str(exc):
                    log.error("no %d-piece endgame table for %s: %s", k + 2, ", ".join(names), exc)
                with self._lock:
                    if self._key == key:
                        self._handle = None
                        if self._table is None:
                            self._failed = key
                return
            with self._lock:
                if self._key != key:
                    return
                self._table, self._handle = built, None
                log.info("%d-piece endgame table for %s in %.1f s", k + 2, ", ".join(names),
                         time.monotonic() - self._started)

    def ready(self, cards: Iterable[str], table: CardTable) -> endgame.Endgames | None:
        """The table of this deal when it is built."""
        with self._lock:
            found = self._table
            if found is None or self._key != deal_key(cards, table):
                return None
            return found

    def building(self) -> tuple[float, int] | None:
        """(seconds since the build started, percent of the positions solved) while a table
        is being built; None otherwise."""
        with self._lock:
            if self._table is not None or self._key is None or self._failed == self._key:
                return None
            handle, started = self._handle, self._started
        percent = 0 if handle is None else endgame.percent(handle)
        return time.monotonic() - started, percent

    def wait(self, timeout: float) -> bool:
        """Wait until the table being built is ready (tests, benchmarks)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if self._table is not None:
                    return True
                if self._key is None or self._failed == self._key:
                    return False
            time.sleep(0.05)
        return False


# The service's one table: started by the game thread at the deal, read by the thinker.
TABLES = DealTables()

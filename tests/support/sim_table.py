"""The companion on simulated hardware, started, with its save file: the one fixture every
test folder that needs a running table uses (table, web, phones, disk, browser, the robot
and its benchmark). The one exception is the crash test's driver (tests/table/
crash_driver.py): a process killed with kill -9 twenty times a run, it builds its own so
that each start does not import pytest."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.table.service import Companion
from companion.table.store import GameStore
from firmware.hardware import Hardware, make_hardware


@dataclass
class SimTable:
    companion: Companion
    hardware: Hardware
    db: Path                 # the save file


@contextmanager
def sim_companion(db: Path, *, public_url: str | None = "http://table.example:8000",
                  before_start: Callable[[Companion], object] | None = None,
                  seen_as: Callable[[Hardware], Hardware] | None = None,
                  store: GameStore | None = None,
                  **options: object) -> Iterator[SimTable]:
    """A companion on simulated hardware saving to ``db``, started; closed in order after.
    ``before_start`` runs once it is built (a test server sets ``public_url`` there);
    ``seen_as`` changes what the service is given (no simulated hands: a Pi, say); ``store``
    is a save file opened by the test (over a failing disk, say), closed here too."""
    hardware = make_hardware("sim")
    store = store or GameStore(db)
    given = hardware if seen_as is None else seen_as(hardware)
    companion = Companion(given, store, public_url=public_url,
                          **{"settle": 0.2, **options})  # type: ignore[arg-type]
    try:
        if before_start is not None:
            before_start(companion)
        companion.start()
        yield SimTable(companion, hardware, db)
    finally:
        companion.close()
        hardware.close()
        store.close()


@pytest.fixture
def sim_table(tmp_path: Path) -> Iterator[SimTable]:
    with sim_companion(tmp_path / "games.db") as table:
        yield table

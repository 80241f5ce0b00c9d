import time

import pytest

from companion.service import Companion
from companion.store import GameStore
from firmware.hardware import make_hardware

FIXED = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
START = frozenset(list(range(5)) + list(range(20, 25)))


def wait_for(pred, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("condition not reached in time")


@pytest.fixture
def table(tmp_path):
    """A started companion on simulated hardware; yields (companion, hardware, store path)."""
    hw = make_hardware("sim")
    store = GameStore(tmp_path / "games.db")
    companion = Companion(hw, store, settle=0.2)
    companion.start()
    yield companion, hw, tmp_path / "games.db"
    companion.close()
    hw.close()
    store.close()

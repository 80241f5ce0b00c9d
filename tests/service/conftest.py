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


def playing(companion, hw, cards=FIXED):
    """A new base game with ``cards``, its pawns set up on the mat, ready for the first move."""
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": cards})
    hw.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")


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

import pytest

from companion.table.service import Companion
from companion.table.store import GameStore
from firmware.hardware import make_hardware


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

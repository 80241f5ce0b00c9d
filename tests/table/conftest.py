import pytest

from sim_table import sim_companion


@pytest.fixture
def table(tmp_path):
    """A started companion on simulated hardware; yields (companion, hardware, store path)."""
    with sim_companion(tmp_path / "games.db", public_url=None) as t:
        yield t.companion, t.hardware, t.db

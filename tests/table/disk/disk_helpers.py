"""Helpers of the disk tests (a unique module name: several test folders have helpers)."""

import os
from contextlib import contextmanager
from pathlib import Path

from companion.table.store import GameStore
from companion.web import create_app
from sim_table import sim_companion

START = "bbBbb/5/5/5/rrRrr red Tiger,Crane Frog,Ox Dragon"


def base_header(**extra) -> dict:
    return {"variant": "base", "sets": ["base"], "wind_cards": 2, "seed": 1, "start": START,
            "fixed": True, **extra}


def fill(folder: Path) -> Path:
    """Fill the disk under ``folder``; returns the filler file (remove it to free space)."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"x" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


@contextmanager
def table(path, store: GameStore | None = None):
    """A started companion on simulated hardware over the save file ``path`` (or ``store``),
    and a test client of its web app."""
    with sim_companion(path, public_url=None, store=store) as t:
        yield t.companion, create_app(t.companion, secret_key=b"test").test_client()

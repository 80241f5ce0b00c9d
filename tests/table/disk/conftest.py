import os
import subprocess
from pathlib import Path

import pytest
from disk_helpers import base_header

from companion.table.store import GameStore


@pytest.fixture
def saved(tmp_path) -> Path:
    """A save file with a finished game and an unfinished one (two moves), closed cleanly."""
    path = tmp_path / "state" / "games.db"
    path.parent.mkdir()
    store = GameStore(path)
    done = store.new_game(base_header())
    store.append(done, 0, "Tiger c1c3", "red")
    store.finish(done, {"winner": None, "how": "abandoned"})
    playing = store.new_game(base_header())
    store.append(playing, 0, "Tiger c1c3", "red")
    store.append(playing, 1, "Ox b5b4", "blue")
    store.close()
    return path


@pytest.fixture
def small_disk(tmp_path):
    """A real 512 kB tmpfs (as the issue's runs used), where this machine lets us mount one."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs",
                                            str(mount)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root); the fault-injecting store "
                    "tests cover the same paths")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)

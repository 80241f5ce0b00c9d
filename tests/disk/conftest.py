import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from companion.table.store import GameStore

START = "bbBbb/5/5/5/rrRrr red Tiger,Crane Frog,Ox Dragon"


def base_header(**extra) -> dict:
    return {"variant": "base", "sets": ["base"], "wind_cards": 2, "seed": 1, "start": START,
            "fixed": True, **extra}


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

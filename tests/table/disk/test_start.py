"""A failing disk at start is waited out and never taken for damage; only a file SQLite
rejects is kept aside (issue 14: an intact games.db was renamed and 0 games came back)."""

import stat
import threading
from pathlib import Path

from disk_faults import Disk
from disk_helpers import base_header, fill

from companion.table.store import GameStore, StorageFull, StoreUnavailable, open_store


def full_after_a_clean_close(disk: Path) -> tuple[Path, int, Path]:
    """A game with one move saved on ``disk`` and closed cleanly, then the disk filled:
    (the save file, the game's id, the filler file to remove to free space)."""
    path = disk / "games.db"
    store = GameStore(path)
    gid = store.new_game(base_header())
    store.append(gid, 0, "Tiger c1c3", "red")
    store.close()
    return path, gid, fill(disk)


def test_an_io_error_at_start_is_retried_and_reported_and_the_file_kept(saved):
    disk, reports = Disk(), []
    disk.failed_opens = 3
    store = open_store(saved, connect=disk.connect, first_wait=0.01, report=reports.append)
    assert disk.opens == 4 and len(reports) == 3
    assert all("disk I/O error" in r and "trying again" in r for r in reports)
    assert sorted(p.name for p in saved.parent.iterdir() if "damaged" in p.name) == []
    # Every game is still there, and the unfinished one resumes.
    assert [g["id"] for g in store.games()] == [2, 1]
    assert [a.action for a in store.unfinished().actions] == ["Tiger c1c3", "Ox b5b4"]
    store.close()


def test_a_disk_that_stays_full_is_waited_on_until_the_service_stops(saved):
    disk, stop, reports = Disk(), threading.Event(), []
    disk.failed_opens = 10**9

    def report(message):
        reports.append(message)
        if len(reports) == 3:
            stop.set()
    assert open_store(saved, connect=disk.connect, stop=stop, first_wait=0.01,
                      report=report) is None
    assert len(reports) == 3 and saved.exists()
    assert not [p for p in saved.parent.iterdir() if "damaged" in p.name]


def test_only_a_file_sqlite_rejects_is_kept_aside(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database" * 100)
    reports = []
    store = open_store(path, report=reports.append)
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("games.db.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"this is not a database" * 100
    assert "damaged" in reports[0] and str(kept[0]) in reports[0]
    assert store.games() == []


def test_a_real_full_disk_at_start_after_a_clean_close(small_disk):
    """The issue's run: a 512 kB tmpfs, full when the service starts after a clean close."""
    path, _, filler = full_after_a_clean_close(small_disk)
    stop, reports = threading.Event(), []

    def report(message):
        reports.append(message)
        filler.unlink()          # space is freed while the service waits
    store = open_store(path, stop=stop, first_wait=0.01, report=report)
    assert reports and ("disk I/O error" in reports[0] or "full" in reports[0])
    assert [p.name for p in small_disk.iterdir() if "damaged" in p.name] == []
    assert [a.action for a in store.unfinished().actions] == ["Tiger c1c3"]
    store.close()


def test_a_write_on_a_full_disk_is_refused_and_changes_nothing(saved):
    disk = Disk()
    store = GameStore(saved, connect=disk.connect)
    disk.full = True
    try:
        store.append(2, 2, "Tiger a1a3", "red")
    except StorageFull as exc:
        assert "storage full" in str(exc)
    else:
        raise AssertionError("a write on a full disk went through")
    assert isinstance(StorageFull("x"), StoreUnavailable)
    assert len(store.game(2).actions) == 2
    disk.full = False            # space freed: the same write goes through
    store.append(2, 2, "Tiger a1a3", "red")
    assert len(store.game(2).actions) == 3


def test_sqlite_reports_a_full_file_as_storage_full(saved):
    # Not injected: SQLite's own SQLITE_FULL, from a file that may not grow any more.
    store = GameStore(saved)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")
    try:
        for seq in range(2, 400):
            store.append(2, seq, "x" * 2000, "red")
    except StorageFull:
        pass
    else:
        raise AssertionError("the file grew past its limit")
    n = len(store.game(2).actions)
    assert store.game(2).actions[-1].seq == n - 1


def test_saved_games_are_private(tmp_path):
    folder = tmp_path / "state"
    store = GameStore(folder / "games.db")
    store.new_game({"variant": "base", "start": "x"})
    for name in ("games.db", "games.db-wal", "games.db-shm"):
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    store.close()
    # A file left readable by an older version is made private on the next open.
    (folder / "games.db").chmod(0o644)
    folder.chmod(0o755)
    GameStore(folder / "games.db").close()
    assert stat.S_IMODE((folder / "games.db").stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_service_waits_out_a_full_disk_at_start_and_resumes(small_disk):
    """The issue's row end to end: ``onitama-companion sim`` on a full 512 kB tmpfs after a
    clean close. It renamed the intact games.db and exited 1; now it waits, says why, and
    once space is freed it starts with the game resumed."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    _, gid, filler = full_after_a_clean_close(small_disk)
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "sim", "--state", str(small_disk),
                             "--port", "0", "--no-browser"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        for line in proc.stderr:
            if "trying again" in line:
                break
        assert "disk I/O error" in line or "full" in line, line
        assert [p.name for p in small_disk.iterdir() if "damaged" in p.name] == []
        filler.unlink()
        url = None
        for line in proc.stdout:
            if line.startswith("table:"):
                url = line.split()[1]
            if line.startswith("ready"):
                break
        with urllib.request.urlopen(url + "api/view", timeout=10) as response:
            view = json.load(response)
        assert view["game"]["id"] == gid and view["table"]["log"] == ["Tiger c1c3"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from companion.table.store import GameStore, StoreError


def test_actions_are_kept_in_order(tmp_path):
    store = GameStore(tmp_path / "games.db")
    gid = store.new_game({"variant": "base", "start": "x"})
    for seq, move in enumerate(["Tiger c1c3", "Crane a5a4", "takeback"]):
        store.append(gid, seq, move, seat="red")
    saved = store.game(gid)
    assert [a.action for a in saved.actions] == ["Tiger c1c3", "Crane a5a4", "takeback"]
    assert store.unfinished().id == gid
    store.finish(gid, {"winner": "red", "how": "stone"})
    assert store.unfinished() is None
    assert store.games()[0]["actions"] == 3 and store.games()[0]["result"]["how"] == "stone"


def test_out_of_order_actions_are_refused_and_change_nothing(tmp_path):
    store = GameStore(tmp_path / "games.db")
    gid = store.new_game({})
    store.append(gid, 0, "a")
    for seq in (0, 2):
        with pytest.raises(StoreError, match="out of order"):
            store.append(gid, seq, "b")
    assert [a.action for a in store.game(gid).actions] == ["a"]


def test_a_corrupt_save_file_is_refused_clearly(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a usable save file"):
        GameStore(path)


def test_confirmed_actions_survive_kill_9(tmp_path):
    path = tmp_path / "games.db"
    # A child appends actions and reports each one once append() returned; we kill it
    # mid-stream and every reported action must be on disk.
    child = textwrap.dedent(f"""
        import sys
        from companion.table.store import GameStore
        store = GameStore({str(path)!r})
        gid = store.new_game({{}})
        seq = 0
        while True:
            store.append(gid, seq, f"move {{seq}}")
            print(seq, flush=True)
            seq += 1
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
    confirmed = [int(proc.stdout.readline()) for _ in range(50)]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    saved = GameStore(path).unfinished()
    assert len(saved.actions) >= len(confirmed)
    assert [a.action for a in saved.actions[:50]] == [f"move {i}" for i in confirmed]

import os
import sqlite3
import signal
import subprocess
import sys
import textwrap

import pytest

from companion.table.store import GameStore, StoreDamaged, StoreError

HEADER = {"variant": "base", "start": "x"}


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
    gid = store.new_game(HEADER)
    store.append(gid, 0, "a")
    for seq in (0, 2):
        with pytest.raises(StoreError, match="out of order"):
            store.append(gid, seq, "b")
    assert [a.action for a in store.game(gid).actions] == ["a"]


def test_a_corrupt_save_file_is_refused_clearly(tmp_path):
    path = tmp_path / "games.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreDamaged, match="the save file is damaged"):
        GameStore(path)


def test_confirmed_actions_survive_kill_9(tmp_path):
    path = tmp_path / "games.db"
    # A child appends actions and reports each one once append() returned; we kill it
    # mid-stream and every reported action must be on disk.
    child = textwrap.dedent(f"""
        import sys
        from companion.table.store import GameStore
        store = GameStore({str(path)!r})
        gid = store.new_game({HEADER!r})
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


def test_a_header_that_cannot_start_a_game_is_not_saved(tmp_path):
    store = GameStore(tmp_path / "games.db")
    for header in ({}, {"variant": "base"}, {"start": "x"}, {"variant": 1, "start": "x"}):
        with pytest.raises(ValueError, match="the header has no"):
            store.new_game(header)
    assert store.games() == []


def test_the_list_is_paged_newest_first_and_searched_by_mode_and_day(tmp_path):
    store = GameStore(tmp_path / "games.db")
    day = 86400.0
    ids = [store.new_game({"variant": ("base", "wind")[i % 2], "start": "x"}, created=1e9 + i * day / 4)
           for i in range(12)]
    assert [g["id"] for g in store.games(5)] == ids[:-6:-1]
    assert [g["id"] for g in store.games(5, before=ids[-5])] == ids[-6:-11:-1]
    assert [g["id"] for g in store.games(5, mode="wind")] == ids[-1:-10:-2]
    assert [g["id"] for g in store.games(50, date_from=1e9 + day, date_to=1e9 + 2 * day)] == ids[7:3:-1]
    assert [g["id"] for g in store.games(50, mode="base", before=ids[6])] == ids[4::-2]
    assert store.games(5, before=2**70) and store.games(5, before=-2**70) == []
    assert store.modes() == ["base", "wind"]
    plan = " ".join(r[-1] for r in store._db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE variant = 'wind' AND id < 9 ORDER BY id DESC LIMIT 5"))
    assert "games_by_variant" in plan


def test_a_file_from_before_the_list_search_is_upgraded_in_place(tmp_path):
    path = tmp_path / "games.db"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created REAL NOT NULL,
                            header TEXT NOT NULL, result TEXT);
        CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                              seat TEXT, action TEXT NOT NULL, at REAL NOT NULL,
                              PRIMARY KEY (game_id, seq));
        INSERT INTO games (created, header) VALUES (1.0, '{"variant": "wind", "start": "x"}');
        INSERT INTO games (created, header) VALUES (2.0, '{"variant": "base", "start": "x"}');
    """)
    db.close()
    store = GameStore(path)
    assert [g["id"] for g in store.games(mode="wind")] == [1]

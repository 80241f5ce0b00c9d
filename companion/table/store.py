"""Saved games: every confirmed action on disk before anyone is told it happened.

One SQLite file holds a row per game (its header as JSON) and an append-only log of the
game's actions in order. Nothing is ever rewritten: a takeback is an action of its own, so a
game is rebuilt by replaying its log. Each append is its own transaction with
``synchronous=FULL`` in WAL mode, so a confirmed action survives a kill -9 or a power cut.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    header TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat TEXT,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class StoreError(Exception):
    """The save file cannot be used (corrupt, from a newer version, or out of order)."""


@dataclass(frozen=True)
class SavedAction:
    seq: int
    seat: str | None
    action: str
    at: float


@dataclass(frozen=True)
class SavedGame:
    id: int
    created: float
    header: dict
    result: dict | None
    actions: tuple[SavedAction, ...]


class GameStore:
    """The save file. Safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"{self.path}: the save file is damaged ({check})")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: saved by a newer version (schema {row[0]})")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a usable save file ({exc})") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def new_game(self, header: dict) -> int:
        with self._lock:
            cur = self._db.execute("INSERT INTO games (created, header) VALUES (?, ?)",
                                   (time.time(), json.dumps(header)))
            assert cur.lastrowid is not None, "an INSERT sets it"
            return cur.lastrowid

    def append(self, game_id: int, seq: int, action: str, seat: str | None = None) -> None:
        """Write action number ``seq`` (0, 1, 2, ... per game); returns once it is on disk."""
        with self._lock:
            last = self._db.execute("SELECT MAX(seq) FROM actions WHERE game_id=?",
                                    (game_id,)).fetchone()[0]
            expected = 0 if last is None else last + 1
            if seq != expected:
                raise StoreError(f"game {game_id}: action {seq} out of order (next is {expected})")
            self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                             (game_id, seq, seat, action, time.time()))

    def finish(self, game_id: int, result: dict) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET result=? WHERE id=?", (json.dumps(result), game_id))

    def game(self, game_id: int) -> SavedGame:
        with self._lock:
            row = self._db.execute("SELECT id, created, header, result FROM games WHERE id=?",
                                   (game_id,)).fetchone()
            if row is None:
                raise KeyError(game_id)
            actions = self._db.execute(
                "SELECT seq, seat, action, at FROM actions WHERE game_id=? ORDER BY seq",
                (game_id,)).fetchall()
        return SavedGame(row[0], row[1], json.loads(row[2]),
                         json.loads(row[3]) if row[3] else None,
                         tuple(SavedAction(*a) for a in actions))

    def games(self) -> list[dict]:
        """The game list, newest first: id, created, header, result and the action count."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.header, g.result, COUNT(a.seq) FROM games g "
                "LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.id ORDER BY g.id DESC"
            ).fetchall()
        return [{"id": r[0], "created": r[1], "header": json.loads(r[2]),
                 "result": json.loads(r[3]) if r[3] else None, "actions": r[4]} for r in rows]

    def unfinished(self) -> SavedGame | None:
        """The newest game without a result: the one to resume after a restart."""
        with self._lock:
            row = self._db.execute("SELECT id FROM games WHERE result IS NULL "
                                   "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else self.game(row[0])

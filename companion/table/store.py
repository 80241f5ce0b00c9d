"""Saved games: every confirmed action on disk before anyone is told it happened.

One SQLite file holds a row per game (its header as JSON) and an append-only log of the
game's actions in order. Nothing is ever rewritten: a takeback is an action of its own, so a
game is rebuilt by replaying its log. Each append is its own transaction with
``synchronous=FULL`` in WAL mode, so a confirmed action survives a kill -9 or a power cut.
A failing disk and a damaged file are told apart (see :mod:`.saved`): a failure is retried
and never touches the file; only a file SQLite rejects is kept aside.

The folder is made 0700 and the file 0600 (SQLite gives its WAL and shared-memory files the
mode of the database): the save file holds every seat's hidden moves.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .saved import (DamagedGame, GameEntry, JsonDict, Row, SavedAction, SavedGame, StorageFull, StoreDamaged,
                    StoreError, StoreUnavailable, action_of, check_header, classify, entry_of, header_of,
                    json_of)

__all__ = ["DamagedGame", "GameStore", "SavedAction", "SavedGame", "StorageFull", "StoreDamaged",
           "StoreError", "StoreUnavailable", "check_header", "open_store"]

log = logging.getLogger(__name__)

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
CREATE TABLE IF NOT EXISTS hints (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    used INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""
# Added without a new schema number: an older companion reads and writes such a file as
# before (it leaves ``variant`` empty, and the next open fills it in from the header).
_INDEXES = """
CREATE INDEX IF NOT EXISTS games_by_variant ON games(variant, id);
CREATE INDEX IF NOT EXISTS games_by_created ON games(created);
"""
_FILL_VARIANT = ("UPDATE games SET variant = json_extract(header, '$.variant') "
                 "WHERE variant IS NULL AND json_valid(header) "
                 "AND json_type(header, '$.variant') = 'text'")

_SQLITE_INT = range(-2**63, 2**63)   # a game id outside this is no game of ours
PAGE = 50                            # games per page of the list


def _close_quietly(db: sqlite3.Connection | None) -> None:
    if db is not None:
        try:
            db.close()
        except sqlite3.Error:
            pass


def _private_file(path: Path) -> None:
    """Make ``path``'s folder 0700 and the file 0600 before SQLite opens it."""
    folder = path.parent
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) & 0o077:
        os.chmod(folder, 0o700)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if name.exists() and stat.S_IMODE(name.stat().st_mode) & 0o077:
            os.chmod(name, 0o600)


class GameStore:
    """The save file. Safe to share between threads (one connection behind a lock).

    ``connect`` opens the SQLite connection (tests pass one whose writes fail on demand)."""

    def __init__(self, path: str | Path, *, connect: Callable[..., sqlite3.Connection] = sqlite3.connect):
        self.path = Path(path)
        self._lock = threading.Lock()
        db: sqlite3.Connection | None = None
        try:
            _private_file(self.path)
            db = connect(self.path, check_same_thread=False, isolation_level=None)
            self._db = db
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            check = self._db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreDamaged(f"{self.path}: the save file is damaged ({check})")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif not row[0].isdigit() or int(row[0]) > SCHEMA_VERSION:
                raise StoreDamaged(f"{self.path}: saved by a newer version (schema {row[0]})")
            self._upgrade()
        except StoreError:
            _close_quietly(db)
            raise
        except (sqlite3.Error, OSError) as exc:
            _close_quietly(db)
            raise classify(exc, str(self.path)) from None

    def _upgrade(self) -> None:
        """Add the list's ``variant`` column and indexes, if this file predates them; writes
        nothing when they are there (a full disk at start must not stop a clean open)."""
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(games)")}
        if "variant" not in columns:
            self._db.execute("ALTER TABLE games ADD COLUMN variant TEXT")
        if self._db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type='index' AND name IN "
                            "('games_by_variant', 'games_by_created')").fetchone()[0] < 2:
            self._db.executescript(_INDEXES)
        if self._db.execute("SELECT 1 FROM games WHERE variant IS NULL AND json_valid(header) "
                            "AND json_type(header, '$.variant') = 'text' LIMIT 1").fetchone():
            self._db.execute(_FILL_VARIANT)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, what: str, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise classify(exc, what) from None

    def _read(self, what: str, sql: str, args: tuple[Any, ...] = ()) -> list[Row]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise classify(exc, what) from None

    # -- writing ---------------------------------------------------------------------------

    def new_game(self, header: JsonDict, created: float | None = None) -> int:
        problem = check_header(header)
        if problem:
            raise ValueError(problem)
        with self._lock:
            cur = self._write("a new game", "INSERT INTO games (created, header, variant) "
                              "VALUES (?, ?, ?)",
                              (time.time() if created is None else created, json.dumps(header),
                               header["variant"]))
            assert cur.lastrowid is not None, "an INSERT sets it"
            return cur.lastrowid

    def append(self, game_id: int, seq: int, action: str, seat: str | None = None) -> None:
        """Write action number ``seq`` (0, 1, 2, ... per game); returns once it is on disk.
        Raises :class:`StoreUnavailable` (nothing written) when the disk refuses it."""
        with self._lock:
            last = self._read(f"game {game_id}", "SELECT MAX(seq) FROM actions WHERE game_id=?",
                              (game_id,))[0][0]
            expected = 0 if last is None else last + 1
            if seq != expected:
                raise StoreError(f"game {game_id}: action {seq} out of order (next is {expected})")
            self._write(f"game {game_id}, action {seq}", "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                        (game_id, seq, seat, action, time.time()))

    def finish(self, game_id: int, result: JsonDict) -> None:
        with self._lock:
            self._write(f"game {game_id}'s result", "UPDATE games SET result=? WHERE id=?",
                        (json.dumps(result), game_id))

    def reopen(self, game_id: int) -> None:
        """Game ``game_id``'s result taken back (its winning turn amended on the mat)."""
        with self._lock:
            self._write(f"game {game_id}'s result", "UPDATE games SET result=NULL WHERE id=?",
                        (game_id,))

    def reseat(self, game_id: int, header: JsonDict) -> None:
        """Game ``game_id`` goes on with other players (a computer seat handed back to a
        person): its header, which says who plays each seat, kept so that a restart seats the
        same ones."""
        problem = check_header(header)
        if problem:
            raise ValueError(problem)
        with self._lock:
            self._write(f"game {game_id}'s seats", "UPDATE games SET header=? WHERE id=?",
                        (json.dumps(header), game_id))

    def note_hints(self, game_id: int, seat: str, used: int) -> None:
        """``seat`` has asked for ``used`` hints in game ``game_id``: kept, so that a restart
        does not give them back."""
        with self._lock:
            self._write(f"game {game_id}'s hints", "INSERT OR REPLACE INTO hints VALUES (?, ?, ?)",
                        (game_id, seat, used))

    def hints_used(self, game_id: int) -> dict[str, int]:
        with self._lock:
            rows = self._read(f"game {game_id}'s hints",
                              "SELECT seat, used FROM hints WHERE game_id=?", (game_id,))
        return {str(seat): int(used) for seat, used in rows}

    def set_aside(self, game_id: int, reason: str) -> None:
        """Mark an unfinished game that cannot be resumed, so that the table starts afresh
        and the list says why. Its header and actions stay as they were, for recovery."""
        self.finish(game_id, {"winner": None, "how": "set aside", "reason": reason})

    def add_game(self, created: float, header: JsonDict, result: JsonDict | None,
                 actions: list[tuple[str | None, str, float]]) -> int:
        """Write a whole game at once (a backup read back); all of it or nothing."""
        problem = check_header(header)
        if problem:
            raise ValueError(problem)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    gid = self._db.execute(
                        "INSERT INTO games (created, header, result, variant) VALUES (?, ?, ?, ?)",
                        (created, json.dumps(header), None if result is None else json.dumps(result),
                         header["variant"])).lastrowid
                    self._db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                         [(gid, seq, seat, action, at)
                                          for seq, (seat, action, at) in enumerate(actions)])
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise classify(exc, "an imported game") from None
        assert gid is not None, "an INSERT sets it"
        return gid

    # -- reading ---------------------------------------------------------------------------

    def has_game(self, created: float, header: JsonDict) -> bool:
        """Is a game started at ``created`` with this header saved already (a backup imported
        twice)?"""
        with self._lock:
            return bool(self._read("the game list", "SELECT 1 FROM games WHERE created=? AND header=?",
                                   (created, json.dumps(header))))

    def game(self, game_id: int) -> SavedGame:
        """Game ``game_id``: KeyError if there is none, :class:`DamagedGame` if its record
        cannot be read."""
        if not isinstance(game_id, int) or game_id not in _SQLITE_INT:
            raise KeyError(game_id)
        with self._lock:
            rows = self._read(f"game {game_id}",
                              "SELECT id, created, CAST(header AS BLOB), CAST(result AS BLOB) "
                              "FROM games WHERE id=?", (game_id,))
            if not rows:
                raise KeyError(game_id)
            actions = self._read(f"game {game_id}",
                                 "SELECT seq, CAST(seat AS BLOB), CAST(action AS BLOB), at "
                                 "FROM actions WHERE game_id=? ORDER BY seq", (game_id,))
        gid, created, header, result = rows[0]
        try:
            saved = SavedGame(gid, created, header_of(header), json_of(result, "the result"),
                              tuple(action_of(n, a) for n, a in enumerate(actions)))
        except ValueError as exc:
            raise DamagedGame(gid, str(exc)) from None
        return saved

    def games(self, limit: int = PAGE, *, before: int | None = None, mode: str | None = None,
              date_from: float | None = None, date_to: float | None = None) -> list[GameEntry]:
        """A page of the game list, newest first: at most ``limit`` games with an id below
        ``before``, of variant ``mode``, started in [``date_from``, ``date_to``) (epoch
        seconds). Each is ``{id, created, header, result, actions, damaged}``; a game whose
        record cannot be read has ``damaged`` (the reason) and what could be read."""
        where: list[str] = []
        args: list[object] = []
        if before is not None:
            where.append("id < ?")
            args.append(min(max(before, _SQLITE_INT.start), _SQLITE_INT.stop - 1))
        if mode is not None:
            where.append("variant = ?")
            args.append(mode)
        if date_from is not None:
            where.append("created >= ?")
            args.append(date_from)
        if date_to is not None:
            where.append("created < ?")
            args.append(date_to)
        sql = ("SELECT id, created, CAST(header AS BLOB), CAST(result AS BLOB) FROM games"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id DESC LIMIT ?")
        with self._lock:
            rows = self._read("the game list", sql, (*args, max(0, limit)))
            ids = [r[0] for r in rows]
            actions = self._read("the game list",
                                 "SELECT game_id, seq, CAST(seat AS BLOB), CAST(action AS BLOB), at "
                                 f"FROM actions WHERE game_id IN ({','.join('?' * len(ids))}) "
                                 "ORDER BY game_id, seq", tuple(ids)) if ids else []
        by_game: dict[int, list[Row]] = {}
        for row in actions:
            by_game.setdefault(row[0], []).append(row[1:])
        return [entry_of(r, by_game.get(r[0], [])) for r in rows]

    def modes(self) -> list[str]:
        """The variants saved games were played in, for the list's search."""
        with self._lock:
            return [r[0] for r in self._read("the game list", "SELECT DISTINCT variant FROM games "
                                             "WHERE variant IS NOT NULL ORDER BY variant")]

    def all_games(self) -> Iterator[SavedGame | DamagedGame]:
        """Every game, oldest first, read a few at a time (a backup of any size)."""
        last = 0
        while True:
            with self._lock:
                ids = [r[0] for r in self._read("the game list", "SELECT id FROM games WHERE id > ? "
                                                "ORDER BY id LIMIT 100", (last,))]
            if not ids:
                return
            for gid in ids:
                try:
                    yield self.game(gid)
                except DamagedGame as exc:
                    yield exc
            last = ids[-1]

    def unfinished(self) -> SavedGame | None:
        """The newest game without a result: the one to resume after a restart. If its record
        cannot be read it is set aside (see :meth:`set_aside`) and :class:`DamagedGame` is
        raised: the table starts afresh rather than not at all."""
        with self._lock:
            rows = self._read("the unfinished game", "SELECT id FROM games WHERE result IS NULL "
                              "ORDER BY id DESC LIMIT 1")
        if not rows:
            return None
        try:
            return self.game(rows[0][0])
        except DamagedGame as exc:
            log.error("%s; it is set aside and a new game can start", exc)
            try:
                self.set_aside(exc.game_id, exc.reason)
            except StoreUnavailable as failure:
                # Not marked this time (the disk refuses): it is refused again next start.
                log.error("%s", failure)
            raise


def open_store(path: str | Path, *, stop: threading.Event | None = None, first_wait: float = 1.0,
               max_wait: float = 30.0, report: Callable[[str], None] | None = None,
               connect: Callable[..., sqlite3.Connection] = sqlite3.connect) -> GameStore | None:
    """Open the save file for the service.

    A failing disk (full, an I/O error) is reported and retried, waiting longer each time up to
    ``max_wait``, until it works or ``stop`` is set (then None); the file is never touched.
    Only a file SQLite rejects as damaged is renamed ``games.db.damaged-<time>`` and replaced by
    a new one, loudly."""
    path = Path(path)
    wait = first_wait
    while True:
        try:
            return GameStore(path, connect=connect)
        except StoreDamaged as exc:
            kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            for suffix in ("", "-wal", "-shm"):
                part = path.with_name(path.name + suffix)
                if part.exists():
                    part.rename(kept.with_name(kept.name + suffix))
            message = f"{exc}; kept it as {kept} and started a new save file"
            log.error("%s", message)
            if report:
                report(message)
            return GameStore(path, connect=connect)
        except StoreUnavailable as exc:
            message = f"{exc}; trying again in {wait:g} s"
            log.error("%s", message)
            if report:
                report(message)
            if stop is not None and stop.wait(wait):
                return None
            if stop is None:
                time.sleep(wait)
            wait = min(max_wait, wait * 2)

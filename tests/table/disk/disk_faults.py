"""A save file whose disk fails on demand: SQLite's own errors, raised where a full disk or a
failing card would raise them, so that every test of a failure is deterministic."""

from __future__ import annotations

import sqlite3

SQLITE_IOERR, SQLITE_FULL = 10, 13
_WRITES = ("INSERT", "UPDATE", "DELETE", "BEGIN", "ALTER", "CREATE")


def sqlite_error(message: str, code: int) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code
    return exc


class Disk:
    """What the disk does now. ``failed_opens``: that many opens fail with an I/O error;
    ``full``: every write fails as on a full disk."""

    def __init__(self) -> None:
        self.failed_opens = 0
        self.full = False
        self.opens = 0

    def connect(self, *args, **kwargs) -> "FaultyConnection":
        self.opens += 1
        if self.failed_opens:
            self.failed_opens -= 1
            raise sqlite_error("disk I/O error", SQLITE_IOERR)
        return FaultyConnection(sqlite3.connect(*args, **kwargs), self)


class FaultyConnection:
    def __init__(self, db: sqlite3.Connection, disk: Disk):
        self._db = db
        self._disk = disk

    def _check(self, sql: str) -> None:
        if self._disk.full and sql.lstrip().upper().startswith(_WRITES):
            raise sqlite_error("database or disk is full", SQLITE_FULL)

    def execute(self, sql: str, args=()):
        self._check(sql)
        return self._db.execute(sql, args)

    def executemany(self, sql: str, rows):
        self._check(sql)
        return self._db.executemany(sql, rows)

    def __getattr__(self, name):
        return getattr(self._db, name)

"""What the save file holds, read defensively, and what can go wrong with it.

Two kinds of trouble are kept apart, because they call for opposite answers:

- the disk *fails* (full, an I/O error, a folder we may not write): :class:`StoreUnavailable`.
  The file is fine; the write is refused and nothing is confirmed; try again later. Never a
  reason to touch the file.
- the file is *damaged*: :class:`StoreDamaged` when SQLite itself rejects it (its integrity
  check, or "not a database"), and only then is it kept aside for recovery; or
  :class:`DamagedGame` when one game's record cannot be read (bad JSON, invalid UTF-8, a
  header without its start position): that game alone is listed as damaged, the others stay
  readable. The rows are read as bytes and decoded here, so that such damage is a reason
  with the game's id, never an exception from deep in SQLite or json.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from .errors import CompanionError

JsonDict = dict[str, Any]      # a header, a result: JSON objects as read back
Row = tuple[Any, ...]           # a row of the save file's tables


class GameEntry(TypedDict):
    """A game in the game list (``GameStore.games``): what could be read of it, and why not
    the rest (``damaged``)."""
    id: int
    created: float
    header: JsonDict | None
    result: JsonDict | None
    actions: int        # the saved rows
    damaged: str | None

# SQLite's primary result codes (the low byte of ``sqlite_errorcode``).
_SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_NOTADB = 11, 13, 26


class StoreError(CompanionError):
    """The save file cannot be used, or not now (under the project's one exception root)."""


class StoreDamaged(StoreError):
    """SQLite rejects the file itself (its integrity check, or not a database at all)."""


class StoreUnavailable(StoreError):
    """The disk failed (full, an I/O error, no permission): the file may be intact; nothing
    was written; the same call may work later. ``short`` is what the table says."""

    short = "disk error"


class StorageFull(StoreUnavailable):
    short = "storage full"


class DamagedGame(StoreError):
    """One game's record cannot be read; the rest of the file is fine."""

    def __init__(self, game_id: int, reason: str):
        super().__init__(f"game {game_id} is damaged: {reason}")
        self.game_id = game_id
        self.reason = reason


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
    header: JsonDict
    result: JsonDict | None
    actions: tuple[SavedAction, ...]


def classify(exc: BaseException, what: str) -> StoreError:
    """An exception from SQLite or the OS as damage or as a failure, worded for the table."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return StoreDamaged(f"{what}: the save file is damaged ({exc})")
    if primary == _SQLITE_FULL or getattr(exc, "errno", None) == 28:   # ENOSPC
        return StorageFull(f"{what}: storage full ({exc})")
    return StoreUnavailable(f"{what}: cannot use the save file ({exc})")


def text_of(raw: bytes | None, what: str) -> str | None:
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{what} is not valid UTF-8 text") from None


def json_of(raw: bytes | None, what: str) -> JsonDict | None:
    text = text_of(raw, what)
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{what} is not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def check_header(header: object) -> str | None:
    """Why ``header`` cannot start a game (None: it can). Every game is rebuilt from its
    variant and start position; nothing else in a header is required."""
    if not isinstance(header, dict):
        return "the header is not a JSON object"
    for key in ("variant", "start"):
        if not isinstance(header.get(key), str):
            return f"the header has no {key}"
    return None


def header_of(raw: bytes) -> JsonDict:
    header = json_of(raw, "the header")
    problem = check_header(header)
    if problem or header is None:
        raise ValueError(problem)
    return header


def action_of(n: int, row: Row) -> SavedAction:
    seq, seat, action, at = row
    if seq != n:
        raise ValueError(f"action {n} is missing")
    text = text_of(action, f"action {seq}")
    if not text:
        raise ValueError(f"action {seq} is empty")
    return SavedAction(seq, text_of(seat, f"action {seq}'s seat"), text, at)



def entry_of(row: Row, actions: list[Row]) -> GameEntry:
    gid, created, header, result = row
    problems: list[str] = []

    def read(parse: Callable[[bytes], JsonDict | None], raw: bytes) -> JsonDict | None:
        try:
            return parse(raw)
        except ValueError as exc:
            problems.append(str(exc))
            return None

    entry: GameEntry = {"id": gid, "created": created, "header": read(header_of, header),
                        "result": read(lambda raw: json_of(raw, "the result"), result),
                        "actions": len(actions), "damaged": None}
    try:
        for n, action in enumerate(actions):
            action_of(n, action)
    except ValueError as exc:
        problems.append(str(exc))
    entry["damaged"] = "; ".join(problems) or None
    return entry

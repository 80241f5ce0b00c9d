"""``onitama-companion export FILE`` and ``onitama-companion import FILE``: every saved game as
one file of records, and back.

The file is JSON lines: a first line naming the format, then one game a line::

    {"format": "onitama-companion games", "version": 1}
    {"id": 7, "created": 1763900000.5, "header": {...}, "result": {...} | null,
     "actions": [["red", "Tiger c1c3", 1763900012.1], ...]}

Actions are kept as the save file keeps them (``"takeback"`` included, hidden moves in full),
so the file is as private as the save file: it is written 0600. Import checks each record
(its shape, then that it replays) and refuses a damaged one with its line and the reason;
the good ones are added as new games, and a game already in the save file is skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from .config import default_state
from .replay import ReplayError, rebuild
from .saved import JsonDict
from .store import DamagedGame, GameStore, StoreError, check_header

FORMAT = {"format": "onitama-companion games", "version": 1}
SEATS = (None, "red", "blue")


class BadRecord(ValueError):
    """A record of a backup that cannot be imported; the message says why."""


def export_lines(store: GameStore, damaged: list[DamagedGame]) -> Iterator[str]:
    """The backup, line by line; games whose record cannot be read go to ``damaged``."""
    yield json.dumps(FORMAT)
    for game in store.all_games():
        if isinstance(game, DamagedGame):
            damaged.append(game)
            continue
        yield json.dumps({"id": game.id, "created": game.created, "header": game.header,
                          "result": game.result,
                          "actions": [[a.seat, a.action, a.at] for a in game.actions]},
                         ensure_ascii=False)


def check_record(record: object) -> tuple[float, JsonDict, JsonDict | None, list[tuple[str | None, str, float]]]:
    """A record's parts, or :class:`BadRecord` naming what is wrong with it."""
    if not isinstance(record, dict):
        raise BadRecord("a record is a JSON object")
    created = record.get("created")
    if not isinstance(created, (int, float)) or isinstance(created, bool):
        raise BadRecord("created is not a time")
    header = record.get("header")
    problem = check_header(header)
    if problem or not isinstance(header, dict):
        raise BadRecord(problem or "the header is not a JSON object")
    result = record.get("result")
    if result is not None and not isinstance(result, dict):
        raise BadRecord("the result is not a JSON object")
    out = _actions(record.get("actions"))
    if not (result or {}).get("how") == "set aside":
        # A game set aside was kept because it does not replay; any other must.
        try:
            rebuild(header, ((seat, text) for seat, text, _ in out))
        except ReplayError as exc:
            raise BadRecord(str(exc)) from None
    return float(created), header, result, out


def _actions(actions: object) -> list[tuple[str | None, str, float]]:
    """A record's actions, each ``[seat, notation, time]``."""
    if not isinstance(actions, list):
        raise BadRecord("actions is not a list")
    out: list[tuple[str | None, str, float]] = []
    for n, action in enumerate(actions):
        if (not isinstance(action, list) or len(action) != 3 or action[0] not in SEATS
                or not isinstance(action[1], str) or not action[1]
                or not isinstance(action[2], (int, float)) or isinstance(action[2], bool)):
            raise BadRecord(f"action {n} is not [seat, notation, time]")
        out.append((action[0], action[1], float(action[2])))
    return out


def _decode(line: bytes | str) -> str:
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRecord("not valid UTF-8 text") from None


def import_lines(store: GameStore, lines: Iterable[bytes | str], report: TextIO) -> tuple[int, int, int]:
    """Add the games of a backup; returns (added, already there, refused)."""
    added = skipped = refused = 0
    lines = iter(lines)
    try:
        if json.loads(_decode(next(lines, b""))) != FORMAT:
            raise ValueError
    except ValueError:
        raise BadRecord(f"not a backup of saved games (the first line is not {json.dumps(FORMAT)})") from None
    for number, line in enumerate(lines, 2):
        if not line.strip():
            continue
        try:
            text = _decode(line)
            try:
                record = json.loads(text)
            except ValueError as exc:
                raise BadRecord(f"not valid JSON ({exc})") from None
            created, header, result, actions = check_record(record)
        except BadRecord as exc:
            print(f"line {number}: refused: {exc}", file=report)
            refused += 1
            continue
        if store.has_game(created, header):
            skipped += 1
            continue
        store.add_game(created, header, result, actions)
        added += 1
    return added, skipped, refused


def _write_private(path: Path, lines: Iterable[str]) -> None:
    """Write ``path`` 0600, all at once: a half-written backup never replaces a good one."""
    part = path.with_name(path.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(line + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)


def _parser(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=f"onitama-companion {command}",
        description="write every saved game to FILE (JSON lines)" if command == "export" else
        "add the games of a backup FILE to the saved games, refusing damaged records")
    p.add_argument("file", metavar="FILE", help="the backup ('-': standard output/input)")
    p.add_argument("--state", help="the folder of the saved games (default: the service's)")
    p.add_argument("--sim", action="store_true", help="the simulation's saved games")
    return p


def _store(args: argparse.Namespace) -> GameStore:
    folder = Path(args.state) if args.state else default_state(args.sim)
    return GameStore(folder / "games.db")


def main_export(argv: list[str]) -> int:
    args = _parser("export").parse_args(argv)
    try:
        store = _store(args)
        damaged: list[DamagedGame] = []
        try:
            if args.file == "-":
                for line in export_lines(store, damaged):
                    sys.stdout.write(line + "\n")
            else:
                _write_private(Path(args.file), export_lines(store, damaged))
        finally:
            store.close()
    except (StoreError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for game in damaged:
        print(f"not exported: {game}", file=sys.stderr)
    return 1 if damaged else 0


def main_import(argv: list[str]) -> int:
    args = _parser("import").parse_args(argv)
    try:
        source = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
        store = _store(args)
        try:
            with source:
                added, skipped, refused = import_lines(store, source, sys.stderr)
        finally:
            store.close()
    except (StoreError, OSError, BadRecord) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{added} games added, {skipped} already saved, {refused} refused")
    return 1 if refused else 0

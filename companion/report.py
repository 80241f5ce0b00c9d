"""``onitama-companion report``: one file that carries a bug report's evidence.

    onitama-companion report                      # on the Pi: writes onitama-report-<time>.zip
    onitama-companion report --out report.zip --log service.log --trace mat.trace

The zip holds ``report.json`` (the versions, the board, what was found and what was not), the
configuration and the pin map, the last game's record, its mat trace if one was recorded
(``serve --record-trace``) and the service's log (``journalctl -u onitama-companion``, else
``--log FILE``). No secret goes in: the configuration's passwords and keys are replaced, the
hotspot password and every join link are cut out of the log, and a game with hidden moves
that is still running gives its public record only. The save file is read from a copy, so
the running service is never disturbed.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import io
import json
import platform
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

from firmware.pimodel import read_model

APP = "onitama-companion"
DEFAULT_CONFIG = Path(f"/etc/{APP}/config.toml")
DEFAULT_STATE = Path(f"/var/lib/{APP}")
LIBRARIES = ("onitama-companion", "gpiozero", "lgpio", "rpi-ws281x", "adafruit-circuitpython-neopixel-spi",
             "adafruit-circuitpython-ssd1306", "luma.oled", "Adafruit-Blinka", "gpiod", "flask", "waitress",
             "zeroconf", "Pillow", "segno")
REDACTED = "<redacted>"
# Configuration keys whose values are secrets, whatever their section.
_SECRET_KEY = re.compile(r"password|passphrase|secret|token|psk|cookie|key$", re.IGNORECASE)
# Join links (/j/<token>) and session or cookie values, as they may appear in a log.
_LOG_SECRETS = [
    (re.compile(r"(/j/)[A-Za-z0-9_-]{6,}", re.IGNORECASE), r"\1" + REDACTED),
    # The simulation's table link (``sim`` prints it on its terminal: /sim?table=SECRET).
    (re.compile(r"([?&]table=)[^\s&#'\"]+", re.IGNORECASE), r"\1" + REDACTED),
    (re.compile(r"\b(session|cookie|token|secret|psk|password)(\W{1,3})[^\s,;'\"]+", re.IGNORECASE),
     r"\1\2" + REDACTED),
]


def versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "kernel": platform.release(), "machine": platform.machine()}
    try:
        found["os"] = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines()
                           if "=" in line).get("PRETTY_NAME", "").strip('"')
    except OSError:
        pass
    for name in LIBRARIES:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def redact_config(text: str) -> tuple[str, list[str]]:
    """The configuration, read with a TOML parser and written out again with every secret
    value replaced, whatever its form (a quoted key, an inline table, a multi-line string);
    also the secrets themselves (to cut them out of the log too). Comments are left out: a
    commented-out secret is still a secret (its value is cut out of the log all the same). A
    file that does not parse is left out whole: only the parser's complaint goes in."""
    try:
        tree = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # The parser's message names a line and column, never the text there.
        return f"# config.toml does not parse ({exc}): left out, it may hold a secret\n", []
    secrets_found: list[str] = []
    redacted = _redact_tree(tree, secrets_found)
    for line in text.splitlines():
        m = re.match(r"^\s*#\s*([A-Za-z0-9_.-]+)\s*=\s*(.+)$", line)
        if m and _SECRET_KEY.search(m.group(1)):
            value = m.group(2).strip()
            try:
                secret = tomllib.loads(f"v = {value}")["v"]
            except tomllib.TOMLDecodeError:
                secret = value
            _strings(secret, secrets_found)
    return toml_text(redacted), secrets_found


def _redact_tree(value: Any, found: list[str]) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if _SECRET_KEY.search(key):
                _strings(item, found)
                out[key] = REDACTED
            else:
                out[key] = _redact_tree(item, found)
        return out
    if isinstance(value, list):
        return [_redact_tree(item, found) for item in value]
    return value


def _strings(value: Any, found: list[str]) -> None:
    """Every non-empty string in ``value`` (a secret may be a table or a list of them)."""
    if isinstance(value, str):
        if value:
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)     # a JSON string is a TOML basic string
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    return value.isoformat()            # the dates and times tomllib reads


def toml_text(tree: dict[str, Any], path: tuple[str, ...] = ()) -> str:
    """``tree`` as TOML: its values, then each sub-table under its own header."""
    lines = [f"{_key(k)} = {_value(v)}" for k, v in tree.items() if not isinstance(v, dict)]
    out = ""
    if path and (lines or not any(isinstance(v, dict) for v in tree.values())):
        out += "[" + ".".join(_key(p) for p in path) + "]\n"
    out += "".join(line + "\n" for line in lines)
    for key, value in tree.items():
        if isinstance(value, dict):
            out += ("\n" if out else "") + toml_text(value, (*path, key))
    return out


def redact_log(text: str, secrets: list[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    for pattern, replacement in _LOG_SECRETS:
        text = pattern.sub(replacement, text)
    return text


def last_game(state: Path) -> dict | None:
    """The newest saved game's record, read from a copy of the save file."""
    db = state / "games.db"
    if not db.exists():
        return None
    from companion.table.session import record
    from companion.table.store import GameStore

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "games.db"
        # The online backup API copies a consistent snapshot, the WAL included, while the
        # service may be writing.
        source = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        store = GameStore(copy)
        try:
            games = store.games()
            if not games:
                return None
            saved = store.game(games[0]["id"])
            # The record the service itself gives: public while the game runs, full at the end.
            shown = record(store, saved.id)
        finally:
            store.close()
    return {"id": saved.id, "created": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(saved.created)),
            "actions": len(saved.actions), "result": saved.result, "record": shown}


def newest_trace(path: Path) -> Path | None:
    """``serve --record-trace FILE`` writes FILE, then FILE-2, FILE-3... one per game."""
    candidates = [p for p in [path, *path.parent.glob(f"{path.stem}-*{path.suffix}")] if p.is_file()]
    return max(candidates, key=lambda p: p.stat().st_mtime) if candidates else None


def service_log(log_file: Path | None) -> tuple[str, str]:
    """The service's log and where it came from."""
    if log_file is not None:
        return log_file.read_text(encoding="utf-8", errors="replace"), str(log_file)
    if shutil.which("journalctl"):
        done = subprocess.run(["journalctl", "-u", APP, "--no-pager", "-n", "3000", "-o", "short-iso"],
                              capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() and "-- No entries --" not in done.stdout:
            return done.stdout, f"journalctl -u {APP}"
    return "", "none (no journal entries for the service; pass --log FILE)"


def build(config_path: Path, state: Path, log_file: Path | None, trace: Path | None,
          pinmap_path: Path | None = None) -> tuple[bytes, dict]:
    """The report as zip bytes, and its summary."""
    from firmware.pinmap import default_pinmap_path

    files: dict[str, str] = {}
    summary: dict = {"created": time.strftime("%Y-%m-%d %H:%M:%S %z"), "versions": versions(),
                     "board": read_model().describe()}
    secrets: list[str] = []
    if config_path.is_file():
        text = config_path.read_text(encoding="utf-8", errors="replace")
        files["config.toml"], secrets = redact_config(text)
        summary["config"] = str(config_path)
        try:
            pinmap_value = tomllib.loads(text).get("mat", {}).get("pinmap")
        except tomllib.TOMLDecodeError:
            pinmap_value = None
        pinmap_path = pinmap_path or (Path(pinmap_value) if pinmap_value else None)
    else:
        summary["config"] = f"none at {config_path} (the built-in settings)"
    pinmap_path = pinmap_path or default_pinmap_path()
    try:
        files["pinmap.toml"] = pinmap_path.read_text(encoding="utf-8", errors="replace")
        summary["pinmap"] = str(pinmap_path)
    except OSError as exc:
        summary["pinmap"] = f"cannot read {pinmap_path}: {exc.strerror}"
    try:
        game = last_game(state)
    except Exception as exc:  # a damaged save file is evidence too: say so, keep going
        game, summary["last_game"] = None, f"cannot read {state / 'games.db'}: {exc}"
    if game is not None:
        files["last-game.json"] = json.dumps(game, indent=1)
        summary["last_game"] = {k: game[k] for k in ("id", "created", "actions", "result")}
    else:
        summary.setdefault("last_game", f"no saved game in {state}")
    found = newest_trace(trace) if trace is not None else None
    if found is not None:
        files["mat-trace.jsonl"] = found.read_text(encoding="utf-8", errors="replace")
        summary["trace"] = str(found)
    else:
        summary["trace"] = "none recorded (serve --record-trace FILE records one)"
    log_text, summary["log"] = service_log(log_file)
    if log_text:
        files["service.log"] = redact_log(log_text, secrets)
    files = {"report.json": json.dumps(summary, indent=1), **files}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in files.items():
            z.writestr(name, content)
    return buffer.getvalue(), summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"{APP} report",
                                     description="bundle the evidence for a bug report into one zip, without secrets")
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help=f"default {DEFAULT_CONFIG}")
    parser.add_argument("--state", type=Path, default=DEFAULT_STATE, help=f"the saved games; default {DEFAULT_STATE}")
    parser.add_argument("--pinmap", type=Path, help="the pin map (default: the configuration's, else the built-in)")
    parser.add_argument("--log", type=Path, help="a log file (default: journalctl -u onitama-companion)")
    parser.add_argument("--trace", type=Path, help="the file given to serve --record-trace")
    parser.add_argument("--out", type=Path, help="default ./onitama-report-<date>-<time>.zip")
    args = parser.parse_args(argv)
    out = args.out or Path(f"onitama-report-{time.strftime('%Y%m%d-%H%M%S')}.zip")
    data, summary = build(args.config, args.state, args.log, args.trace, args.pinmap)
    out.write_bytes(data)
    print(f"wrote {out} ({len(data) // 1024 + 1} KB): attach it to the bug report")
    for key in ("board", "config", "pinmap", "last_game", "trace", "log"):
        value = summary[key]
        print(f"  {key:<9} {json.dumps(value) if isinstance(value, dict) else value}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

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
    """The configuration with every secret value replaced; also the secrets themselves (to cut
    them out of the log too)."""
    secrets_found = []
    lines = []
    for line in text.splitlines():
        m = re.match(r"^(\s*#?\s*)([A-Za-z0-9_.-]+)(\s*=\s*)(.+)$", line)
        if m and _SECRET_KEY.search(m.group(2)):
            value = m.group(4).strip()
            try:
                secret = tomllib.loads(f"v = {value}")["v"]
            except tomllib.TOMLDecodeError:
                secret = value
            if isinstance(secret, str) and secret:
                secrets_found.append(secret)
            line = f"{m.group(1)}{m.group(2)}{m.group(3)}\"{REDACTED}\""
        lines.append(line)
    return "\n".join(lines) + "\n", secrets_found


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

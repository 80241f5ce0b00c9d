"""Checks the table robot runs at every step, besides its own (never stuck, never leaks in
what the views, streams, OLED and LEDs show, always ends, always replays).

A checker has ``step(robot)``, called after every step once the twins have been compared,
and ``finish(robot)`` once the game is over; it raises ``AssertionError`` (a ``Leak``, a
``Stuck``) to fail the game. ``play`` takes extra checkers (``checkers=[...]``): another
issue's (an instruction checker, say) hooks in here.

``SecretScan``: a secret found anywhere fails the robot. The secrets are the hidden actions
of both worlds at that moment (Ninja squares, hidden steps, a simultaneous commitment), read
from each seat's sealed record; none may appear in any line the service logged since the
last step, nor in the ``report`` zip, which is built mid-game in both worlds from each one's
save file and the log (with the simulation's table link and a Wi-Fi password of the
configuration in it) and compared between the twins.
"""

from __future__ import annotations

import io
import json
import logging
import re
import zipfile
from pathlib import Path
from typing import Protocol

from companion.report import build
from companion.rules import sealed
from companion.web.guard import table_link

HIDDEN_MODES = ("shadow", "light", "simultaneous")
SECRET_TOKEN = re.compile(r"[NS][a-e][1-5](?:[a-e][1-5])?-?|[a-e][1-5][a-e][1-5]")
WIFI_PASSWORD = "Robot-Wifi-7Hq2"
# Where the simulation would say it serves: the same in both worlds (their ports differ).
TABLE_URL = "http://192.168.1.5:8080"
CONFIG = f'[network]\nhotspot = {{ ssid = "Onitama-RB", password = "{WIFI_PASSWORD}" }}\n'


class Checker(Protocol):
    def step(self, robot) -> None: ...
    def finish(self, robot) -> None: ...


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def world_secrets(w) -> set[str]:
    """The hidden actions of ``w``'s game now, as tokens (``Nb1``, ``Nb1c2``, ``c3b2``) that
    its public record and public view do not hold."""
    ref = w.referee()
    if ref.mode not in HIDDEN_MODES or ref.result is not None:
        return set()
    public = json.dumps([sealed.public_record(ref), ref.view(None)])
    shown = set(re.findall(r"[A-Za-z0-9?-]+", public))
    tokens = set()
    for seat in ("red", "blue"):
        record = sealed.sealed_record(ref, seat)
        texts = [record.get("setup"), *record["turns"].values(), record.get("pending")]
        for text in texts:
            tokens |= {t for t in str(text or "").split() if SECRET_TOKEN.fullmatch(t)}
    return tokens - shown


def _found(secrets: set[str], text: str) -> list[str]:
    return [s for s in secrets if re.search(rf"(?<![A-Za-z0-9]){re.escape(s)}(?![A-Za-z0-9])", text)]


class SecretScan:
    def __init__(self, report_at: int) -> None:
        self._log = _Lines()
        logging.getLogger().addHandler(self._log)
        self._root_level = logging.getLogger().level
        logging.getLogger().setLevel(min(self._root_level or logging.WARNING, logging.INFO))
        self._seen = 0
        self._report_at = report_at          # the twin check at which the zips are built
        self.zips = 0

    def close(self) -> None:
        logging.getLogger().removeHandler(self._log)
        logging.getLogger().setLevel(self._root_level)

    def step(self, robot) -> None:
        secrets = set().union(*(world_secrets(w) for w in robot.worlds()))
        new, self._seen = self._log.lines[self._seen:], len(self._log.lines)
        for line in new:
            if found := _found(secrets, line):
                raise robot.leak(f"the log names the hidden {found}: {line!r}")
        if secrets and robot.report.twin_checks >= self._report_at and not self.zips:
            self.check_reports(robot, secrets)

    def check_reports(self, robot, secrets: set[str]) -> None:
        zips = [self.report(w) for w in robot.worlds()]
        for w, files in zip(robot.worlds(), zips):
            everything = "\n".join(files.values())
            hidden = _found(secrets | {WIFI_PASSWORD, w.server_app.config["TABLE_SECRET"]}, everything)
            if hidden:
                raise robot.leak(f"the report zip holds the secret {hidden}")
        if len(zips) == 2 and zips[0] != zips[1]:
            differ = [name for name in zips[0] if zips[0][name] != zips[1].get(name)]
            raise robot.leak(f"the twins' report zips differ in {differ}: "
                             f"{[(zips[0][n][:800], zips[1].get(n, '')[:800]) for n in differ]}")
        self.zips += 1
        robot.report.reports += 1

    def report(self, w) -> dict[str, str]:
        """``w``'s report zip, as its files (report.json and the times in it left out)."""
        folder = Path(w.state) / "report"
        folder.mkdir(exist_ok=True)
        config, log = folder / "config.toml", folder / "service.log"
        config.write_text(CONFIG)
        log.write_text("\n".join([f"table link (another device as the table): "
                                  f"{table_link(w.server_app, TABLE_URL)}", *self._log.lines]) + "\n")
        data, _ = build(config, Path(w.state), log, None)
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            files = {name: z.read(name).decode() for name in z.namelist() if name != "report.json"}
        if "last-game.json" in files:
            game = json.loads(files["last-game.json"])
            game.pop("created", None)
            files["last-game.json"] = json.dumps(game, sort_keys=True)
        return files

    def finish(self, robot) -> None:
        self.close()

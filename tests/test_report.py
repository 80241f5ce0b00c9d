"""``onitama-companion report``: one zip with the evidence, and no secret in it (the hotspot
password, join links, session cookies, a running game's hidden moves)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from companion.cli import main as cli
from companion.report import build, redact_config, redact_log
from companion.rules.squares import parse_square
from companion.table.network import Hotspot, hotspot_section
from sim_table import sim_companion
from waiting import wait_for

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "Hx7QwErTy9Zk"
SHADOW_START = frozenset(parse_square(s) for s in ("a1", "c1", "e1", "a5", "c5", "e5"))


@pytest.fixture
def installed(tmp_path):
    """A Pi's files after some play: a hotspot configuration, a save file with a running
    Light & Shadow game whose Ninjas were placed in secret, and a log with join links."""
    config = tmp_path / "config.toml"
    (tmp_path / "pinmap.toml").write_text((ROOT / "hardware" / "pinmap.toml").read_text())
    config.write_text((ROOT / "systemd" / "config.toml").read_text()
                      .replace("/etc/onitama-companion/pinmap.toml", str(tmp_path / "pinmap.toml"))
                      + hotspot_section(Hotspot("Onitama-AB12", PASSWORD))
                      + "\n# a key some later version may keep here\n# secret_key = \"f00dfeedcafe\"\n")
    state = tmp_path / "state"
    state.mkdir()
    with sim_companion(state / "games.db", public_url="http://10.42.0.1:8080") as table:
        companion = table.companion
        joins = [companion.join_url("red"), companion.join_url("blue")]
        game_id = companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 11})["game"]
        table.hardware.sim.set_pawns(SHADOW_START)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        companion.submit("red", {"type": "action", "text": "Nb1"})
        companion.submit("blue", {"type": "action", "text": "Nd5"})
        expected = companion.record(game_id)
    log = tmp_path / "service.log"
    log.write_text(f"INFO table: http://10.42.0.1:8080/\nred seat:  {joins[0]}\nblue seat: {joins[1]}\n"
                   f"nmcli ... wifi-sec.psk {PASSWORD}\nphone joined, session=3f9a8c7d1e2b cookie: phone=eyJhbGciOi.x\n"
                   "WARNING mat out of sync at c3\n")
    trace = tmp_path / "mat.trace"
    trace.write_text('{"trace": 1}\n')
    (tmp_path / "mat-2.trace").write_text('{"trace": 1, "game": 2}\n')
    return {"config": config, "state": state, "log": log, "trace": trace, "joins": joins,
            "expected": expected, "tmp": tmp_path}


def unzip(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as z:
        return {name: z.read(name).decode() for name in z.namelist()}


def test_the_report_carries_the_evidence(installed):
    data, summary = build(installed["config"], installed["state"], installed["log"], installed["trace"])
    files = unzip(data)
    assert set(files) == {"report.json", "config.toml", "pinmap.toml", "last-game.json", "mat-trace.jsonl",
                          "service.log"}
    report = json.loads(files["report.json"])
    assert report["versions"]["onitama-companion"] and report["versions"]["python"]
    assert "LED back-ends" in report["board"]
    assert 'hardware = "pi"' in files["config.toml"] and 'ssid = "Onitama-AB12"' in files["config.toml"]
    assert "[matrix]" in files["pinmap.toml"]
    game = json.loads(files["last-game.json"])
    # The same record the service gives: the public one, the game still running.
    assert game["record"] == installed["expected"] and game["record"]["kind"] == "public"
    assert files["mat-trace.jsonl"] == '{"trace": 1, "game": 2}\n'  # the newest of the game's traces
    assert "WARNING mat out of sync at c3" in files["service.log"]


def test_no_secret_is_in_the_report(installed):
    data, _ = build(installed["config"], installed["state"], installed["log"], installed["trace"])
    everything = "\n".join(unzip(data).values())
    tokens = [url.rsplit("/", 1)[1] for url in installed["joins"]]
    for secret in [PASSWORD, "f00dfeedcafe", "3f9a8c7d1e2b", "eyJhbGciOi", *tokens]:
        assert secret not in everything
    # The Ninjas were placed in secret on b1 and d5: the running game's record hides them.
    record = json.dumps(json.loads(unzip(data)["last-game.json"]))
    assert "Nb1" not in record and "Nd5" not in record


def test_redaction_of_config_and_log():
    text, secrets = redact_config('[network]\npassword = "a\\"b"\nssid = "x"\n[web]\nsecret_key = \'k1\'\n')
    assert secrets == ['a"b', "k1"] and 'password = "<redacted>"' in text and 'ssid = "x"' in text
    assert redact_log('GET /j/ABCDEFGH2345 a"b k1 /join', secrets) == "GET /j/<redacted> <redacted> <redacted> /join"


def test_the_command_writes_one_zip(installed, capsys):
    out = installed["tmp"] / "r.zip"
    assert cli(["report", "--config", str(installed["config"]), "--state", str(installed["state"]),
                "--log", str(installed["log"]), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed and "none recorded" in printed
    assert "last-game.json" in unzip(out.read_bytes())


def test_with_nothing_installed_it_says_what_is_missing(tmp_path, capsys):
    out = tmp_path / "r.zip"
    (tmp_path / "empty.log").write_text("")
    assert cli(["report", "--config", str(tmp_path / "none.toml"), "--state", str(tmp_path),
                "--log", str(tmp_path / "empty.log"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "none at" in printed and "no saved game in" in printed
    assert set(unzip(out.read_bytes())) == {"report.json", "pinmap.toml"}

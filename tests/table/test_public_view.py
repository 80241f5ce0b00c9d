"""Issue 22, build 1: private is private by construction. Every public output (the OLED's
lines, the LED scene, the public view and stream, the OLED picture) is rendered from
``PublicGame``, which names only what the public may see: mypy refuses a renderer that reads
a seat's view, a hint, the full log or the header (the hidden seed) through it."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

from companion.table import views
from companion.table.display import Display
from companion.table.publicgame import PublicGame, SeatPart

ROOT = Path(__file__).resolve().parents[2]

PROBE = '''\
from companion.table.publicgame import PublicGame


def a_seat_view_on_the_oled(game: PublicGame) -> object:
    return game.referee.view("red")


def a_hint_on_the_mat(game: PublicGame) -> object:
    return game.hint


def the_full_log(game: PublicGame) -> object:
    return game.referee.log


def the_hidden_seed(game: PublicGame) -> object:
    return game.header


def what_may_be_shown(game: PublicGame) -> object:
    return game.referee.view()["position"], game.referee.view(None), game.mat_hint, game.table()
'''
LEAKS = {5: "view", 9: "hint", 13: "log", 17: "header"}


def test_mypy_refuses_a_public_renderer_that_reads_a_secret(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(ROOT / ".mypy_cache"), str(probe)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    errors = {int(line.split(":")[1]) for line in run.stdout.splitlines() if ": error:" in line}
    assert errors == set(LEAKS), run.stdout


def test_the_public_outputs_are_rendered_from_the_public_game():
    for function in (views.oled_lines, views.led_scene, views.join_seat, views.asking,
                     views.stray_refusal, Display.update):
        hint = typing.get_type_hints(function)["game"]
        assert PublicGame in typing.get_args(hint) or hint is PublicGame, function.__name__
    hints = typing.get_type_hints(views.view)
    assert PublicGame in typing.get_args(hints["game"]) and SeatPart in typing.get_args(hints["part"])

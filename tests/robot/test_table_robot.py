"""The table robot (``table_robot.py``) in the default suite: three whole random games of every
way of playing, through the running companion over HTTP, each checked at every step (never
stuck, never leaks, always ends, always replays). ``benchmarks/bench_robot.py`` plays the long
run (50 games of each way) and prints its counts."""

from __future__ import annotations

import pytest

from table_robot import WAYS, play

GAMES = 3


@pytest.mark.parametrize("way", [name for name, _ in WAYS])
def test_random_games_played_as_players_do(tmp_path, way):
    for seed in range(GAMES):
        report = play(tmp_path, way, seed, streams=True)
        assert report.winner in ("red", "blue", None) and report.how
        assert report.turns > 0
        if way.startswith("wind") or way in ("base", "shadow", "light"):
            assert report.mat_moves > 0           # the mat read the main-board moves
        else:
            assert report.phone_steps > 0

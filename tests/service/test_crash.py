"""Acceptance: kill -9 the service at random moments of scripted games, at least 20 times;
after each restart no confirmed move is lost and the game goes on."""

import random
import subprocess
import sys
import threading
from pathlib import Path

from companion.table.store import GameStore

DRIVER = Path(__file__).with_name("crash_driver.py")
KILLS = 20


def run_until_killed(state: Path, seed: int, after: float) -> tuple[list[str], bool]:
    """Start the driver, kill -9 it after ``after`` seconds; return the longest confirmed log
    it printed and whether the game had finished."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), str(state), str(seed)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    confirmed: list[str] = []
    done = threading.Event()

    def read():
        for line in proc.stdout:
            if line.startswith("LOG "):
                log = [m for m in line[4:].strip().split("|") if m]
                if len(log) >= len(confirmed):
                    confirmed[:] = log
            elif line.startswith("DONE"):
                done.set()
    reader = threading.Thread(target=read)
    reader.start()
    done.wait(after)
    proc.kill()
    proc.wait()
    reader.join()
    assert proc.returncode in (-9, 0), proc.stderr.read()
    return confirmed, done.is_set()


def test_kill_9_loses_no_confirmed_move(tmp_path):
    rng = random.Random(7)
    kills = games = resumed_and_moved = 0
    seed = 1
    while kills < KILLS:
        state = tmp_path / f"game{games}"
        state.mkdir()
        committed: list[str] = []   # every move the service confirmed, across restarts
        while kills < KILLS:
            confirmed, finished = run_until_killed(state, seed, rng.uniform(1.0, 4.0))
            saved = GameStore(state / "games.db")
            game = saved.game(saved.games()[0]["id"])
            on_disk = [a.action for a in game.actions]
            # What this run showed continues what earlier runs confirmed...
            assert confirmed[:len(committed)] == committed[:len(confirmed)]
            if len(confirmed) > len(committed):
                if committed:
                    resumed_and_moved += 1   # the game went on after a restart
                committed = confirmed
            # ...and everything ever confirmed is in the save file, in order.
            assert on_disk[:len(committed)] == committed, "a restart lost confirmed moves"
            if finished or game.result is not None:
                break
            kills += 1
        games += 1
        seed += 1
    # Some kills land during start-up before any move; most restarts must play on.
    assert resumed_and_moved >= KILLS // 2, resumed_and_moved

"""Growth: a very long game, and a save file with many games.

    python benchmarks/bench_store.py [--plies 1000] [--games 10000]

1. A 1000-turn base game of quiet moves (tests/support/longgame.py) played on the companion
   (simulated hardware, a real save file) as phone actions. Python heap growth per turn
   (tracemalloc), overall and over the last half (a log copied into every saved state shows
   as a per-turn cost that keeps rising); the size of the public and a seat's whole view as
   JSON at turns 1, 500 and 1000, and of a stream's view event after each of those turns (the
   turns since the last event). Budget: at most 5 kB per turn.
2. A save file of 10,000 games (each 40 actions, with results), then ``GET /games`` and
   ``GET /api/games`` through the Flask app: the time of each, and the process's resident
   memory (VmRSS) before and after. Budget: under 50 ms, and no resident growth after the
   response (a full list kept ~17 MB from 2000 games).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from companion.table.service import Companion  # noqa: E402
from companion.table.store import GameStore  # noqa: E402
from companion.web.app import create_app  # noqa: E402
from companion.web.streams import since  # noqa: E402
from firmware.hardware import make_hardware  # noqa: E402
from longgame import long_game  # noqa: E402


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def heap() -> tuple[int, int]:
    """Bytes traced now: in all, and without firmware/ (the simulated LED strip keeps every
    frame it was sent, for the tests: it grows with time, and there is no such list on a Pi)."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot()
    game = snapshot.filter_traces([tracemalloc.Filter(False, "*/firmware/*")])
    return (sum(s.size for s in snapshot.statistics("filename")),
            sum(s.size for s in game.statistics("filename")))


def long_game_growth(plies: int, folder: Path) -> None:
    hw = make_hardware("sim")
    store = GameStore(folder / "long.db")
    companion = Companion(hw, store, settle=0.2)
    companion.start()
    try:
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": 1})
        moves = list(long_game(plies, seed=1))
        gc.collect()
        tracemalloc.start()
        base = heap()
        half = None
        sizes = {}
        held = since(None, companion.view(None))[1]    # what a page's stream holds
        for n, (seat, text) in enumerate(moves, 1):
            companion.submit(seat, {"type": "action", "text": text}, timeout=30)
            if n in (1, plies // 2, plies):
                event, held = since(held, companion.view(None))
                sizes[n] = (len(json.dumps(companion.view(None))),
                            len(json.dumps(companion.view("red"))), len(json.dumps(event)))
            else:
                held = since(held, companion.view(None))[1]
            if n == plies // 2:
                half = heap()
        end = heap()
        tracemalloc.stop()
    finally:
        companion.close()
        hw.close()
        store.close()
    n = len(moves)
    print(f"long game: {n} turns on the companion (phone actions, sim hardware, save file)")
    for i, what in enumerate(("everything", "without the simulated hardware's recordings")):
        print(f"  heap growth, {what}: {(end[i] - base[i]) / n / 1024:.2f} kB per turn overall, "
              f"{(end[i] - half[i]) / (n - n // 2) / 1024:.2f} kB per turn over the last half "
              f"(budget 5 kB)")
    for turn, (public, seat, event) in sizes.items():
        print(f"  at turn {turn}: whole view (on connecting, /api/view) public {public / 1024:.1f} kB, "
              f"red seat {seat / 1024:.1f} kB; a stream's view event after the turn {event / 1024:.2f} kB")


def fill(store: GameStore, games: int) -> None:
    rng = random.Random(5)
    start = "b1b2b3b4b5/5/5/5/r1r2r3r4r5 red Tiger,Crane Frog,Ox Dragon"
    now = time.time() - games * 600
    db = store._db   # bulk load in one transaction: the benchmark measures reading
    db.execute("BEGIN")
    for i in range(games):
        variant = rng.choice(("base", "wind", "shadow"))
        gid = db.execute("INSERT INTO games (created, header, result, variant) VALUES (?, ?, ?, ?)",
                         (now + i * 600, json.dumps({"variant": variant, "sets": ["base"],
                                                     "wind_cards": 2, "seed": i, "start": start,
                                                     "fixed": False}),
                          json.dumps({"winner": "red", "how": "stone"}), variant)).lastrowid
        db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                       [(gid, s, "red" if s % 2 == 0 else "blue", "Tiger c1c3", now) for s in range(40)])
    db.execute("COMMIT")


def game_list(games: int, folder: Path) -> None:
    hw = make_hardware("sim")
    store = GameStore(folder / "many.db")
    fill(store, games)
    companion = Companion(hw, store, settle=0.2)
    companion.start()
    client = create_app(companion).test_client()
    try:
        for path in ("/games", "/api/games", "/games?mode=wind", "/games?date=" +
                     time.strftime("%Y-%m-%d", time.localtime(time.time() - games * 300))):
            client.get(path)               # warm: templates compiled, caches filled
            gc.collect()
            before = rss_kb()
            times = []
            for _ in range(20):
                t = time.perf_counter()
                response = client.get(path)
                times.append(time.perf_counter() - t)
                assert response.status_code == 200, response.status_code
            gc.collect()
            after = rss_kb()
            times.sort()
            print(f"  {path}: {len(response.data) / 1024:.1f} kB, median {times[10] * 1000:.1f} ms, "
                  f"max {times[-1] * 1000:.1f} ms; resident {before / 1024:.1f} MB before, "
                  f"{after / 1024:.1f} MB after 20 requests ({(after - before):+d} kB)")
    finally:
        companion.close()
        hw.close()
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        long_game_growth(args.plies, Path(folder))
        print(f"game list: {args.games} saved games (budget: under 50 ms, no resident growth)")
        game_list(args.games, Path(folder))
    print(f"python {sys.version.split()[0]}, pid {os.getpid()}")


if __name__ == "__main__":
    main()

"""Benchmark: the table robot's long run, many whole random games of every way of playing.

    python benchmarks/bench_robot.py [--games 50] [--ways base,shadow] [--no-streams]

Each game is played through the running companion over HTTP as players do (the mat through
the simulated switches, the phones through the seat pages' requests), with the four checks of
``tests/robot/table_robot.py``. Prints one line per way: games, failures, turns (min, mean,
max), mat moves, phone steps, card questions, twin checks, seconds per game; then
every failure's message. Exit status 1 if any game failed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "robot"), str(ROOT / "tests" / "support")]

from table_robot import WAYS, play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--ways", default=",".join(name for name, _ in WAYS))
    parser.add_argument("--no-streams", action="store_true")
    args = parser.parse_args()
    failures = []
    print(f"{'way':<13}{'games':>6}{'failed':>7}{'turns min/mean/max':>20}{'mat':>6}{'phone':>7}"
          f"{'asked':>6}{'twin':>6}{'s/game':>8}")
    for way in args.ways.split(","):
        reports, failed, started = [], 0, time.monotonic()
        for seed in range(args.first_seed, args.first_seed + args.games):
            with tempfile.TemporaryDirectory() as state:
                try:
                    reports.append(play(Path(state), way, seed, streams=not args.no_streams))
                except AssertionError as exc:
                    failed += 1
                    failures.append(f"{way} seed {seed}: {type(exc).__name__}: {str(exc)[:400]}")
        turns = [r.turns for r in reports] or [0]
        print(f"{way:<13}{args.games:>6}{failed:>7}"
              f"{f'{min(turns)}/{statistics.mean(turns):.1f}/{max(turns)}':>20}"
              f"{sum(r.mat_moves for r in reports):>6}{sum(r.phone_steps for r in reports):>7}"
              f"{sum(r.questions for r in reports):>6}{sum(r.twin_checks for r in reports):>6}"
              f"{(time.monotonic() - started) / args.games:>8.2f}", flush=True)
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

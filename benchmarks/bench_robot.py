"""Benchmark: the table robot's long run, many whole random games of every way of playing and
every kind of seat.

    python benchmarks/bench_robot.py [--games 50] [--ways base,shadow] [--seatings mat,remote,computer] [--no-streams] [--traces DIR]

Each game is played through the running companion over HTTP as players do (the mat through
the simulated switches, the phones through the seat pages' requests), with the checks of
``tests/robot/table_robot.py``, ``robot_checks.py`` and ``instructions.py``; now and then a
person's phone is replaced, or the game abandoned for a new one (``seat_changes.py``). A way whose moves the mat reads is
also played with one seat on a phone away from the table (``remote``) and with one played by
the computer (``computer``, its moves made on the mat, a wrong one first now and then).
Prints one line per way and seating: games, failures, turns (min, mean, max), mat moves,
phone steps, card questions, twin checks, the computer's moves made on the mat (and wrong
ones refused), hints given (and refused at the mat), strangers at a seat's code, report zips
compared, phones replaced mid-game (and new phones that gave up asking), games abandoned,
seconds per game; then every failure's message. Exit status 1 if any game failed. With
``--traces DIR``, the mat's traces of each failed game are kept in DIR (``WAY-SEATING-SEED-``
then the world, a or b for a twin, and the trace's name), for ``onitama-companion trace``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "robot"), str(ROOT / "tests" / "support")]

from table_robot import WAYS, play, seatings  # noqa: E402

from companion.table import collector  # noqa: E402

COLUMNS = (("games", 6), ("failed", 7), ("turns min/mean/max", 20), ("mat", 6), ("phone", 7),
           ("asked", 6), ("twin", 6), ("comp/wrong", 11), ("hints/no", 9), ("strangers", 10),
           ("zips", 5), ("phones/gave", 12), ("abandoned", 10), ("s/game", 8))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--ways", default=",".join(name for name, _ in WAYS))
    parser.add_argument("--seatings", default="mat,remote,computer")
    parser.add_argument("--no-streams", action="store_true")
    parser.add_argument("--traces", type=Path, help="keep the mat's traces of failed games here")
    args = parser.parse_args()
    # As the service runs once started (companion/serve.py): the collector's passes only
    # between the game thread's events (companion/table/collector.py).
    collector.take_over()
    failures = []
    print(f"{'way':<13}{'seating':<10}" + "".join(f"{name:>{width}}" for name, width in COLUMNS))
    for way in args.ways.split(","):
        for seating in (s for s in seatings(way) if s in args.seatings.split(",")):
            reports, failed, started = [], 0, time.monotonic()
            for seed in range(args.first_seed, args.first_seed + args.games):
                with tempfile.TemporaryDirectory() as state:
                    try:
                        reports.append(play(Path(state), way, seed, streams=not args.no_streams,
                                            seating=seating, traces=args.traces is not None))
                    except AssertionError as exc:
                        failed += 1
                        failures.append(f"{way} {seating} seed {seed}: {type(exc).__name__}: {str(exc)[:400]}")
                        if args.traces is not None:
                            keep(Path(state), args.traces, f"{way}-{seating}-{seed}")
            turns = [r.turns for r in reports] or [0]
            total = {k: sum(getattr(r, k) for r in reports) for k in (
                "mat_moves", "phone_steps", "questions", "twin_checks", "computer_moves", "wrong_moves",
                "hints", "refused", "intrusions", "reports", "takeovers", "gave_up", "abandoned")}
            cells = [args.games, failed, f"{min(turns)}/{statistics.mean(turns):.1f}/{max(turns)}",
                     total["mat_moves"], total["phone_steps"], total["questions"], total["twin_checks"],
                     f"{total['computer_moves']}/{total['wrong_moves']}", f"{total['hints']}/{total['refused']}",
                     total["intrusions"], total["reports"], f"{total['takeovers']}/{total['gave_up']}",
                     total["abandoned"], f"{(time.monotonic() - started) / args.games:.2f}"]
            print(f"{way:<13}{seating:<10}" + "".join(f"{str(c):>{w}}" for c, (_, w) in zip(cells, COLUMNS)),
                  flush=True)
    for line in failures:
        print(line)
    return 1 if failures else 0


def keep(state: Path, folder: Path, name: str) -> None:
    """A failed game's traces, from each of its worlds' folders under ``state``."""
    folder.mkdir(parents=True, exist_ok=True)
    for trace in state.glob("*/trace*.jsonl"):
        shutil.copy(trace, folder / f"{name}-{trace.parent.name}-{trace.name}")


if __name__ == "__main__":
    sys.exit(main())

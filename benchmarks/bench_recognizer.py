"""The move recognizer on generated games, through the trace tool (the real scanner on the
simulated matrix, the real debounce, the recognizer, on a simulated clock): what it
understood, and how fast, for each category of hands (tests/support/tracegen.py).

    nice -n 10 python benchmarks/bench_recognizer.py [--category NAME ...] [--games N]
                                                    [--first SEED] [--jobs J]

Each category plays N games, half base Onitama and half Way of the Wind (0-5 Wind Spirit
cards, every card set). Prints one row per category:

    hands | games | exact | wrong commits | derailed | questions | worst rest->commit

- exact: games whose every decision (moves, takebacks, amendments, questions, winner) is the
  one the rules call for, each commit within 0.5 s of the mat coming to rest (or at the
  opponent's next lift, or at the answer);
- wrong commits: moves committed that were not played (and not then amended by the mover);
- derailed: games not exact without a wrong commit (a question missing or not needed, a
  commit late or missing);
- questions: questions raised / questions the rules call for (only a player can answer them);
- worst rest->commit: the longest time from a turn's last hand movement to its commit.
"""

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# The trace generator is a test tool (tests/support), not part of the shipped package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from tracegen import CATEGORIES, Score, generate_game
from companion.tracetool import replay


def score(job: tuple[str, list[int]]) -> Score:
    category, seeds = job
    result = Score()
    for seed in seeds:
        game = generate_game(seed, variant="base" if seed % 2 else "wind", category=category)
        result.add(seed, game, list(replay(game.header, game.events)))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--category", action="append", choices=CATEGORIES,
                        help="a category of hands (repeat for several; default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per category")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--problems", type=int, default=5, help="problems to print per category")
    args = parser.parse_args()
    seeds = list(range(args.first, args.first + args.games))
    print("| hands | games | exact | wrong commits | derailed | questions | amended | worst rest->commit | p99 |")
    print("|---|---|---|---|---|---|---|---|---|")
    problems: list[str] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for category in args.category or CATEGORIES:
            parts = list(pool.map(score, [(category, seeds[i::args.jobs]) for i in range(args.jobs)]))
            total = Score()
            for part in parts:
                total.merge(part)
            delays = sorted(total.delays)
            p99 = statistics.quantiles(delays, n=100)[98] if len(delays) > 1 else delays[0]
            print(f"| {category} | {total.games} | {total.exact} | {total.wrong} "
                  f"({total.wrong_games} games) | {total.derailed} | "
                  f"{total.prompts_raised} / {total.prompts_expected} | {total.amended} | "
                  f"{delays[-1]:.3f} s | {p99:.3f} s |", flush=True)
            problems += total.problems[:args.problems]
    elapsed = time.perf_counter() - started
    print(f"\n{elapsed:.1f} s on {args.jobs} processes")
    for problem in problems:
        print("PROBLEM", problem)


if __name__ == "__main__":
    main()

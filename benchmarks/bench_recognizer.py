"""The move recognizer on generated games, through the trace tool (scanner, debounce,
recognizer on a simulated clock): what it understood, and how fast.

    python benchmarks/bench_recognizer.py [--games N] [--first SEED] [--jobs J]

Half the games are base Onitama, half Way of the Wind (0-5 Wind Spirit cards, every card
set). Prints the counts the acceptance of issue 5 asks for: games, moves, moves committed as
played, wrong commits, prompts expected and raised, and the worst and 99th-percentile delay
from the mat coming to rest to the commit (or to the prompt, when one is due).
"""

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# The trace generator is a test tool (tests/support), not part of the shipped package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from tracegen import Score, generate_game
from companion.mat.tracetool import replay


def score(seeds: list[int]) -> Score:
    result = Score()
    for seed in seeds:
        game = generate_game(seed, variant="base" if seed % 2 else "wind")
        result.add(seed, game, list(replay(game.header, game.events)))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seeds = list(range(args.first, args.first + args.games))
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        parts = list(pool.map(score, [seeds[i::args.jobs] for i in range(args.jobs)]))
    elapsed = time.perf_counter() - started
    total = Score()
    for part in parts:
        total.merge(part)
    delays = sorted(total.delays)
    p99 = statistics.quantiles(delays, n=100)[98] if len(delays) > 1 else delays[0]
    print(f"games {total.games}  moves {total.moves}  committed as played {total.committed}  "
          f"wrong commits {total.wrong}")
    print(f"prompts expected {total.prompts_expected}  raised {total.prompts_raised}")
    print(f"rest -> commit: worst {delays[-1]:.3f} s  p99 {p99:.3f} s  "
          f"median {statistics.median(delays):.3f} s")
    print(f"{elapsed:.1f} s on {args.jobs} processes ({elapsed / total.games * args.jobs:.3f} s per game)")
    for problem in total.problems[:20]:
        print("PROBLEM", problem)


if __name__ == "__main__":
    main()

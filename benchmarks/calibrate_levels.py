"""Calibrate the levels: matches between neighbouring levels at node budgets (repeatable),
each deal played twice with colours swapped, base and Wind alternating.

    nice -n 10 python benchmarks/calibrate_levels.py [--deals 12] [--hard-nodes 50000]

Prints one line per game as it goes, then the table: games, the stronger level's score and
the Elo difference with a 95 % interval.
"""

import argparse
import sys
import time

from ai_common import elo, play

from companion.ai.agent import Player
from companion.ai.levels import NAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--hard-nodes", type=int, default=50_000)
    parser.add_argument("--pairs", default=",".join(f"{a}-{b}" for a, b in zip(NAMES, NAMES[1:])))
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    rows = []
    for pair in args.pairs.split(","):
        weak, strong = pair.split("-")
        points = 0.0
        games = 0
        started = time.time()
        for deal in range(args.deals):
            variant = ("base", "wind")[deal % 2]
            seed = args.seed + deal
            for strong_seat in ("red", "blue"):
                agents = {}
                for seat, name in ((strong_seat, strong), ("blue" if strong_seat == "red" else "red", weak)):
                    agents[seat] = Player(name, seed=seed * 2 + (seat == "blue"),
                                          nodes=args.hard_nodes).choose
                winner, plies = play(variant, seed, agents["red"], agents["blue"])
                points += 1.0 if winner == strong_seat else 0.5 if winner is None else 0.0
                games += 1
                print(f"{strong} vs {weak} {variant} seed {seed} {strong} as {strong_seat}: "
                      f"winner {winner} in {plies} plies", flush=True)
        d, lo, hi = elo(points, games)
        rows.append((strong, weak, games, points, d, lo, hi, time.time() - started))
    print("\n| stronger | weaker | games | score | Elo diff (95 %) | minutes |")
    print("|---|---|---|---|---|---|")
    for strong, weak, games, points, d, lo, hi, secs in rows:
        print(f"| {strong} | {weak} | {games} | {points:g} ({100 * points / games:.0f} %) | "
              f"{d:+.0f} [{lo:+.0f}, {hi:+.0f}] | {secs / 60:.1f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

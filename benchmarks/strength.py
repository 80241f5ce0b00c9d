"""The strength acceptance: ``hard`` against the AlphaBeta and HybridMonteCarlo opponents
(``opponents.py``), colours balanced (each deal played twice, colours swapped), random card
sets, base and Wind alternating, the same seconds per move for both.

    nice -n 10 python benchmarks/strength.py --opponent alphabeta --deals 50 --time 0.5

Prints one line per game, then hard's score with an Elo estimate and 95 % interval.
"""

import argparse
import time

from ai_common import elo, play
from opponents import AlphaBeta, HybridMonteCarlo

from companion.ai.agent import Player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", choices=("alphabeta", "hybrid"), default="alphabeta")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--time", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    points = 0.0
    games = 0
    started = time.time()
    for deal in range(args.deals):
        variant = ("base", "wind")[deal % 2]
        seed = args.seed + deal
        for hard_seat in ("red", "blue"):
            hard = Player(args.level, seed=seed, seconds=args.time).choose
            other = (AlphaBeta(args.time) if args.opponent == "alphabeta"
                     else HybridMonteCarlo(args.time, seed=seed))
            red, blue = (hard, other) if hard_seat == "red" else (other, hard)
            winner, plies = play(variant, seed, red, blue)
            points += 1.0 if winner == hard_seat else 0.5 if winner is None else 0.0
            games += 1
            print(f"{variant} seed {seed} {args.level} as {hard_seat}: winner {winner} in {plies} plies",
                  flush=True)
    d, lo, hi = elo(points, games)
    print(f"\n{args.level} vs {args.opponent} at {args.time} s/move: {points:g}/{games} "
          f"({100 * points / games:.1f} %), Elo {d:+.0f} [{lo:+.0f}, {hi:+.0f}], "
          f"{(time.time() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()

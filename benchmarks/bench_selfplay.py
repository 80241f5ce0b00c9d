"""Random self-play speed per variant: games per second, with and without the leak check.

    python benchmarks/bench_selfplay.py [--games N] [--variant V,...]

The leak check runs twin games beside the real one (see companion/rules/selfplay.py), so it costs
a few times the bare game; players curious about balance can run selfplay --no-leak-check.
"""

import argparse
import time

from companion.rules.selfplay import game_seed, play_game
from companion.rules.ways import WAYS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default=",".join(WAYS))
    args = parser.parse_args()
    print(f"{'variant':<13} {'plies/game':>10} {'games/s':>9} {'games/s (leak check)':>21}")
    for variant in args.variant.split(","):
        rates, plies = [], 0
        for check in (False, True):
            started = time.perf_counter()
            for game in range(args.games):
                line = play_game(variant, game_seed(1, game), check_leaks=check)
                assert not line["leak"], line
                plies += line["plies"]
            rates.append(args.games / (time.perf_counter() - started))
        print(f"{variant:<13} {plies / (2 * args.games):>10.1f} {rates[0]:>9.1f} {rates[1]:>21.1f}")


if __name__ == "__main__":
    main()

"""Perft speed on the first community table (docs/positions.md), depths 5 and 6.

    python benchmarks/bench_perft.py [--repeat N]

Prints wall time and leaves per second with the transposition cache (as the CLI runs it) and
without it (every node generated: the raw speed a game-tree search on the Pi would see).
"""

import argparse
import statistics
import time

from companion.rules.board import Board

POSITION = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"
EXPECTED = {5: 487780, 6: 7748422}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    board = Board(POSITION)
    engine, st = board.engine, board.engine.state(board.position)
    for transpositions in (True, False):
        for depth in (5, 6):
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                leaves = engine.perft(st, depth, transpositions=transpositions)
                times.append(time.perf_counter() - started)
                assert leaves == EXPECTED[depth], leaves
            best, median = min(times), statistics.median(times)
            label = "with transpositions" if transpositions else "every node"
            print(f"depth {depth} {label:<20} {leaves:>9,} leaves  best {best:6.3f} s  "
                  f"median {median:6.3f} s  {leaves / best:>12,.0f} leaves/s")


if __name__ == "__main__":
    main()

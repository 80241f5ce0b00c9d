"""Perft speed on the first community table (docs/positions.md).

    python benchmarks/bench_perft.py [--repeat N]

Three ways, each saying what it counts:

- ``cached, last ply counted``: as the CLI runs it. A position reached by two move orders is
  counted once, and the last ply is counted with popcounts, without building its moves.
- ``no cache, last ply counted``: every interior node is generated and applied; the last ply
  is still counted in bulk. Its leaves/s is not a node rate a search would see.
- ``every leaf applied``: every move down to the leaves is generated and applied (no cache,
  no bulk count): the raw generate+apply rate a game-tree search works with. It is the
  figure ``benchmarks/bench_ai.py`` scales for the Pi.
"""

import argparse
import statistics
import time

from companion.rules.board import Board

POSITION = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"
EXPECTED = {4: 28509, 5: 487780, 6: 7748422}


def walk_every_leaf(engine, st, depth: int) -> int:
    """Perft with every move applied, the last ply included."""
    if depth == 0:
        return 1
    total = 0
    apply = engine.apply
    for mv in engine.moves(st):
        total += 1 if mv[5] else walk_every_leaf(engine, apply(st, mv), depth - 1)
    return total


def every_leaf_rate(repeat: int = 3, depth: int = 5) -> tuple[int, float]:
    """(leaves, best seconds) of the every-leaf walk at ``depth``."""
    board = Board(POSITION)
    engine, st = board.engine, board.engine.state(board.position)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        leaves = walk_every_leaf(engine, st, depth)
        times.append(time.perf_counter() - started)
        assert leaves == EXPECTED[depth], leaves
    return leaves, min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    board = Board(POSITION)
    engine, st = board.engine, board.engine.state(board.position)
    runs = [("cached, last ply counted", 5, lambda d: engine.perft(st, d)),
            ("cached, last ply counted", 6, lambda d: engine.perft(st, d)),
            ("no cache, last ply counted", 5, lambda d: engine.perft(st, d, transpositions=False)),
            ("no cache, last ply counted", 6, lambda d: engine.perft(st, d, transpositions=False)),
            ("every leaf applied", 4, lambda d: walk_every_leaf(engine, st, d)),
            ("every leaf applied", 5, lambda d: walk_every_leaf(engine, st, d))]
    for label, depth, run in runs:
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            leaves = run(depth)
            times.append(time.perf_counter() - started)
            assert leaves == EXPECTED[depth], leaves
        best, median = min(times), statistics.median(times)
        print(f"depth {depth} {label:<27} {leaves:>9,} leaves  best {best:6.3f} s  "
              f"median {median:6.3f} s  {leaves / best:>12,.0f} leaves/s")


if __name__ == "__main__":
    main()

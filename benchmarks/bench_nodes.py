"""Search node counts at a fixed depth and the moves chosen at fixed node budgets: a
fingerprint of the computer's behaviour, to compare before and after a refactor.

    python benchmarks/bench_nodes.py [--positions 12] [--depth 4]

- ``depth``: the Python search (``Searcher``) of each sampled position (seeded random base
  and Wind games, as ``bench_ai.py`` samples them) to a fixed depth: best move, score, nodes.
- ``players``: every level's ``Player`` (seed 1, its own node budget where it has one, else
  ``--nodes``, the Python search) choosing in the same positions and in seeded Shadow and
  Light seats: the action texts chosen.

The totals and a digest of every line are printed last; two runs of the same code print the
same lines (no clock is involved in what is printed, apart from the seconds line).
"""

import argparse
import hashlib
import time

from bench_ai import hidden_views, sample_views

from companion.ai.agent import Player
from companion.ai.levels import NAMES
from companion.ai.search import Limits, Searcher, search_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=3000)
    args = parser.parse_args()
    started = time.perf_counter()
    lines = []
    total = 0
    views = sample_views(args.positions)
    for i, view in enumerate(views):
        result = Searcher().search(search_state(view.board()), Limits(depth=args.depth))
        total += result.nodes
        lines.append(f"depth {args.depth} position {i}: move {result.move} score {result.score} "
                     f"nodes {result.nodes}")
    for name in NAMES:
        for kind, group in (("open", views), ("hidden", hidden_views(args.positions // 2))):
            player = Player(name, seed=1, nodes=args.nodes, native=False)
            chosen = [player.choose(view) for view in group]
            lines.append(f"player {name} {kind}: {' '.join(chosen)}")
    print("\n".join(lines))
    print(f"total nodes at depth {args.depth}: {total}")
    print(f"digest: {hashlib.sha256(chr(10).join(lines).encode()).hexdigest()[:16]}")
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()

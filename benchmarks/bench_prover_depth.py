"""How a depth-first full-width search grows with depth on four-piece endgames: why the
tables' full-depth check (bench_tablebase.py --full-depth) solves the deal forward instead.

    nice -n 10 python benchmarks/bench_prover_depth.py [--positions 5] [--plies 5,7,9,11]
        [--budget 3000000] [--seed 1]

For the deal bench_tablebase.py draws first (seed 1) and ``--positions`` positions whose table
value is longer than the deepest ``--plies``, the exact prover (``companion.ai.solve.Prover``,
no evaluation, a table of results per position and depth, the rules' own move generator)
is asked for a win within each depth, a fresh prover each time: its nodes and CPU seconds,
up to ``--budget`` nodes a question.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from endgame_checks import sample  # noqa: E402

from companion.ai import endgame  # noqa: E402
from companion.ai.solve import Budget, Prover  # noqa: E402
from companion.rules.cards import CARDS  # noqa: E402
from companion.rules.engine import Engine  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--plies", default="5,7,9,11")
    parser.add_argument("--budget", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    rng = random.Random(args.seed)
    names = [c.name for c in CARDS.in_sets(["base"])]
    deal = tuple(sorted(rng.sample(names, 5)))
    table = endgame.solve(deal)
    engine = Engine(CARDS)
    picks = [i for i in sample(table, 2000 * args.positions, rng) if table.values[i] > max(plies)]
    print(f"{', '.join(deal)}: {len(picks[:args.positions])} positions deeper than {max(plies)} plies", flush=True)
    for i in picks[:args.positions]:
        st, row = table.layout.state(i), []
        for n in plies:
            prover = Prover(engine, max_nodes=args.budget)
            cpu = time.process_time()
            try:
                prover.wins_within(st, n)
                row.append(f"{n} plies {prover.nodes:,} nodes {time.process_time() - cpu:.2f} s")
            except Budget:
                row.append(f"{n} plies over {args.budget:,} nodes ({time.process_time() - cpu:.1f} s)")
                break
        print(f"  value {table.values[i]}: " + "; ".join(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Exact endgames for a deal: build time and memory, and the acceptance checks on random
positions of several deals.

    nice -n 10 python benchmarks/bench_tablebase.py [--deals 3] [--positions 10000]
        [--prover-plies 7] [--hints 1000] [--seed 1]

For each of ``--deals`` random base-game deals (seeded): the four-piece table is built in
the native core as a game's is (CPU seconds, wall seconds, the process's peak RSS before
and after, the table's bytes), then ``--positions`` random positions it holds, shared
out over the deals, are checked:

1. one ply: each value is the best over its children's values, the moves made by the rules'
   own generator (``companion.rules.engine``, not the core's);
2. an exact full-width search (``companion.ai.solve.Prover``, no evaluation, no pruning but
   proof) agrees on the win or loss in exactly that many plies, for every position decided
   within ``--prover-plies`` plies (and, for a position with no forced result, no win
   within them for either side);
3. the hint (``companion.ai.hints``, as the phone gets it) on ``--hints`` of them: each
   destination's "wins in N" / "loses in N" / "no forced win" and grade from the table.

The load average is printed before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from endgame_checks import by_search, check_hint, one_ply, sample  # noqa: E402

from companion.ai import endgame  # noqa: E402
from companion.ai.dealtables import TABLES  # noqa: E402
from companion.rules.cards import CARDS  # noqa: E402
from companion.rules.engine import Engine  # noqa: E402


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(deal: tuple[str, ...]) -> endgame.Endgames | None:
    """The deal's table, built as a game's is (on the service's thread, where the hints find
    it); the process's CPU time covers that thread (this one only waits)."""
    rss = peak_mb()
    wall = time.perf_counter()
    cpu = time.process_time()
    TABLES.start(deal, CARDS)
    if not TABLES.wait(600):
        return None
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    table = TABLES.ready(deal, CARDS)
    assert table is not None
    counts = Counter(bytes(table.values))
    held = table.layout.size - counts[endgame.INVALID]
    print(f"{', '.join(deal)}: built in {cpu:.2f} CPU s ({wall:.2f} s wall); {table.layout.size / 1e6:.1f} MB "
          f"of values, {held:,} positions, {counts[0]:,} with no forced result, longest {table.longest} plies; "
          f"peak RSS {rss:.0f} -> {peak_mb():.0f} MB", flush=True)
    return table


def check(table: endgame.Endgames, n: int, prover_plies: int, hints: int, rng: random.Random) -> Counter:
    engine = Engine(CARDS)
    out: Counter = Counter()
    started = time.perf_counter()
    for k, i in enumerate(sample(table, n, rng)):
        st, v = table.layout.state(i), table.values[i]
        out["one ply agrees" if one_ply(table, engine, st) == v else "ONE PLY DISAGREES"] += 1
        if v <= prover_plies:
            out["search agrees" if by_search(engine, st, v, prover_plies) else "SEARCH DISAGREES"] += 1
        if k < hints:
            check_hint(table, engine, st)      # raises on a wrong word or grade
            out["hints exact"] += 1
    print(f"  {dict(out)} in {time.perf_counter() - started:.0f} s", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--prover-plies", type=int, default=7)
    parser.add_argument("--hints", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(load(), flush=True)
    rng = random.Random(args.seed)
    names = [c.name for c in CARDS.in_sets(["base"])]
    total: Counter = Counter()
    for d in range(args.deals):
        deal = tuple(sorted(rng.sample(names, 5)))
        table = build(deal)
        if table is None:
            print("  the deal's table was not built", flush=True)
            return 1
        share = args.positions // args.deals + (d < args.positions % args.deals)
        total += check(table, share, args.prover_plies, args.hints // args.deals, rng)
    print(f"all deals: {dict(total)}", flush=True)
    print(load(), flush=True)
    return 0 if not any(key.isupper() for key in total) else 1


if __name__ == "__main__":
    sys.exit(main())

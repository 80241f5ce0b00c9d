"""The tactics suite: positions with a forced win in N plies (N <= 9), proved by the exact
full-width prover (``companion.ai.solve``), then ``hard`` is asked to find the win.

    nice -n 10 python benchmarks/tactics.py [--positions 60] [--time 2.0]

Positions come from random legal games of base and Wind (seeded); a position is kept when
the prover shows the side to move wins by force and its shortest win is N plies, within a
node budget for the proof. ``hard`` finds the win when its move is one of the prover's
winning moves for that N (so it keeps the forced win) and its score says a forced win.
"""

import argparse
import random
import time
from collections import Counter

from companion.ai.search import Limits, Searcher, mate_in, search_state
from companion.ai.solve import Budget, Prover
from companion.rules.engine import Engine
from companion.rules.ways import new_referee


def positions(count: int, seed: int, most: int = 9, budget: int = 25_000):
    rng = random.Random(seed)
    found = []
    want = Counter()
    game = 0
    while len(found) < count:
        game += 1
        variant = ("base", "wind")[game % 2]
        ref = new_referee(variant, seed=seed * 1000 + game)
        while ref.result is None and len(ref.log) < 80:
            st = ref.state.st
            if len(ref.log) >= 8 and rng.random() < 0.3:
                prover = Prover(ref.engine, max_nodes=budget)
                try:
                    n = prover.shortest_win(st, most)
                    # Keep a spread of lengths: at most a quarter of the suite per N.
                    if n is not None and n >= 3 and want[n] < count // 4 + 1:
                        winning = prover.winning_moves(st, n)
                        want[n] += 1
                        found.append((variant, Engine.position(st), n, winning))
                        break
                except Budget:
                    pass
            seat = ref.to_act()[0]
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--time", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    started = time.time()
    suite = positions(args.positions, args.seed)
    print(f"{len(suite)} positions proved in {time.time() - started:.0f} s; "
          f"by N: {dict(sorted(Counter(n for _, _, n, _ in suite).items()))}")
    solved = Counter()
    times = []
    for variant, pos, n, winning in suite:
        searcher = Searcher()
        st = search_state(pos)
        result = searcher.search(st, Limits(seconds=args.time))
        ok = result.move[:6] in winning and (mate_in(result.score) or 0) > 0
        solved[n] += ok
        times.append(result.seconds)
        print(f"N={n} {variant:4} {'found' if ok else 'MISSED'} in {result.seconds:.2f} s "
              f"depth {result.depth} score {result.score}  {pos}", flush=True)
    total = sum(solved.values())
    print(f"\nhard found {total}/{len(suite)} ({100 * total / len(suite):.0f} %) within {args.time} s; "
          f"by N: " + ", ".join(f"{n}: {solved[n]}/{sum(1 for s in suite if s[2] == n)}"
                               for n in sorted({s[2] for s in suite}))
          + f"; median time {sorted(times)[len(times) // 2]:.2f} s")


if __name__ == "__main__":
    main()

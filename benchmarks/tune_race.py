"""Tune the evaluation's temple-race weights by self-play with SPSA, on the native core.

    nice -n 10 python benchmarks/tune_race.py [--iterations 300] [--nodes 20000] [--seed 7000]

Method (simultaneous perturbation stochastic approximation): each iteration draws a random
sign per tuned weight, and the weights moved up by their step on those signs play the weights
moved down, on one random deal (base and Wind alternating), twice with colours swapped,
both sides searching ``--nodes`` nodes a move with no imprecision (so a game repeats
exactly). The pair's result (-2 to +2, a draw 0) moves every weight by
``rate * step * result * sign``; ``rate`` and ``step`` shrink with the iterations, as SPSA
asks. The start is ``Weights()``'s defaults. Prints the weights every 25 iterations and at
the end the ones to put in ``Weights``'s defaults; check them with ``--verify N``, which
plays N deals (2N games) of the tuned weights against ``--against`` at the same budget.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace

from ai_common import elo, play

from companion.ai.agent import Player
from companion.ai.evaluate import Weights
from companion.ai.levels import Level
from companion.ai.native import available

# The tuned weights and their perturbation at the first iteration (hundredths of a student).
STEPS = {"race1": 12.0, "race2": 8.0, "race3": 4.0, "race_lead": 8.0, "temple": 3.0, "tempo": 6.0}
RATE = 0.2
PLIES = 160


def pair(a: Weights, b: Weights, deal: int, nodes: int) -> float:
    """``a``'s points minus ``b``'s over one deal, played twice with colours swapped."""
    lv = Level("tune", 64, None, nodes, 0.0)
    variant = ("base", "wind")[deal % 2]
    result = 0.0
    for a_seat in ("red", "blue"):
        pa = Player(lv, seed=deal, nodes=nodes, weights=a, native=True).choose
        pb = Player(lv, seed=deal, nodes=nodes, weights=b, native=True).choose
        red, blue = (pa, pb) if a_seat == "red" else (pb, pa)
        winner, _ = play(variant, deal, red, blue, max_plies=PLIES)
        result += 0.0 if winner is None else 1.0 if winner == a_seat else -1.0
    return result


def weights(base: Weights, theta: dict[str, float]) -> Weights:
    return replace(base, **{k: max(0, round(v)) for k, v in theta.items()})


def tune(iterations: int, nodes: int, seed: int) -> Weights:
    base = Weights()
    theta = {k: float(getattr(base, k)) for k in STEPS}
    rng = random.Random(seed)
    started = time.time()
    total = 0.0
    for k in range(1, iterations + 1):
        c = 1.0 / k ** 0.101
        rate = RATE / (1 + k / 100) ** 0.602
        signs = {name: rng.choice((-1, 1)) for name in STEPS}
        plus = weights(base, {n: v + c * STEPS[n] * signs[n] for n, v in theta.items()})
        minus = weights(base, {n: v - c * STEPS[n] * signs[n] for n, v in theta.items()})
        result = pair(plus, minus, seed + k, nodes)
        total += abs(result)
        for name in theta:
            theta[name] = max(0.0, theta[name] + rate * c * STEPS[name] * result * signs[name])
        if k % 25 == 0 or k == iterations:
            print(f"{k:4d} ({(time.time() - started) / 60:.1f} min, decisive share {total / (2 * k):.2f}): "
                  + ", ".join(f"{n} {v:.1f}" for n, v in theta.items()), flush=True)
    return weights(base, theta)


def verify(tuned: Weights, against: Weights, deals: int, nodes: int, seed: int) -> None:
    points = 0.0
    for deal in range(deals):
        points += (pair(tuned, against, seed + deal, nodes) + 2) / 2
    d, lo, hi = elo(points, 2 * deals)
    print(f"tuned against {against.as_dict()} at {nodes:,} nodes: {points:g}/{2 * deals} "
          f"({100 * points / (2 * deals):.1f} %), Elo {d:+.0f} [{lo:+.0f}, {hi:+.0f}]", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--verify", type=int, default=0, help="deals to check Weights() against --against")
    parser.add_argument("--against", default='{"race1": 0, "race2": 0, "race3": 0, "race_lead": 0}',
                        help="JSON changes to Weights() for the opponent of --verify (default: no race terms)")
    args = parser.parse_args()
    if not available():
        print("the native core is not built: python -m companion.ai.native.build", file=sys.stderr)
        return 1
    if args.verify:
        verify(Weights(), replace(Weights(), **json.loads(args.against)), args.verify, args.nodes, args.seed)
        return 0
    tuned = tune(args.iterations, args.nodes, args.seed)
    print(f"\nweights: {tuned.as_dict()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

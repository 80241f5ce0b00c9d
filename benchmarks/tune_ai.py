"""Tune the evaluation's weights by self-play, one weight at a time.

    nice -n 10 python benchmarks/tune_ai.py [--deals 8] [--nodes 2500] [--rounds 1]

Method (a small coordinate search): for each weight of ``companion.ai.evaluate.Weights`` in
turn, a candidate with that weight raised, then lowered, by its step plays the current
weights over ``--deals`` random deals (base and Wind alternating), each twice with colours
swapped, both sides searching ``--nodes`` nodes a move with no imprecision. A candidate that
scores at least ``--accept`` of the points replaces the current weights. The script prints
every trial and, at the end, the weights to put in ``Weights``'s defaults.
"""

import argparse
import time
from dataclasses import replace

from ai_common import play

from companion.ai.agent import Player
from companion.ai.evaluate import Weights
from companion.ai.levels import Level

STEPS = {"student": 20, "reach": 2, "master_reach": 2, "next_card": 25, "temple": 3,
         "advance": 3, "centre": 3, "tempo": 8}


def match(a: Weights, b: Weights, deals: int, nodes: int, seed: int) -> float:
    """``a``'s share of the points against ``b``."""
    lv = Level("tune", 64, None, nodes, 0.0)
    points = 0.0
    for deal in range(deals):
        variant = ("base", "wind")[deal % 2]
        for a_seat in ("red", "blue"):
            pa = Player(lv, seed=seed + deal, nodes=nodes, weights=a).choose
            pb = Player(lv, seed=seed + deal, nodes=nodes, weights=b).choose
            red, blue = (pa, pb) if a_seat == "red" else (pb, pa)
            winner, _ = play(variant, seed + deal, red, blue, max_plies=120)
            points += 1.0 if winner == a_seat else 0.5 if winner is None else 0.0
    return points / (2 * deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--nodes", type=int, default=2500)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--accept", type=float, default=0.56)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    current = Weights()
    started = time.time()
    trial = 0
    for _ in range(args.rounds):
        for name, step in STEPS.items():
            for sign in (1, -1):
                value = getattr(current, name) + sign * step
                if value < 0:
                    continue
                candidate = replace(current, **{name: value})
                trial += 1
                share = match(candidate, current, args.deals, args.nodes, args.seed + 100 * trial)
                kept = share >= args.accept
                print(f"{name} {getattr(current, name)} -> {value}: {100 * share:.0f} %"
                      f"{'  kept' if kept else ''}  ({(time.time() - started) / 60:.1f} min)", flush=True)
                if kept:
                    current = candidate
                    break
    print(f"\nweights: {current.as_dict()}")


if __name__ == "__main__":
    main()

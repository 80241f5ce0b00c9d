"""How well each weighting of the Light Master's belief forecasts its losses (calibration).

    cd benchmarks && nice -n 10 python belief_calibration.py --deals 100 --seed 7000

A Light Master (``hidden_match.py``'s belief agent, its belief read by ``--play``: the set
unless told) plays Way of the Light against today's agent, as ``hidden_match.py --mode light --opponent today
--seats red`` does. At each of its move decisions every model of ``companion.ai.belief.MODELS``
reads the same view, and for the move chosen each gives:

- the share of its weight from which a Ninja takes the master at the enemy's next turn
  (``Strata``'s exposure at once), against whether it did;
- with ``--ambush``, the three-turn ambush count of that move (``ambush.Ambush``, turns 2-3,
  the third weighed half), against whether the master fell at the 2nd or 3rd enemy turn after,
  and the factor on it that fits those losses best (least squares);
- the weight it gave the true placement (read from the referee, here only: the models
  never see it), as a log-likelihood.

Printed per model: Brier score and log loss of the exposure, the forecasts summed against the
losses, a table by forecast, and the mean log-likelihood of the truth. The better calibrated
model has the lower Brier score and log loss and sums nearer the losses.
"""

import argparse
import math
import time

from hidden_match import make

from companion.ai.ambush import Ambush
from companion.ai.belief import Belief
from companion.ai.odds import MODELS
from companion.ai.hidden import Strata
from companion.ai.levels import level as get_level
from companion.ai.view import SeatView
from companion.rules.shadow import ShadowReferee

BINS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.01)


def table(rows: list[tuple[float, int]]) -> list[str]:
    """Forecasts and outcomes by forecast bin."""
    out = []
    for lo, hi in zip(BINS, BINS[1:]):
        part = [(f, y) for f, y in rows if lo <= f < hi]
        if part:
            mean = sum(f for f, _ in part) / len(part)
            lost = sum(y for _, y in part)
            out.append(f"    {lo:.2f}-{min(hi, 1):.2f}: {len(part):5} decisions, forecast {mean:.3f}, "
                       f"lost {lost} ({lost / len(part):.3f})")
    return out


def scores(rows: list[tuple[float, int]]) -> str:
    if not rows:
        return "no decisions"
    brier = sum((f - y) ** 2 for f, y in rows) / len(rows)
    eps = 1e-3
    logloss = -sum(math.log(min(max(f, eps), 1 - eps) if y else 1 - min(max(f, eps), 1 - eps))
                   for f, y in rows) / len(rows)
    return (f"{len(rows)} decisions, Brier {brier:.4f}, log loss {logloss:.4f}, "
            f"forecast summed {sum(f for f, _ in rows):.1f}, lost {sum(y for _, y in rows)}")


def fitted(rows: list[tuple[float, int]]) -> str:
    """The factor on the forecasts that fits the outcomes best (least squares, through 0), and
    the Brier score with it: how much a count that overstates should be scaled by."""
    ff = sum(f * f for f, _ in rows)
    if not ff:
        return "no forecasts"
    a = sum(f * y for f, y in rows) / ff
    brier = sum((min(a * f, 1.0) - y) ** 2 for f, y in rows) / len(rows)
    ratio = sum(y for _, y in rows) / max(sum(f for f, _ in rows), 1e-9)
    return f"fitted factor {a:.3f} (Brier {brier:.4f}), lost / summed {ratio:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--ambush", action="store_true", help="also the three-turn ambush count's calibration")
    parser.add_argument("--play", default="set", choices=sorted(MODELS),
                        help="the model the Light Master that plays the games reads its belief by")
    args = parser.parse_args()
    models = args.models.split(",")
    nodes = get_level(args.level).nodes
    at_once: dict[str, list[tuple[float, int]]] = {m: [] for m in models}
    later: dict[str, list[tuple[float, int]]] = {m: [] for m in models}
    truth_ll: dict[str, list[float]] = {m: [] for m in models}
    missing = {m: 0 for m in models}
    started = time.time()
    points = 0.0
    for deal in range(args.deals):
        seed = args.seed + deal
        ref = ShadowReferee.deal("light", seed=seed, light="red")
        box = [ref, None]
        agents = {"red": make("belief", args.level, seed, nodes, box, belief=args.play),
                  "blue": make("today", args.level, seed + 1, nodes, box)}
        kept: dict[str, Belief | None] = {m: None for m in models}
        # Decisions waiting for their outcome: (model -> (exposure, count)), enemy turns since.
        pending: list[tuple[dict[str, tuple[float, float]], int]] = []
        while ref.result is None and len(ref.log) < 200:
            seat = ref.to_act()[0]
            box[1] = seat
            view = SeatView.from_view(ref.view(seat))
            action = agents[seat].choose(view)
            if seat == "red" and view.phase == "move":
                chosen = dict(zip(view.legal, view.actions()))[action]
                truth = tuple(sorted(ref.state.ninjas[1]))
                forecasts = {}
                for m in models:
                    belief = kept[m] = Belief(view, after=kept[m], model=m)
                    places = sorted(belief.placements)
                    weights = belief.weights(places) or [1.0 / len(places)] * len(places)
                    if truth in belief.odds:
                        truth_ll[m].append(math.log(max(weights[places.index(truth)], 1e-12)))
                    else:
                        missing[m] += 1
                    share = Strata(view, belief.engine, places, [chosen], False, weights).share.get(chosen, 0.0)
                    count = (Ambush(view, places, belief.engine, 3, None, weights).share(chosen)
                             if args.ambush else 0.0)
                    forecasts[m] = (share, count)
                pending.append((forecasts, 0))
            ref.act(seat, action)
            if seat == "blue":
                lost = int(ref.result is not None and ref.result.winner == "blue")
                still = []
                for forecasts, turns in pending:
                    turns += 1
                    for m, (share, count) in forecasts.items():
                        if turns == 1:
                            at_once[m].append((share, lost))
                        elif lost or turns == 3:
                            later[m].append((count, lost))
                    if not lost and turns < 3:
                        still.append((forecasts, turns))
                pending = still
        # Decisions whose later turns the game did not reach: the master survived them.
        for forecasts, turns in pending:
            for m, (share, count) in forecasts.items():
                if turns >= 1:
                    later[m].append((count, 0))
        points += 1.0 if ref.result is not None and ref.result.winner == "red" else (
            0.5 if ref.result is None else 0.0)
        print(f"seed {seed}: {'unfinished' if ref.result is None else ref.result.winner} in {len(ref.log)} plies",
              flush=True)
    print(f"\nLight Master ({args.play}) vs today: {points:g}/{args.deals}, {(time.time() - started) / 60:.1f} min")
    for m in models:
        print(f"\n{m} ({MODELS[m]}):")
        print("  exposure at once: " + scores(at_once[m]))
        print("\n".join(table(at_once[m])))
        if args.ambush:
            print("  count of turns 2-3 (lost at the 2nd-3rd enemy turn after): " + scores(later[m]))
            print("    " + fitted(later[m]))
            print("\n".join(table(later[m])))
        ll = truth_ll[m]
        print(f"  truth: mean log-likelihood {sum(ll) / max(len(ll), 1):.3f} over {len(ll)}, "
              f"outside the belief {missing[m]}")


if __name__ == "__main__":
    main()

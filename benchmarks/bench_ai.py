"""The computer opponent's speed: search nodes per second, think time per level, and an
estimate for a Raspberry Pi Zero 2 W.

    python benchmarks/bench_ai.py [--positions 12] [--pi-factor 10]

- nodes/s: ``hard`` searching positions from seeded random games (base and Wind) for a fixed
  node budget; a node is an interior or quiescence node the search visits (moves generated,
  ordered, applied, positions evaluated).
- think time: each level's decision time over the same positions (its own budget), by the
  clock and in CPU seconds (``--skip-rates`` prints only these tables); for Way of the
  Shadow and of the Light, over ``--hidden-games`` whole games a level, one player kept
  through each (its belief read on between decisions), on a clock that runs at the Pi's
  pace (``hidden_think_table``).
- the Pi: this machine's every-leaf perft rate (``bench_perft.py``) is measured here; the Pi
  Zero 2 W is taken as ``--pi-factor`` times slower at the same pure-Python work (about
  10x, from its cores' speed against this machine's). The think times are scaled by the
  factor: ``medium`` must answer within 2 s there, so within 2 s / factor here.
"""

import argparse
import random
import statistics
import time

from bench_perft import every_leaf_rate

from companion.ai.agent import Player
from companion.ai.hidden import HiddenPlayer
from companion.ai.levels import NAMES, level as get_level
from companion.ai.search import Limits, Searcher, search_state
from companion.ai.view import SeatView
from companion.rules.shadow import ShadowReferee
from companion.rules.ways import new_referee


def sample_views(count: int, seed: int = 11):
    rng = random.Random(seed)
    out = []
    game = 0
    while len(out) < count:
        game += 1
        ref = new_referee(("base", "wind")[game % 2], seed=seed * 100 + game)
        target = rng.randrange(0, 20)
        while ref.result is None and len(ref.log) < target:
            seat = ref.to_act()[0]
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
        if ref.result is None:
            out.append(SeatView.from_view(ref.view(ref.to_act()[0])))
    return out


def hidden_views(count: int, seed: int = 11) -> list[SeatView]:
    """Seats to move in seeded random Way of the Shadow and Way of the Light games (both
    sides of the Light), where the computer searches sampled worlds."""
    rng = random.Random(seed)
    out = []
    game = 0
    while len(out) < count:
        game += 1
        ref = ShadowReferee.deal(("shadow", "light")[game % 2], seed=seed * 100 + game,
                                 light=("red", "blue")[game // 2 % 2])
        target = rng.randrange(2, 30)
        while ref.result is None and len(ref.log) < target:
            seat = ref.to_act()[0]
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
        if ref.result is None and ref.state.phase == "move":
            out.append(SeatView.from_view(ref.view(ref.to_act()[0])))
    return out


def think_table(views: list[SeatView], names: tuple[str, ...], pi_factor: float) -> None:
    """Per level, the time to decide by the clock and in CPU seconds of this process (on a
    loaded machine the clock also counts the other work; the CPU time is what the decision
    itself cost, the figure the Pi estimate scales)."""
    print("| level | median s here | max s here | median CPU s | max CPU s | est. median s on the Pi "
          "| est. max s on the Pi |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        times, cpu = [], []
        player = Player(name, seed=1)
        for view in views:
            started, cpu_started = time.perf_counter(), time.process_time()
            player.choose(view)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        med, worst = statistics.median(times), max(times)
        cmed, cworst = statistics.median(cpu), max(cpu)
        print(f"| {name} | {med:.3f} | {worst:.3f} | {cmed:.3f} | {cworst:.3f} | {cmed * pi_factor:.2f} "
              f"| {cworst * pi_factor:.2f} |", flush=True)


def hidden_think_table(names: tuple[str, ...], pi_factor: float, games: int, tree: bool = False) -> None:
    """Per level, the computer's decisions over whole Way of the Shadow and Way of the Light
    games (both ways, both seats, the Light Master's colour alternating), one player kept
    through each game as at the table (its belief read on from one decision to the next),
    against ``easy`` at 300 nodes. The player's clock is this process's CPU time times
    ``pi_factor``: a Pi's seconds, so its level's seconds stop the search where they would
    on the Pi, and the CPU time times the factor is the Pi's think time. ``tree``: the Light
    Master searches its information-set tree (``HiddenPlayer(tree=True)``)."""
    print("| level | budget s | decisions | est. median s on the Pi | est. p90 | est. max | over budget |")
    print("|---|---|---|---|---|---|---|")

    def pi_clock() -> float:
        return time.process_time() * pi_factor

    for name in names:
        spent: list[float] = []
        for game in range(games):
            mode = ("shadow", "light")[game % 2]
            ref = ShadowReferee.deal(mode, seed=500 + game, light=("red", "blue")[game // 4 % 2])
            seat = ("red", "blue")[game // 2 % 2]
            player = Player(name, seed=game)
            player._hidden = HiddenPlayer(player, clock=pi_clock, tree=tree)
            other = Player("easy", seed=game, nodes=300)
            while ref.result is None and len(ref.log) < 120:
                to_act = ref.to_act()[0]
                view = SeatView.from_view(ref.view(to_act))
                if to_act != seat:
                    ref.act(to_act, other.choose(view))
                    continue
                started = time.process_time()
                ref.act(to_act, player.choose(view))
                spent.append((time.process_time() - started) * pi_factor)
        budget = get_level(name).seconds or 0.0
        spent.sort()
        over = sum(1 for s in spent if s > budget)
        print(f"| {name} | {budget:g} | {len(spent)} | {statistics.median(spent):.3f} "
              f"| {spent[int(len(spent) * 0.9)]:.3f} | {spent[-1]:.3f} | {over} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--pi-factor", type=float, default=10.0)
    parser.add_argument("--skip-rates", action="store_true", help="only the think-time tables")
    parser.add_argument("--hidden-games", type=int, default=4,
                        help="Way of the Shadow and of the Light: whole games a level")
    parser.add_argument("--tree", action="store_true",
                        help="the Light Master searches its information-set tree (companion/ai/infoset.py)")
    args = parser.parse_args()
    views = sample_views(args.positions)
    if not args.skip_rates:
        rates(views, args.nodes, args.pi_factor)
    think_table(views, NAMES, args.pi_factor)
    print(f"\nWay of the Shadow and Way of the Light ({args.hidden_games} whole games a level, "
          f"on a clock {args.pi_factor:g}x this process's CPU time):")
    hidden_think_table(NAMES, args.pi_factor, args.hidden_games, args.tree)
    print(f"\n(hard stops at its {get_level('hard').seconds:g} s budget; on the Pi it would be given "
          "the same seconds and search about a tenth of the nodes)")


def rates(views: list[SeatView], nodes_each: int, pi_factor: float) -> None:
    """The Python search's nodes/s on ``views`` and the perft yardstick for the Pi."""
    nodes = seconds = 0.0
    for view in views:
        st = search_state(view.board())
        result = Searcher().search(st, Limits(nodes=nodes_each))
        nodes += result.nodes
        seconds += result.seconds
    rate = nodes / seconds
    print(f"search: {nodes:,.0f} nodes in {seconds:.2f} s = {rate:,.0f} nodes/s "
          f"({len(views)} positions, {nodes_each:,} nodes each)")

    leaves, best = every_leaf_rate(repeat=2)
    print(f"perft, every leaf applied (depth 5): {leaves / best:,.0f} leaves/s here; "
          f"Pi Zero 2 W taken as {pi_factor:g}x slower: {leaves / best / pi_factor:,.0f} leaves/s, "
          f"search about {rate / pi_factor:,.0f} nodes/s\n")


if __name__ == "__main__":
    main()

"""The native search core against the Python search, side by side in one run.

    nice -n 10 python benchmarks/bench_native.py [--positions 20] [--nodes 100000]
        [--native-nodes 2000000] [--agree 0] [--games 0] [--seconds 0.5] [--old-eval] [--first 0]

1. nodes/s: both cores search the same positions (seeded random base and Wind games, as
   ``bench_ai.py`` samples them), the Python one for ``--nodes`` a position, the native one
   for ``--native-nodes`` (enough for its clock to mean something); a node is what the
   Python search counts (interior and quiescence nodes).
2. ``--agree N``: N positions searched by both at ``--nodes`` with one searcher each carried
   along a game, compared on move, score, depth, node count, line and root scores.
3. ``--games N``: ``hard`` on the native core against ``hard`` on the Python search at
   ``--seconds`` a move each, colours alternating, random base deals; the score and its Elo.
   ``--old-eval``: the Python side plays the evaluation before the temple race
   (``OLD_WEIGHTS``), the deals alternate base and Wind; ``--first`` numbers the games from
   there (two processes play two halves: the seed of game g is 5000 + g).

The load average is printed before and after: the machine is shared, so the rates are given
per second of the clock and per second of CPU time the process had.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from ai_common import elo, play  # noqa: E402
from bench_ai import sample_views  # noqa: E402

from companion.ai.agent import Player  # noqa: E402
from companion.ai.evaluate import Weights  # noqa: E402
from companion.ai.native import NativeSearcher, available  # noqa: E402
from companion.ai.search import Limits, Searcher, search_state  # noqa: E402
from companion.rules.engine import Engine  # noqa: E402
from companion.rules.ways import new_referee  # noqa: E402


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def rates(positions: int, nodes: int, native_nodes: int) -> None:
    views = sample_views(positions)
    for name, make, budget in (("python", Searcher, nodes), ("native", NativeSearcher, native_nodes)):
        total = seconds = cpu = 0.0
        for view in views:
            searcher = make()
            started = time.process_time()
            result = searcher.search(search_state(view.board()), Limits(nodes=budget))
            cpu += time.process_time() - started
            total += result.nodes
            seconds += result.seconds
        print(f"{name}: {total:,.0f} nodes in {seconds:.2f} s = {total / seconds:,.0f} nodes/s; "
              f"{total / cpu:,.0f} nodes per CPU second ({len(views)} positions, {budget:,} nodes each)",
              flush=True)


def agreement(count: int, nodes: int) -> None:
    same = done = 0
    seed = 0
    while done < count:
        seed += 1
        variant = ("base", "wind")[seed % 2]
        ref = new_referee(variant, seed=1000 + seed)
        # One table size for both: a table cleared at another time gives other searches.
        py = Searcher(ref.cards, tt_limit=100_000)
        native = NativeSearcher(ref.cards, tt_limit=100_000, native_tt_limit=100_000)
        while ref.result is None and done < count:
            if ref.state.phase == "move":
                st = search_state(Engine.position(ref.state.st[:8] + ((ref.state.st[8][0],),)))
                ways = (dict(), dict(root_scores=True), dict(root_scores=True, margin=72))[done % 3]
                a, b = (s.search(st, Limits(nodes=nodes), **ways) for s in (py, native))
                same += (a.move, a.score, a.depth, a.nodes, a.pv, a.root) == (b.move, b.score, b.depth, b.nodes,
                                                                               b.pv, b.root)
                done += 1
            seat = ref.to_act()[0]
            legal = ref.legal_actions(seat)
            ref.act(seat, legal[(done * 7919 + seed) % len(legal)])
    print(f"agreement: {same} of {done} positions identical (move, score, depth, nodes, line, root "
          f"scores) at {nodes:,} nodes", flush=True)


# Today's evaluation before the temple race (commit 5129cf1): no race terms.
OLD_WEIGHTS = Weights(student=100, reach=9, master_reach=7, next_card=25, temple=6, advance=1, centre=5,
                      tempo=28, race1=0, race2=0, race3=0, race_lead=0)


def match(games: int, seconds: float, old_eval: bool = False, first: int = 0) -> None:
    points = 0.0
    python_weights = OLD_WEIGHTS if old_eval else Weights()
    for game in range(first, first + games):
        native = Player("hard", seed=game, seconds=seconds)
        python = Player("hard", seed=game, seconds=seconds, native=False, weights=python_weights)
        red, blue = (native, python) if game % 2 == 0 else (python, native)
        variant = ("base", "wind")[game // 2 % 2] if old_eval else "base"
        winner, plies = play(variant, 5000 + game, red.choose, blue.choose)
        native_seat = "red" if game % 2 == 0 else "blue"
        points += 0.5 if winner is None else float(winner == native_seat)
        print(f"game {game + 1}: {variant}, native {native_seat}, winner {winner}, {plies} plies", flush=True)
    diff, low, high = elo(points, games)
    print(f"native hard vs python hard{' (old evaluation)' if old_eval else ''} at {seconds:g} s a move: "
          f"{points:g}/{games} ({diff:+.0f} Elo, 95 % {low:+.0f} to {high:+.0f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--native-nodes", type=int, default=2_000_000)
    parser.add_argument("--agree", type=int, default=0)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--old-eval", action="store_true", help="the Python side with the evaluation before the race terms")
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    args = parser.parse_args()
    if not available():
        print("the native core is not built: python -m companion.ai.native.build", file=sys.stderr)
        return 1
    print(load(), flush=True)
    started = time.perf_counter()
    if args.positions:
        rates(args.positions, args.nodes, args.native_nodes)
    if args.agree:
        agreement(args.agree, args.nodes)
    if args.games:
        match(args.games, args.seconds, args.old_eval, args.first)
    print(f"{load()} ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

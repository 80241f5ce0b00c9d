"""Exact endgames for a deal: build time and memory, and the acceptance checks on random
positions of several deals.

    nice -n 10 python benchmarks/bench_tablebase.py [--deals 3] [--positions 10000]
        [--prover-plies 7] [--hints 1000] [--seed 1] [--full-depth] [--first 0] [--count N]
        [--pieces 4] [--fixpoint-states 30]

For each of ``--deals`` random base-game deals (seeded): the table of ``--pieces`` pieces
(4, 5 or 6: both masters and up to 2, 3 or 4 students) is built in the native core (four
pieces as a game's is; more, by ``endgame.solve`` on this thread) (CPU seconds, wall
seconds, the process's peak RSS before and after, the table's bytes), then ``--positions``
random positions it holds, shared out over the deals, are checked:

1. one ply: each value is the best over its children's values, the moves made by the rules'
   own generator (``companion.rules.engine``, not the core's);
2. an exact full-width search (``companion.ai.solve.Prover``, no evaluation, no pruning but
   proof) agrees on the win or loss in exactly that many plies, for every position decided
   within ``--prover-plies`` plies (and, for a position with no forced result, no win
   within them for either side);
3. with ``--full-depth``, a full-depth search independent of the table's retrograde
   solver (``endgame_checks.Forward``, ``tests/support/native/forward.c``: every position of
   the deal, either side to move, solved forward by plain minimax iterated to a fixpoint on
   a move generator of its own) gives the same value: the position as drawn (Red to move)
   and turned half a turn (Blue to move); and the whole table is compared with it too. With
   five or six pieces (too large to solve forward: ``forward.c`` indexes two students) the
   whole table (or ``--fixpoint-states`` of its 30 card states) is checked instead as the
   fixpoint of minimax, each entry against its children's entries by forward.c's generator
   (``endgame_checks.fixpoint``: minimax values are the only table that passes);
4. the hint (``companion.ai.hints``, as the phone gets it) on ``--hints`` of them: each
   destination's "wins in N" / "loses in N" / "no forced win" and grade from the values
   (the full-depth search's with ``--full-depth``, else the table's).

``--first`` and ``--count`` check only the positions numbered so (0 to ``--positions`` - 1,
deal by deal; the same positions as in a whole run), for runs in chunks: every table is
built and every position drawn, and a deal with none of them in range is not solved again.
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

from endgame_checks import Forward, by_search, check_hint, fixpoint, one_ply, sample  # noqa: E402

from companion.ai import endgame  # noqa: E402
from companion.ai.dealtables import TABLES  # noqa: E402
from companion.rules.cards import CARDS  # noqa: E402
from companion.rules.engine import Engine, State  # noqa: E402
from companion.rules.position import BLUE  # noqa: E402


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def counted(values: memoryview) -> tuple[int, int]:
    """The positions held and those with no forced result, a chunk at a time (a six-piece
    table is 5.9 GB: no copy of it whole)."""
    invalid = undecided = 0
    step = 1 << 28
    for at in range(0, len(values), step):
        chunk = values[at:at + step].tobytes()
        invalid += chunk.count(endgame.INVALID)
        undecided += chunk.count(0)
    return len(values) - invalid, undecided


def build(deal: tuple[str, ...], pieces: int = 4) -> endgame.Endgames | None:
    """The deal's table, built as a game's is (on the service's thread, where the hints find
    it) for four pieces, else here; the process's CPU time covers that thread (this one only
    waits)."""
    rss = peak_mb()
    wall = time.perf_counter()
    cpu = time.process_time()
    if pieces == 4:
        TABLES.start(deal, CARDS)
        if not TABLES.wait(600):
            return None
        table = TABLES.ready(deal, CARDS)
    else:
        table = endgame.solve(deal, CARDS, students=pieces - 2)
        # The hints find the game's table where the service keeps it.
        TABLES.ready = lambda cards, table_=None: table
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    built_peak = peak_mb()      # before the counting below copies chunks
    assert table is not None
    held, undecided = counted(memoryview(table.values))
    print(f"{', '.join(deal)}: {pieces} pieces built in {cpu:.2f} CPU s ({wall:.2f} s wall); "
          f"{table.layout.size / 1e6:.1f} MB of values, {held:,} positions, {undecided:,} with no forced "
          f"result, longest {table.longest} plies; peak RSS {rss:.0f} -> {built_peak:.0f} MB", flush=True)
    return table


def full_depth(table: endgame.Endgames) -> Forward:
    """The deal solved forward to full depth, and the whole table compared with it."""
    rss = peak_mb()
    wall = time.perf_counter()
    cpu = time.process_time()
    forward = Forward(table.cards)
    forward.solve()
    cpu = time.process_time() - cpu
    held, rounds, undecided = forward.stats()
    wrong, first = forward.compare(table)
    print(f"  full depth: {held:,} positions (either side to move) solved forward in {rounds} rounds, "
          f"{cpu:.1f} CPU s ({time.perf_counter() - wall:.1f} s wall, compare included), "
          f"{undecided:,} with no forced result; peak RSS {rss:.0f} -> {peak_mb():.0f} MB", flush=True)
    print(f"  whole table: {'every entry agrees' if not wrong else f'{wrong:,} DISAGREE, first {first}'} "
          f"(as it stands and turned half a turn)", flush=True)
    return forward


def whole_fixpoint(table: endgame.Endgames, card_states: int) -> int:
    """Five and six pieces, too large to solve forward: the first ``card_states`` of the 30
    card states' entries (all 30: the whole table) checked against minimax of their
    children's (``endgame_checks.fixpoint``, forward.c's generator). The disagreements."""
    rows = table.layout.size // 30
    wall = time.perf_counter()
    cpu = time.process_time()
    wrong = 0
    for cs in range(card_states):
        found, first = fixpoint(table, cs * rows, rows)
        if found and not wrong:
            print(f"  FIXPOINT DISAGREES at {first}", flush=True)
        wrong += found
    print(f"  full depth (fixpoint): {card_states} of 30 card states, {card_states * rows:,} entries, "
          f"{'every entry agrees' if not wrong else f'{wrong:,} DISAGREE'}; {time.process_time() - cpu:.0f} CPU s "
          f"({time.perf_counter() - wall:.0f} s wall)", flush=True)
    return wrong


def turned(st: State) -> State:
    """The same position turned half a turn: the other colour to move, squares q -> 24 - q."""
    def turn(mask: int) -> int:
        return sum(1 << (24 - q) for q in range(25) if mask >> q & 1)
    own, opp, mo, mp, sp, color, ho, hp, side = st
    return (turn(own), turn(opp), 24 - mo, 24 - mp, sp, color ^ 1, ho, hp, side)


def check(table: endgame.Endgames, picks: list[int], numbers: range, args: argparse.Namespace,
          hints: int) -> Counter:
    """The checks on the positions ``picks`` whose numbers (``numbers``, in order) are in
    ``--first``/``--count``'s range; the first ``hints`` of the deal's get the hint's."""
    engine = Engine(CARDS)
    out: Counter = Counter()
    chosen = [(k, i) for k, (n, i) in enumerate(zip(numbers, picks))
              if args.first <= n < args.first + args.count]
    if not chosen:
        return out
    forward = full_depth(table) if args.full_depth and table.pieces <= 4 else None
    if args.full_depth and table.pieces > 4 and whole_fixpoint(table, args.fixpoint_states):
        out["FIXPOINT DISAGREES"] += 1
    started = time.perf_counter()
    for k, i in chosen:
        st, v = table.layout.state(i), table.values[i]
        out["one ply agrees" if one_ply(table, engine, st) == v else "ONE PLY DISAGREES"] += 1
        if v <= args.prover_plies:
            out["search agrees" if by_search(engine, st, v, args.prover_plies) else "SEARCH DISAGREES"] += 1
        if forward is not None:
            both = forward.value(st) == v == forward.value(turned(st)) == table.value(turned(st))
            out["full depth agrees" if both else "FULL DEPTH DISAGREES"] += 1
            out[f"full depth, {'no forced result' if not v else 'wins' if v & 1 else 'loses'}"] += 1
        if k < hints:
            check_hint(forward or table, engine, st)      # raises on a wrong word or grade
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
    parser.add_argument("--full-depth", action="store_true",
                        help="check every position against the forward full-depth solve")
    parser.add_argument("--first", type=int, default=0, help="the first position checked")
    parser.add_argument("--count", type=int, default=None, help="how many positions are checked")
    parser.add_argument("--pieces", type=int, default=4, choices=(4, 5, 6),
                        help="both masters and up to 2, 3 or 4 students")
    parser.add_argument("--fixpoint-states", type=int, default=30,
                        help="with --full-depth and more than four pieces: how many of the 30 card "
                             "states' entries are checked (30: the whole table)")
    args = parser.parse_args(argv)
    if args.count is None:
        args.count = args.positions
    print(load(), flush=True)
    rng = random.Random(args.seed)
    names = [c.name for c in CARDS.in_sets(["base"])]
    total: Counter = Counter()
    drawn = 0
    for d in range(args.deals):
        deal = tuple(sorted(rng.sample(names, 5)))
        table = build(deal, args.pieces)
        if table is None:
            print("  the deal's table was not built", flush=True)
            return 1
        share = args.positions // args.deals + (d < args.positions % args.deals)
        numbers = range(drawn, drawn + share)
        drawn += share
        hints = args.hints // args.deals + (d < args.hints % args.deals)
        total += check(table, sample(table, share, rng), numbers, args, hints)
        if args.pieces > 4:     # given back before the next is built (six pieces: 5.9 GB each)
            del TABLES.ready
            table = None
    print(f"all deals: {dict(total)}", flush=True)
    print(load(), flush=True)
    return 0 if not any(key.isupper() for key in total) else 1


if __name__ == "__main__":
    sys.exit(main())

"""The move recognizer on generated games, through the trace tool (the real scanner on the
simulated matrix, the real debounce, the recognizer, on a simulated clock): what it
understood, and how fast, for each category of hands (tests/support/tracegen.py, habits.py).

    nice -n 10 python benchmarks/bench_recognizer.py [--category NAME ...] [--games N]
                                                    [--first SEED] [--jobs J] [--problems K]

Each category plays N games, half base Onitama and half Way of the Wind (0-5 Wind Spirit
cards, every card set; always Wind where the habit needs the Spirit). Scored as issue 21
measures (tests/support/tracescore.py): on the moves that stand after the recognizer's own
amendments, against the game played. One row per category:

- exact: games whose record is the game played, not wedged, without a commit before rest, each
  timed turn committed within 0.5 s of its rest (or of its answer);
- wrong commits: moves of the final record that were not played there (in how many games);
- wedged: games ending in a mismatch (a `mismatch` with no `synced` after it);
- before rest: commits made while the hands were still at work (not after the settle time of
  stillness, not at an answer, not at the next player's first lift);
- questions: raised / called for by the rules (information: a recognizer may ask less when
  the next hands settle a question);
- rest->commit: worst and p99 over the timed turns that stand (turns left waiting on an open
  question are not timed).

Then, per category, the recognizer's cost per call (``update`` and ``advance``, timed with
``time.perf_counter`` around each call; the replay calls it at every change of the debounced
mat and at each of its deadlines, the scans in between would change nothing): median, p99 and
max (wall-clock, and the process's CPU time: on a loaded machine the wall clock also counts
the time the process waited for a core); and, if the recognizer has a ``hypotheses``
attribute (the number of live histories), its median, p99 and max after each call, at rest
(an ``advance`` at least the settle time after the last ``update``) and in motion (every
other call). A trace whose header gives a settle time (the ``robot`` hands) is read with it.
The CPU time is also given without the pauses of Python's cyclic garbage collector that fell
inside a call (``gc.callbacks``): a full collection scans every object of the process, so it
measures the heap (here the generator's and the harness's too), not the call it lands in.
Before each game's replay everything the process holds is frozen (``gc.freeze``), as the
service freezes what its start-up made (companion/serve.py): the collector then scans what
the game makes, as on the Pi (``--no-freeze``: the whole heap, as before session 36). And as
the service does once started (companion/table/collector.py), the automatic collector is off
during the replay and the pass that is due runs after each call, outside it; those passes are
timed apart ("between calls"). ``--auto-gc``: the automatic collector, inside the calls, as
before session 39.
"""

import argparse
import functools
import gc
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

# The trace generator is a test tool (tests/support), not part of the shipped package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from tracegen import CATEGORIES, Score, generate_game, variant_for
import companion.tracetool as tracetool
from companion.tracetool import SETTLE_S, replay
from companion.table.collector import collect_due, take_over

# The trace tool's own recognizer: each category's jobs wrap this one (a worker process runs
# several categories; wrapping the wrapper would time each call once per category before it).
RECOGNIZER = tracetool.Recognizer


@dataclass
class Cost:
    """The recognizer's time per call and live histories per call."""
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)     # the process's CPU time per call
    own: list[float] = field(default_factory=list)     # ... less the collector's pauses in it
    between: list[float] = field(default_factory=list)  # CPU of the passes run after a call
    at_rest: list[int] = field(default_factory=list)
    in_motion: list[int] = field(default_factory=list)
    counted: bool = False    # the recognizer has a ``hypotheses`` attribute
    played: float = 0.0      # the seconds of play replayed (each trace's first to last event)

    def merge(self, other: "Cost") -> None:
        self.seconds += other.seconds
        self.cpu += other.cpu
        self.own += other.own
        self.between += other.between
        self.at_rest += other.at_rest
        self.in_motion += other.in_motion
        self.counted |= other.counted
        self.played += other.played


class _Collector:
    """The CPU time the cyclic garbage collector has spent so far (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._began = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.process_time()
        else:
            self.spent += time.process_time() - self._began


@functools.cache
def _collector() -> _Collector:
    """The process's one collector watch (one callback, however many categories it runs)."""
    return _Collector()


def _measured(cost: Cost, between: bool) -> type:
    """The trace tool's recognizer, timed and counted around each call; with ``between``,
    the collector's pass that is due runs after each call, as the service's game thread runs
    it after each event."""
    base = RECOGNIZER
    collector = _collector()

    class Measured(base):  # type: ignore[misc, valid-type]
        _moved_at = 0.0

        def update(self, t, occupancy):
            self._moved_at = t
            return self._measure(super().update, False, t, occupancy)

        def advance(self, t):
            return self._measure(super().advance, t - self._moved_at >= self.settle, t)

        def _measure(self, call, rest, *args):
            started, cpu, paused = time.perf_counter(), time.process_time(), collector.spent
            events = list(call(*args))
            cost.seconds.append(time.perf_counter() - started)
            cost.cpu.append(time.process_time() - cpu)
            cost.own.append(cost.cpu[-1] - (collector.spent - paused))
            live = getattr(self, "hypotheses", None)
            if isinstance(live, int):
                cost.counted = True
                (cost.at_rest if rest else cost.in_motion).append(live)
            if between:
                cpu = time.process_time()
                if collect_due() is not None:
                    cost.between.append(time.process_time() - cpu)
            return events

    return Measured


def score(job: tuple[str, list[int], bool, bool]) -> tuple[Score, Cost]:
    category, seeds, freeze, between = job
    result, cost = Score(), Cost()
    tracetool.Recognizer = _measured(cost, between)
    for seed in seeds:
        game = generate_game(seed, variant=variant_for(category, seed), category=category)
        settle = game.header.get("settle", SETTLE_S)   # (the robot's hands: its own)
        if freeze:
            gc.collect()
            gc.freeze()
        if between:
            take_over()
        events = list(replay(game.header, game.events, settle=settle))
        times = [e["t"] for e in game.events if "t" in e]
        cost.played += max(times) - min(times) if times else 0.0
        gc.enable()
        gc.unfreeze()
        result.add(seed, game, events, settle=settle)
    return result, cost


def _spread(values: list[float], scale: float = 1.0, fmt: str = "{:.0f}") -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return " / ".join(fmt.format(v * scale) for v in (statistics.median(ordered), p99, ordered[-1]))


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--category", action="append", choices=CATEGORIES,
                        help="a category of hands (repeat for several; default: all)")
    parser.add_argument("--games", type=int, default=200, help="games per category")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--problems", type=int, default=3, help="problems to print per category")
    parser.add_argument("--no-freeze", action="store_true",
                        help="leave the process's heap to the collector (see above)")
    parser.add_argument("--auto-gc", action="store_true",
                        help="the automatic collector, inside the calls (see above)")
    args = parser.parse_args()
    seeds = list(range(args.first, args.first + args.games))
    print("| hands | games | exact | wrong commits | wedged | before rest | questions | amended "
          "| worst rest->commit | p99 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    problems: list[str] = []
    costs: dict[str, Cost] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for category in args.category or CATEGORIES:
            jobs = [(category, seeds[i::args.jobs], not args.no_freeze, not args.auto_gc)
                    for i in range(args.jobs)]
            total, cost = Score(), Cost()
            for part, part_cost in pool.map(score, jobs):
                total.merge(part)
                cost.merge(part_cost)
            costs[category] = cost
            delays = sorted(total.delays)
            p99 = delays[min(len(delays) - 1, int(0.99 * len(delays)))] if delays else float("nan")
            worst = delays[-1] if delays else float("nan")
            print(f"| {category} | {total.games} | {total.exact} ({_pct(total.exact, total.games)}) "
                  f"| {total.wrong} ({total.wrong_games} games) | {total.wedged} "
                  f"| {total.early} ({total.early_games} games) "
                  f"| {total.prompts_raised} / {total.prompts_expected} | {total.amended} "
                  f"| {worst:.3f} s | {p99:.3f} s |", flush=True)
            problems += total.problems[:args.problems]
    elapsed = time.perf_counter() - started
    print("\n| hands | time per call, µs (median / p99 / max) | CPU time per call, µs "
          "| CPU less GC pauses, µs | hypotheses at rest | in motion |")
    print("|---|---|---|---|---|---|")
    for category, cost in costs.items():
        rest = _spread(cost.at_rest) if cost.counted else "n/a"
        motion = _spread(cost.in_motion) if cost.counted else "n/a"
        print(f"| {category} | {_spread(cost.seconds, 1e6)} | {_spread(cost.cpu, 1e6)} "
              f"| {_spread(cost.own, 1e6)} | {rest} "
              f"| {motion} |")
    every = Cost()
    for cost in costs.values():
        every.merge(cost)
    print(f"| all | {_spread(every.seconds, 1e6)} | {_spread(every.cpu, 1e6)} | "
          f"{_spread(every.own, 1e6)} | "
          f"{_spread(every.at_rest) if every.counted else 'n/a'} | "
          f"{_spread(every.in_motion) if every.counted else 'n/a'} |")
    if every.between:
        print(f"\nThe collector's passes between calls: {len(every.between)} of {len(every.cpu)} "
              f"calls, CPU µs {_spread(every.between, 1e6)}")
    # The collector's work on the game thread per second of play (a Pi's scan loop runs it):
    # the passes after calls, else the pauses inside them.
    pauses = every.between or [c - o for c, o in zip(every.cpu, every.own) if c > o]
    if pauses and every.played:
        what = "passes" if every.between else "calls' pauses"
        print(f"The collector per second of play ({every.played:.0f} s replayed): "
              f"{len(pauses)} {what} x their median {1e6 * statistics.median(pauses):.0f} µs = "
              f"{1e3 * len(pauses) * statistics.median(pauses) / every.played:.2f} ms, "
              f"all passes {1e3 * sum(pauses) / every.played:.2f} ms")
    if not every.counted:
        print("(the recognizer has no `hypotheses` attribute: histories not counted)")
    print(f"\n{elapsed:.1f} s on {args.jobs} processes")
    for problem in problems:
        print("PROBLEM", problem)


if __name__ == "__main__":
    main()

"""Where the recognizer's slowest calls go: a profile of only the calls at or above a
quantile of the CPU time per call (the p99 by default), on generated games.

    PYTHONHASHSEED=0 PYTHONPATH=. nice -n 10 python benchmarks/profile_recognizer.py \\
        --category air-touch [--category ...] [--games 5] [--first 0] [--quantile 0.99] \\
        [--sort tottime|cumtime] [--rows 40] [--callers REGEX]

The games are replayed twice through the trace tool, as ``bench_recognizer.py`` replays them
(the heap frozen before each game, the cyclic collector off during it). The first pass times
each ``update`` and ``advance`` with ``time.process_time``; the second has ``cProfile`` on
only around the calls whose time was at or above the quantile. The recognizer reads the
trace on its own clock, so both passes make the same calls, in the same order: the n-th call
of the second pass is the n-th of the first. The profile is of those calls alone (the
median call's work does not hide theirs). ``--callers``: also who called the functions whose
name matches.
"""

import argparse
import cProfile
import gc
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from tracegen import CATEGORIES, generate_game, variant_for
import companion.tracetool as tracetool
from companion.tracetool import SETTLE_S, replay

RECOGNIZER = tracetool.Recognizer


def replayed(games: list, profiled: set[int] | None = None,
             profile: cProfile.Profile | None = None) -> list[float]:
    """Each call's CPU time over ``games``; the calls numbered in ``profiled`` are profiled."""
    times: list[float] = []

    class Timed(RECOGNIZER):  # type: ignore[misc, valid-type]
        def update(self, t, occupancy):
            return self._timed(super().update, t, occupancy)

        def advance(self, t):
            return self._timed(super().advance, t)

        def _timed(self, call, *args):
            on = profile is not None and profiled is not None and len(times) in profiled
            began = time.process_time()
            if on:
                profile.enable()
            events = list(call(*args))
            if on:
                profile.disable()
            times.append(time.process_time() - began)
            return events

    tracetool.Recognizer = Timed
    try:
        for game in games:
            gc.collect()
            gc.freeze()
            gc.disable()
            list(replay(game.header, game.events, settle=game.header.get("settle", SETTLE_S)))
            gc.enable()
            gc.unfreeze()
    finally:
        tracetool.Recognizer = RECOGNIZER
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--category", action="append", choices=CATEGORIES, required=True)
    parser.add_argument("--games", type=int, default=5, help="games per category")
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--quantile", type=float, default=0.99,
                        help="profile the calls at or above this quantile of CPU time")
    parser.add_argument("--sort", default="tottime", help="pstats sort key")
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--callers", help="also print the callers of functions matching this")
    args = parser.parse_args()
    games = [generate_game(seed, variant=variant_for(category, seed), category=category)
             for category in args.category
             for seed in range(args.first, args.first + args.games)]
    times = replayed(games)
    ordered = sorted(times)
    cut = ordered[min(len(ordered) - 1, int(args.quantile * len(ordered)))]
    slow = {i for i, spent in enumerate(times) if spent >= cut}
    print(f"{len(times)} calls, CPU µs median {1e6 * ordered[len(ordered) // 2]:.0f}, "
          f"p99 {1e6 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:.0f}, "
          f"max {1e6 * ordered[-1]:.0f}; profiling the {len(slow)} calls of "
          f"{1e6 * cut:.0f} µs or more ({1e3 * sum(times[i] for i in slow):.0f} ms unprofiled)")
    # (CPU time, not the wall clock: on a loaded machine the wall clock charges the time the
    # process waited for a core to whichever function it waited in.)
    profile = cProfile.Profile(time.process_time)
    again = replayed(games, slow, profile)
    assert len(again) == len(times), "the second pass made other calls"
    stats = pstats.Stats(profile)
    stats.sort_stats(args.sort).print_stats(args.rows)
    if args.callers:
        stats.print_callers(args.callers)


if __name__ == "__main__":
    main()

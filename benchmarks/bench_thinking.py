"""The table's responsiveness while the computer thinks.

    python benchmarks/bench_thinking.py [--level hard] [--samples 200]

A base game on the simulated table, the computer playing Blue at ``--level`` (its own time
budget). While it thinks on the thinker's thread, a phone's request (``submit``, a refused
hint: a full round trip through the game thread) is timed over and over; and the same with
nobody thinking. The searches are pure Python: they share the interpreter with
the game thread, which gets its turn at each switch interval (5 ms by default).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from companion.rules.position import board_pieces  # noqa: E402
from companion.rules.squares import parse_square  # noqa: E402
from companion.table.errors import Conflict  # noqa: E402
from sim_table import sim_companion  # noqa: E402
from waiting import wait_for  # noqa: E402


def request_ms(companion) -> float:
    start = time.perf_counter()
    try:
        companion.submit("red", {"type": "hint"})
    except Conflict:
        pass
    return (time.perf_counter() - start) * 1000


def report(title: str, times: list[float]) -> None:
    print(f"{title} ({len(times)} requests): median {statistics.median(times):.2f} ms, "
          f"max {max(times):.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard")
    ap.add_argument("--samples", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sim_companion(Path(tmp) / "g.db", public_url=None) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": 1,
                                "computer": {"blue": args.level}})
        view = companion.view(None)
        hw.sim.set_pawns(frozenset(board_pieces(view["table"]["position"])))
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        first = view["table"]["to_act"][0]
        report("nobody thinking", [request_ms(companion) for _ in range(args.samples)])
        if first == "red":
            legal = companion.view("red")["table"]["legal"]
            pairs = [(a["from"], a["to"]) for a in legal]
            a = next(a for a in legal if pairs.count((a["from"], a["to"])) == 1)
            hw.sim.lift(parse_square(a["from"]))
            hw.sim.place(parse_square(a["to"]))
        wait_for(lambda: companion.view(None)["game"]["thinking"]
                 or companion.view(None)["game"]["expected"], timeout=10)
        busy: list[float] = []
        while companion.view(None)["game"]["thinking"]:
            busy.append(request_ms(companion))
        if busy:
            report(f"while {args.level} thinks", busy)
        else:
            print(f"{args.level} decided before a request could be timed")


if __name__ == "__main__":
    main()

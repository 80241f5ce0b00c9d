"""The service's memory while the computer plays itself (issue 25, bounded memory).

    nice -n 10 python benchmarks/bench_memory.py [--minutes 10] [--level hard] [--python]

Starts ``onitama-companion sim`` (the real service and web app, simulated hardware) in its
own process, sets up base games with both seats played by the computer at ``--level``, and
makes every move the table asks for on the simulated mat over HTTP, game after game, for
``--minutes``. The service's resident memory (VmRSS) is sampled every second: printed at the
start of play, each minute, and its peak. ``--python`` runs the service on the Python search
(``ONITAMA_NATIVE=0``). The tables are sized for a machine that is not a Pi (the larger
budget of ``companion/ai/memory.py``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from tempfile import TemporaryDirectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_service import get, post, rss_kb, set_up, wait  # noqa: E402

from companion.rules.actions import parse_action  # noqa: E402
from companion.rules.board import Board  # noqa: E402
from companion.rules.moves import Move  # noqa: E402
from companion.rules.squares import square_name  # noqa: E402


def make(base: str, position: str, move: Move) -> None:
    """Hands make the computer's move: a captured pawn off, then the moving one across."""
    occupied = Board(position).position.occupied()
    if move.to_sq in occupied:
        post(base + "/sim/lift", {"square": square_name(move.to_sq)})
        time.sleep(0.15)
    post(base + "/sim/lift", {"square": square_name(move.from_sq)})
    time.sleep(0.15)
    post(base + "/sim/place", {"square": square_name(move.to_sq)})


def play(base: str, seed: int, level: str, until: float) -> int:
    """One computer-against-computer game (or until ``until``); returns its plies."""
    post(base + "/api/new-game", {"variant": "base", "seed": seed, "computer": {"red": level, "blue": level}})
    set_up(base)
    wait(lambda: get(base + "/api/view")["game"]["status"] == "playing")
    while time.monotonic() < until:
        view = get(base + "/api/view")
        game, table = view["game"], view["table"]
        if game["status"] == "finished":
            break
        if game["status"] == "sync":
            set_up(base)
            time.sleep(0.3)
            continue
        if view["mat"]["prompt"]:
            post(base + "/sim/button", {"button": "A"})
            time.sleep(0.3)
            continue
        expected = game["expected"]
        if expected is None:
            time.sleep(0.05)
            continue
        move = parse_action(expected["text"])
        before = len(table["log"])
        if isinstance(move, Move) and not move.is_pass:
            make(base, table["position"], move)
        wait(lambda: len(get(base + "/api/view")["table"]["log"]) > before
             or get(base + "/api/view")["game"]["status"] != "playing", timeout=30)
    return len(get(base + "/api/view")["table"]["log"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--python", action="store_true", help="the Python search (ONITAMA_NATIVE=0)")
    args = parser.parse_args()
    env = dict(os.environ, **({"ONITAMA_NATIVE": "0"} if args.python else {}))
    with TemporaryDirectory() as state:
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "sim", "--port", "0",
                                 "--state", state, "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        try:
            assert proc.stdout is not None
            base = next(line.split()[1].rstrip("/") for line in proc.stdout if line.startswith("table:"))
            get(base + "/api/view")
            samples: list[tuple[float, int]] = []
            stop = threading.Event()
            started = time.monotonic()

            def sample() -> None:
                while not stop.wait(1.0):
                    samples.append((time.monotonic() - started, rss_kb(proc.pid)))

            print(f"idle: {rss_kb(proc.pid) / 1024:.1f} MB", flush=True)
            threading.Thread(target=sample, daemon=True).start()
            until = started + args.minutes * 60
            games = plies = 0
            minute = 1
            stuck = 0
            while time.monotonic() < until:
                try:
                    plies += play(base, 100 + games, args.level, until)
                except TimeoutError as exc:
                    # A move the table did not take within 30 s (a loaded machine, or the
                    # recognizer): counted and said, and the next game starts, so that one
                    # stuck game does not end the measurement of the memory.
                    stuck += 1
                    print(f"game {games + 1} stuck ({exc}); a new game", flush=True)
                games += 1
                while samples and samples[-1][0] >= minute * 60:
                    print(f"{minute:3d} min: {samples[-1][1] / 1024:.1f} MB, peak "
                          f"{max(kb for _, kb in samples) / 1024:.1f} MB ({games} games)", flush=True)
                    minute += 1
            stop.set()
            peak = max(kb for _, kb in samples)
            print(f"{args.level} against {args.level}, {'python' if args.python else 'native'} search: "
                  f"{games} games ({plies} plies) in {args.minutes:g} min; RSS first "
                  f"{samples[0][1] / 1024:.1f} MB, last {samples[-1][1] / 1024:.1f} MB, "
                  f"peak {peak / 1024:.1f} MB; {stuck} games stuck")
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

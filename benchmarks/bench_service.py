"""The companion as a newcomer starts it: `onitama-companion sim`.

    python benchmarks/bench_service.py [--games N]

1. Start-up: from launching the command to the first page served (target: within 3 s).
2. Memory: the service's resident memory (VmRSS) sampled every 50 ms through whole scripted
   base games played over HTTP with the simulated switches, a public page's event stream
   open meanwhile (target: under 80 MB, to fit a Pi Zero 2 W).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from tempfile import TemporaryDirectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules.board import Board  # noqa: E402
from companion.rules.squares import square_name  # noqa: E402


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait(predicate, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError("the companion did not get there in time")


def set_up(base: str) -> None:
    """Hands put the mat in the game's position (bench_memory.py's hands too)."""
    view = get(base + "/api/view")
    wanted = {square_name(sq) for sq in Board(view["table"]["position"]).position.occupied()}
    on_mat = set(get(base + "/sim/state")["pawns"])
    for square in on_mat - wanted:
        post(base + "/sim/lift", {"square": square})
    for square in wanted - on_mat:
        post(base + "/sim/place", {"square": square})


def play(base: str, seed: int) -> int:
    """One base game to its end by simulated hands; returns the number of moves."""
    post(base + "/api/new-game", {"variant": "base", "sets": ["base", "senseis-path"], "seed": seed})
    set_up(base)
    wait(lambda: get(base + "/api/view")["game"]["status"] == "playing")
    moves = 0
    while True:
        view = get(base + "/api/view")
        if view["game"]["status"] == "finished":
            return moves
        board = Board(view["table"]["position"])
        legal = sorted(board.legal_moves, key=str)
        move = legal[(seed + moves) % len(legal)]
        before = len(view["table"]["log"])
        if not move.is_pass:
            if move.to_sq in board.position.occupied():
                post(base + "/sim/lift", {"square": square_name(move.to_sq)})
                time.sleep(0.1)
            post(base + "/sim/lift", {"square": square_name(move.from_sq)})
            post(base + "/sim/place", {"square": square_name(move.to_sq)})

        def done():
            v = get(base + "/api/view")
            if v["mat"]["prompt"]:
                # Answer the mat's question with a button, as a player without a phone would.
                button = v["mat"]["prompt"]["buttons"].get(move.card, "A")
                post(base + "/sim/button", {"button": button})
                time.sleep(0.2)
            return len(v["table"]["log"]) > before or v["game"]["status"] == "finished"
        wait(done)
        moves += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    with TemporaryDirectory() as state:
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "sim", "--port", "0",
                                 "--state", state, "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            base = None
            for line in proc.stdout:
                if line.startswith("table:"):
                    base = line.split()[1].rstrip("/")
                    break
            urllib.request.urlopen(base + "/", timeout=10).read()
            ready = time.monotonic() - started
            peak, stop = [0], threading.Event()

            def sample():
                while not stop.is_set():
                    peak[0] = max(peak[0], rss_kb(proc.pid))
                    time.sleep(0.05)

            def spectator():
                # A public page stays connected to the event stream throughout.
                with urllib.request.urlopen(base + "/events", timeout=60) as stream:
                    while not stop.is_set() and stream.readline():
                        pass
            threading.Thread(target=sample, daemon=True).start()
            threading.Thread(target=spectator, daemon=True).start()
            moves = sum(play(base, seed) for seed in range(1, args.games + 1))
            stop.set()
            print(f"start-up: command to first page served   {ready:.2f} s   (target < 3 s)")
            print(f"memory:   peak resident {peak[0] / 1024:.1f} MB over {args.games} games, "
                  f"{moves} moves   (target < 80 MB)")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()

"""Our native ``hard`` against maxbennedich/onitama, the strongest documented engine (Java),
at equal time a move.

    nice -n 10 python benchmarks/bench_java.py --engine /work/scratch-java [--games 20]
        [--seconds 0.5] [--first 0] [--no-endgames]

The Java engine is not part of this project (it carries no licence): it is built by hand
beside it (docs/ai-strength.md, "Against the Java engine"), into ``ENGINE/classes``. This
script compiles its own bridge (``benchmarks/java/OnitamaBridge.java``: a line protocol over
the engine's public searcher, one fresh search a move, as its own player makes without
pondering) into ``ENGINE/bridge`` and talks to it through a pipe. Without a JDK or the
engine it says so and skips (exit 0).

Each game is a random base-game deal (seed 7000 + game), colours alternating; our rules'
referee is the oracle: every move of either engine must be one of its legal moves (a move
it refuses loses that game for its engine, and is counted). Our side builds the deal's
endgame table before the first move, as the service does at the deal (``--no-endgames``: not).
Per engine: the score, nodes a second of its own clock and of CPU time, and the mean
completed depth. The load average is printed before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from ai_common import elo  # noqa: E402

from companion.ai.agent import Player  # noqa: E402
from companion.ai.dealtables import TABLES  # noqa: E402
from companion.ai.view import SeatView  # noqa: E402
from companion.rules.cards import CARDS  # noqa: E402
from companion.rules.ways import new_referee  # noqa: E402

BRIDGE = ROOT / "benchmarks" / "java" / "OnitamaBridge.java"
MAX_PLIES = 200


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def bridge_ready(engine: Path) -> str | None:
    """Compiles the bridge against the engine when needed; the reason to skip, or None."""
    if not (engine / "classes" / "onitama" / "ai" / "Searcher.class").exists():
        return f"no Java engine in {engine}/classes (build it as docs/ai-strength.md says)"
    if shutil.which("java") is None or shutil.which("javac") is None:
        return "no JDK (java, javac) on the PATH"
    out = engine / "bridge" / "OnitamaBridge.class"
    if not out.exists() or out.stat().st_mtime < BRIDGE.stat().st_mtime:
        done = subprocess.run(["javac", "-nowarn", "-cp", str(engine / "classes"), "-d", str(engine / "bridge"),
                               str(BRIDGE)], capture_output=True, text=True)
        if done.returncode:
            return f"the bridge does not compile against this engine:\n{done.stderr}"
    return None


@dataclass
class Tally:
    """One engine's searches: nodes, its own clock, CPU seconds, completed depths."""
    nodes: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    depths: list[int] = field(default_factory=list)
    passes: int = 0

    def line(self, name: str) -> str:
        depth = sum(self.depths) / max(1, len(self.depths))
        return (f"{name}: {len(self.depths)} moves, {self.nodes:,} nodes, {self.nodes / max(self.seconds, 1e-9):,.0f} "
                f"nodes/s of its clock, {self.nodes / max(self.cpu, 1e-9):,.0f} per CPU second, mean completed "
                f"depth {depth:.1f}" + (f", {self.passes} forced passes made for it" if self.passes else ""))


class JavaEngine:
    """The bridge process: one line out, one line back a move."""

    def __init__(self, engine: Path):
        cp = os.pathsep.join(str(engine / part) for part in ("classes", "bridge"))
        self.proc = subprocess.Popen(["java", "-cp", cp, "OnitamaBridge"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def cpu(self) -> float:
        """The process's CPU seconds (all its threads: the JIT and the collector too)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def move(self, position: str, seconds: float, tally: Tally) -> str:
        """Our position text (rows from rank 5, the seat to move, Red's cards, Blue's, the side
        card) to the engine; its move as our action text."""
        rows, turn, red, blue, side = position.split()
        board = "".join("." * int(ch) if ch.isdigit() else ch for ch in rows.replace("/", ""))
        cards = [c.replace(" ", "_") for c in (*red.split(","), *blue.split(","), side)]
        request = f"{0 if turn == 'red' else 1} {board} {' '.join(cards)} {round(seconds * 1000)}\n"
        cpu, started = self.cpu(), time.perf_counter()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(request)
        reply = self.proc.stdout.readline().split()
        tally.seconds += time.perf_counter() - started
        tally.cpu += self.cpu() - cpu
        if len(reply) != 6:
            raise RuntimeError(f"the Java engine answered {reply!r} to {request!r}")
        card, frm, to, nodes, depth, _score = reply
        tally.nodes += int(nodes)
        tally.depths.append(int(depth))
        return f"{card.replace('_', ' ')} {frm}{to}"

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def game(number: int, java: JavaEngine, seconds: float, endgames: bool, tallies: dict[str, Tally]) -> tuple[float, str]:
    """Our points (1, 0.5, 0) and a line on the game."""
    ref = new_referee("base", seed=7000 + number)
    ours_seat = "red" if number % 2 == 0 else "blue"
    if endgames:
        deal = ref.view("red")["position"].split()
        TABLES.start([*deal[2].split(","), *deal[3].split(","), deal[4]], CARDS)
        TABLES.wait(600)
    ours = Player("hard", seed=number, seconds=seconds)
    while ref.result is None and len(ref.log) < MAX_PLIES:
        seat = ref.to_act()[0]
        view = ref.view(seat)
        legal = [a["text"] for a in view["legal"]]
        passes = [a["text"] for a in view["legal"] if a["kind"] == "pass"]
        if seat == ours_seat:
            cpu = time.process_time()
            action = ours.choose(SeatView.from_view(view))
            last = ours.last
            assert last is not None
            tally = tallies["ours"]
            tally.cpu += time.process_time() - cpu
            tally.nodes += last.nodes
            tally.seconds += last.seconds
            tally.depths.append(last.depth)
        else:
            action = java.move(view["position"], seconds, tallies["java"])
        if action not in legal:
            if seat != ours_seat and passes and len(passes) == len(legal):
                # The engine has no pass: with no move, the rules give only passes (one a card).
                action = next((t for t in passes if t.split()[0] == action.split()[0]), passes[0])
                tallies["java"].passes += 1
            else:
                who = "ours" if seat == ours_seat else "java"
                return (0.0 if who == "ours" else 1.0), f"game {number + 1}: {who} played {action!r}, not legal: LOST"
        ref.act(seat, action)
    winner = None if ref.result is None else ref.result.winner
    points = 0.5 if winner is None else float(winner == ours_seat)
    return points, f"game {number + 1}: ours {ours_seat}, winner {winner or 'none (200 plies)'}, {len(ref.log)} plies"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", type=Path, default=Path(os.environ.get("ONITAMA_JAVA", "/work/scratch-java")),
                        help="where the Java engine was built (ENGINE/classes); env ONITAMA_JAVA")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--no-endgames", action="store_true", help="our side without the deal's endgame table")
    args = parser.parse_args(argv)
    reason = bridge_ready(args.engine)
    if reason:
        print(f"SKIPPED: {reason}")
        return 0
    print(load(), flush=True)
    started = time.perf_counter()
    java = JavaEngine(args.engine)
    tallies = {"ours": Tally(), "java": Tally()}
    points = 0.0
    try:
        for number in range(args.first, args.first + args.games):
            got, line = game(number, java, args.seconds, not args.no_endgames, tallies)
            points += got
            print(line, flush=True)
    finally:
        java.close()
    diff, low, high = elo(points, args.games)
    print(f"native hard vs the Java engine at {args.seconds:g} s a move: {points:g}/{args.games} "
          f"({diff:+.0f} Elo, 95 % {low:+.0f} to {high:+.0f})")
    print(tallies["ours"].line("ours (native hard)"))
    print(tallies["java"].line("java"))
    print(f"{load()} ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: two tables over a real Mosquitto on loopback (issue 26).

    nice -n 10 python benchmarks/bench_tables.py [--games 4] [--ways base,light,...]
                                                 [--crowd 200] [--seconds 60] [--idle 30] [--settle 0.35]

1. **Latency.** Two companions on simulated mats (the real service, ``companion.link`` over a
   mosquitto of its own on 127.0.0.1) play ``--games`` whole games, people at each mat
   making their own moves and the other table's as shown, in each of ``--ways``. For every
   main-board move: from the pawn set down on one mat (ways the mat reads), and from the move
   saved there, to the other mat's LEDs showing it (the first LED scene lighting its from and
   to squares). In Simultaneous play a move is timed from its reveal saved at its table (a
   choice waits for the other seat's, which is the players' time, not the link's) to the
   first scene lit once the reveal is at the other table (the other table's own move,
   resolved with it, may fill the square it left: then neither of its squares is lit; a
   turn whose two pawns swapped squares lights nothing and is not timed). The
   first includes the mat's settle time (``--settle``, the Pi's default 0.35 s): a move is
   read only once the mat is still.
2. **A crowd.** ``--crowd`` games on the same broker (2 x crowd clients, the real
   :class:`~companion.link.peer.TableLink` each, over in-memory save files, 50 games a worker
   process: paho waits with ``select()``, so one process keeps under 1024 descriptors), each
   game moving every ``--interval`` seconds, turns alternating, for ``--seconds``: the
   broker's CPU (share of one core) and resident memory, moves a second, and every move at
   both tables once.
3. **Idle.** One companion with a game open, first not linked, then linked to another table
   (connected, waiting): its process CPU over ``--idle`` seconds each; the difference is the
   link's idle cost.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "support")]

from companion.link.broker import Mosquitto  # noqa: E402
from companion.link.links import Links  # noqa: E402
from companion.link.peer import TableLink  # noqa: E402
from companion.rules.actions import parse_action  # noqa: E402
from companion.rules.errors import OnitamaError  # noqa: E402
from companion.rules.moves import Move  # noqa: E402
from companion.rules.ways import WAYS  # noqa: E402
from companion.table.computer import Seating  # noqa: E402
from companion.table.tables import TableState  # noqa: E402

import two_tables  # noqa: E402
from sim_table import sim_companion  # noqa: E402

CLK = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def proc_cpu(pid: int) -> float:
    """User + system seconds of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- 1. latency ----------------------------------------------------------------------------

def latency(broker: Mosquitto, games: int, settle: float, workdir: Path,
            variant: str = "base") -> tuple[list[float], list[float]]:
    """Every main-board move of ``games`` games of ``variant``: from the pawn set down (ways
    the mat reads) and from the move saved at its table, to the other mat's LEDs."""
    two_tables.FAST["settle"] = settle
    from_down: list[float] = []
    from_saved: list[float] = []
    for game in range(games):
        with two_tables.two_tables(workdir / f"lat-{variant}-{game}", broker,
                                   {"variant": variant, "seed": game, "table": ["blue"]}) as (host, guest):
            marks: dict[Any, dict[str, Any]] = {}
            for side in (host, guest):
                _spy(side, marks, variant)
            two_tables.play_across(host, guest, random.Random(game))
            for mark in marks.values():
                if "saved" in mark and "lit" in mark:
                    from_saved.append(mark["lit"] - mark["saved"])
                    if WAYS[variant].mat_reads_moves:
                        from_down.append(mark["lit"] - mark["down"])
    return from_down, from_saved


def _board_move(action: str, variant: str) -> tuple[Any, Move] | None:
    """The main-board move a saved action shows on the other mat, and its key in ``marks``:
    its number at both tables; in Simultaneous play, its reveal (each table saves its own
    choice before it crosses, so the numbers differ; a choice waits for the other's)."""
    if variant == "simultaneous":
        if not action.startswith("reveal "):
            return None
        key: Any = action
        action = action.split(" ", 1)[1].rsplit(" ", 1)[0]
    else:
        key = None
    try:
        move = parse_action(action)
    except OnitamaError:
        return None
    if not isinstance(move, Move) or move.from_sq is None:
        return None
    return key, move


def _spy(side: two_tables.Side, marks: dict[Any, dict[str, Any]], variant: str) -> None:
    """Note when this mat's pawns were last set down, when this table saved its own move n,
    and when its LEDs first lit a move the other table saved (its from and to squares)."""
    hw, companion = side.hw, side.companion
    last_down = [0.0]
    place, append, set_scene = hw.sim.place, companion._store.append, hw.animator.set_scene

    def placed(*squares: int) -> None:
        place(*squares)
        last_down[0] = time.monotonic()

    def saved(game_id: int, seq: int, action: str, seat: str | None = None) -> None:
        append(game_id, seq, action, seat)
        if variant == "simultaneous" and not action.startswith("reveal "):
            for mark in marks.values():     # the next turn: a turn that lit nothing, untimed
                if mark["by"] is not side and mark.get("arrived") and "lit" not in mark:
                    mark["unlit"] = True
        found = _board_move(action, variant)
        if found is None:
            return
        key, move = found
        key = seq if key is None else key
        if key in marks and marks[key]["by"] is not side:
            marks[key]["arrived"] = True    # the other table has it (a reveal: its turn resolves)
        # The other mat shows the move: as the move to make (from and to lit) where the mat
        # reads moves; else as the position to lay out, where a capture's square, occupied
        # before and after, is not lit: there the pawn to lift.
        shown = {move.from_sq, move.to_sq} if WAYS[variant].mat_reads_moves else {move.from_sq}
        if key not in marks:            # the first table to save move n made it (on its mat)
            marks[key] = {"saved": time.monotonic(), "down": last_down[0], "by": side,
                          "squares": shown}

    def scene(squares: Any, edges: Any = None) -> None:
        set_scene(squares, edges)
        now = time.monotonic()
        for mark in list(marks.values()):
            if mark["by"] is not side and "lit" not in mark and _shows(mark, set(squares)):
                mark["lit"] = now

    def _shows(mark: dict[str, Any], squares: set[int]) -> bool:
        if variant != "simultaneous":
            return bool(mark["squares"] <= squares)
        # Both seats' moves resolve together: this table's own move may fill the square the
        # other's left, or the other's take on the square this one's left, so that neither
        # of its squares changes (the reeds see pawns, not colours) and none is lit; a later
        # turn's scene may light them. So: the first scene lit once the reveal is here (the
        # turn resolved, the mat shows what to lift and where to set down), unless this
        # table went on to the next turn first (two pawns that swapped squares: no scene).
        return bool(mark.get("arrived")) and not mark.get("unlit") and bool(squares)

    hw.sim.place = placed                      # type: ignore[method-assign]
    companion._store.append = saved            # type: ignore[method-assign]
    hw.animator.set_scene = scene              # type: ignore[method-assign]


# -- 2. a crowd of games on one broker --------------------------------------------------------

class FakeTable:
    """One side of a crowd game: its save file in memory, the real TableLink."""

    def __init__(self, game_id: int, header: dict[str, Any]):
        self.game_id, self.header, self.rows = game_id, header, []
        self.link: TableLink | None = None

    def table_rows(self, game_id: int) -> list[tuple[str | None, str]]:
        return list(self.rows)

    def table_row(self, game_id: int, seat: str, n: int, text: str) -> str:
        if n < len(self.rows):
            return "have"
        self.rows.append((seat, text))
        return "played"

    def state(self) -> TableState:
        return TableState(self.game_id, len(self.rows), "playing", self.header)


CLIENTS_A_PROCESS = 100     # paho waits with select(): descriptors below 1024, 3 a client


def crowd(broker: Mosquitto, games: int, seconds: float, interval: float) -> dict[str, float]:
    """``games`` games on ``broker``, run by worker processes of 50 games each; the broker's
    CPU and memory measured here over the same ``seconds``."""
    per = CLIENTS_A_PROCESS // 2
    start_at = time.time() + 5 + games / 50                 # every client connected by then
    parts = [(broker.port, first, min(per, games - first), seconds, interval, start_at)
             for first in range(0, games, per)]
    with multiprocessing.get_context("fork").Pool(len(parts)) as pool:
        waiting = pool.starmap_async(crowd_part, parts)
        time.sleep(max(0.0, start_at - time.time()))
        cpu0, t0 = proc_cpu(broker.pid or 0), time.monotonic()
        rss = [proc_rss_mb(broker.pid or 0)]
        while time.monotonic() - t0 < seconds:
            rss.append(proc_rss_mb(broker.pid or 0))
            time.sleep(0.5)
        cpu, elapsed = proc_cpu(broker.pid or 0) - cpu0, time.monotonic() - t0
        results = waiting.get(timeout=seconds + 300)
    out = {key: sum(r[key] for r in results) for key in results[0]}
    return {"games": games, "processes": len(parts), **out,
            "moves_per_s": round(out["moves"] / elapsed, 1),
            "broker_cpu_pct": round(100 * cpu / elapsed, 2), "broker_rss_mb_max": round(max(rss), 1)}


def crowd_part(port: int, first: int, games: int, seconds: float, interval: float,
               start_at: float) -> dict[str, int]:
    """One worker process: ``games`` games from number ``first``, every client its real
    TableLink; a game moves every ``interval`` s, turns alternating."""
    work: queue.Queue[tuple[Any, ...]] = queue.Queue()
    tables: dict[int, FakeTable] = {}
    for g in range(first, first + games):
        link = {"game": f"crowdgame{g:04d}", "key": "k" * 26}
        for i, (role, there) in enumerate((("host", "blue"), ("guest", "red"))):
            header = {"variant": "base", "start": "start", **Seating({}, table=(there,)).header(),
                      "link": {**link, "role": role}}
            tables[2 * g + i] = FakeTable(2 * g + i, header)
    for t in tables.values():
        t.link = TableLink(t, t.state(), ("127.0.0.1", port), work.put)
    stop = threading.Event()
    pending: set[int] = set()            # games whose next move is queued, not yet made

    def worker() -> None:
        while not stop.is_set():
            try:
                item = work.get(timeout=0.2)
            except queue.Empty:
                continue
            table = tables[item[1]]
            assert table.link is not None
            if item[0] == "connected":
                table.link.connected()
            elif item[0] == "message":
                before = len(table.rows)
                table.link.received(item[2], item[3])
                if len(table.rows) != before:
                    table.link.saved()
            elif item[0] == "move":
                table.rows.append((table.link.here, f"Ox a{len(table.rows) % 5 + 1}b1"))
                table.link.saved()
                pending.discard(table.game_id // 2)

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    time.sleep(max(0.0, start_at - time.time()))
    t0 = time.monotonic()
    rng = random.Random(first)
    next_move = {g: t0 + rng.uniform(0, interval) for g in range(first, first + games)}
    sent = 0
    while time.monotonic() - t0 < seconds:
        now = time.monotonic()
        for g, due in next_move.items():
            if due <= now:
                host_t, guest_t = tables[2 * g], tables[2 * g + 1]
                mover = host_t if len(host_t.rows) % 2 == 0 else guest_t
                # The last move has arrived, and the one asked before has been made (the
                # worker may lag behind under load): turns alternate, as the rules make them.
                if len(host_t.rows) == len(guest_t.rows) and g not in pending:
                    pending.add(g)
                    work.put(("move", mover.game_id))
                    sent += 1
                next_move[g] = now + interval
        time.sleep(0.05)
    pairs = [(tables[2 * g], tables[2 * g + 1]) for g in range(first, first + games)]
    deadline = time.monotonic() + 60                     # the last moves arrive
    while time.monotonic() < deadline and any(h.rows != g.rows for h, g in pairs):
        time.sleep(0.2)
    stop.set()
    out = {"moves": sent, "moves_at_both_tables": sum(len(h.rows) for h, g in pairs if h.rows == g.rows),
           "games_whose_tables_differ": sum(h.rows != g.rows for h, g in pairs),
           "clients_not_connected": sum(not t.link._mqtt.is_connected() for t in tables.values() if t.link),
           "refused": sum(len(t.link.refused) for t in tables.values() if t.link)}
    for t in tables.values():
        assert t.link is not None
        t.link.close()
    return out


# -- 3. the companion's idle cost of a linked game --------------------------------------------

def idle(broker: Mosquitto, seconds: float, workdir: Path) -> tuple[float, float]:
    with sim_companion(workdir / "idle.db", public_url=None) as table:
        table.companion.submit(None, {"type": "new_game", "variant": "base", "seed": 1})
        time.sleep(2)
        c0 = time.process_time()
        time.sleep(seconds)
        plain = (time.process_time() - c0) / seconds
        links = Links(table.companion, broker.address)
        try:
            table.companion.submit(None, {"type": "new_game", "variant": "base", "seed": 1,
                                          "table": ["blue"]})
            time.sleep(3)
            assert links.link is not None
            c0 = time.process_time()
            time.sleep(seconds)
            linked = (time.process_time() - c0) / seconds
        finally:
            links.close()
    return plain, linked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games a way, for the latency")
    ap.add_argument("--ways", default="base", help="comma-separated ways for the latency (every way: "
                    "base,wind,seven,nine,conditional,knowledge,shadow,light,simultaneous)")
    ap.add_argument("--settle", type=float, default=0.35)
    ap.add_argument("--crowd", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--interval", type=float, default=5.0, help="seconds between a game's moves")
    ap.add_argument("--idle", type=float, default=30)
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: latency,crowd,idle")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    print(f"load before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        broker = Mosquitto(work / "broker")
        broker.start()
        try:
            for variant in ([] if "latency" in skip else args.ways.split(",")):
                down, saved = latency(broker, args.games, args.settle, work, variant)
                print(f"latency, {variant}, over {len(saved)} moves ({args.games} games, settle {args.settle} s):")
                print(f"  saved on one table -> LEDs on the other: p50 {1000 * statistics.median(saved):.1f} ms, "
                      f"p99 {1000 * pct(saved, 99):.1f} ms, max {1000 * max(saved):.1f} ms")
                if down:
                    print(f"  pawn set down -> LEDs on the other:      p50 {1000 * statistics.median(down):.1f} ms, "
                          f"p99 {1000 * pct(down, 99):.1f} ms, max {1000 * max(down):.1f} ms")
            if "crowd" not in skip:
                out = crowd(broker, args.crowd, args.seconds, args.interval)
                print(f"crowd: {out}")
            if "idle" not in skip:
                plain, linked = idle(broker, args.idle, work)
                print(f"idle companion CPU: {100 * plain:.2f} % of a core without a link, "
                      f"{100 * linked:.2f} % with a linked game open: extra {100 * (linked - plain):.2f} %")
        finally:
            broker.kill()
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()

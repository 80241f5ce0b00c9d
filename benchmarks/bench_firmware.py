"""Benchmark of the hardware layer on the simulated board, and the idle budget of a Zero 2 W.

    python benchmarks/bench_firmware.py [--changes 300] [--scan-hz HZ] [--idle-s 10]

1. Scanner: scans per second and CPU per scan on the simulated pins (gpiozero's mock pins
   with the matrix model: real device objects, no real GPIO; a Zero 2 W with lgpio pays
   0.1-0.25 ms per pin operation, about 35 per scan).
2. Reaction: from a pin change (a pawn placed or lifted) to the LED frame that shows it,
   through scan loop -> debounce -> on_change -> Animator.set_scene -> recording strip, minus
   the debounce window. Split into the wait for the next scan (up to one scan period: the
   matrix has no interrupts) and the pipeline from the debounced change to the frame.
3. Budget: before (one gpiozero device per pin, 100 Hz always) and after (lgpio group calls,
   25 Hz at rest): pin calls per scan, counted; CPU per scan of the real code path (the
   scanner's own code with a pin layer that costs nothing, so no simulation is measured); the
   idle service's CPU here (the table service on the simulated board, a game in play, nobody
   moving); and from these an estimate for one Zero 2 W core (see ``zero2w_estimate``).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dataclasses  # noqa: E402
import fcntl  # noqa: E402
import tempfile  # noqa: E402
import termios  # noqa: E402

from gpiozero.pins.mock import MockFactory  # noqa: E402

from firmware.animation import Steady  # noqa: E402
from firmware.group_scan import GroupScanner  # noqa: E402
from firmware.hardware import make_hardware  # noqa: E402
from firmware.leds import GREEN, capped  # noqa: E402
from firmware.matrix import MatrixScanner, ScanLoop  # noqa: E402
from firmware.pinmap import load_pinmap  # noqa: E402
from firmware.sim_mat import MatrixPin  # noqa: E402

# A Zero 2 W runs this project's Python about 10x slower than the machine the benchmark runs
# on: the figure, from perft (this machine's leaves/s, printed below, against a
# Zero 2 W's). Not measured on a Zero 2 W here.
ZERO2W_SLOWER = 10
# firmware/matrix.py's figure for one gpiozero pin operation on a Zero 2 W (not measured here).
# A group call does less Python work than a gpiozero pin operation, which ends in the same kind
# of lgpio call: charging it the same is the pessimistic bound.
ZERO2W_PIN_OP_S = (0.1e-3, 0.25e-3)
PERFT_POSITION = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return (f"p50 {percentile(values, 50) * 1000:6.2f} ms   p99 {percentile(values, 99) * 1000:6.2f} ms   "
            f"max {max(values) * 1000:6.2f} ms")


def bench_scanner(scans: int) -> None:
    print(f"Scanner, simulated board, {scans} scans:")
    for scanner, calls in (("pins", "10 pin writes, 25 pin reads"), ("group", "6 group writes, 5 group reads")):
        with make_hardware("sim", load_pinmap(), scanner=scanner) as hw:
            hw.sim.place(0, 12, 18)  # a few pawns: columns really switch
            for _ in range(100):
                hw.scanner.scan()
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(scans):
                hw.scanner.scan()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"  {scanner:<6} {scans / wall:8.0f} scans/s   {wall / scans * 1000:.3f} ms wall, "
              f"{cpu / scans * 1000:.3f} ms CPU per scan ({calls})")


def bench_reaction(changes: int, scan_hz: float | None, rest_s: float = 0.0) -> None:
    """``rest_s``: nobody touches the mat this long before each change (past the pin map's
    idle_after_ms the loop has slowed to idle_scan_hz: the first change waits longer)."""
    pinmap = load_pinmap()
    window = pinmap.matrix.debounce_s
    lit = capped(GREEN, pinmap.leds.max_brightness)
    decided: dict[frozenset[int], tuple[float, float]] = {}
    decided_event = threading.Event()

    with make_hardware("sim", pinmap) as hw:
        def on_change(occupancy: frozenset[int], t: float) -> None:
            decided[occupancy] = (t, time.monotonic())
            hw.animator.set_scene({sq: Steady(GREEN) for sq in occupancy})
            decided_event.set()

        totals, waits, pipeline = [], [], []
        rng = random.Random(4)
        with ScanLoop(hw.scanner, on_change, scan_hz=scan_hz) as loop:
            period = loop.period
            for i in range(changes):
                square = rng.randrange(25)
                placing = i % 2 == 0
                # Land at a random moment of the scan cycle, as a real pawn would.
                time.sleep(rest_s + rng.uniform(0, loop.idle_period if rest_s else period))
                want = frozenset({square}) if placing else frozenset()
                decided.pop(want, None)
                decided_event.clear()
                changed_at = time.monotonic()
                if placing:
                    hw.sim.place(square)
                else:
                    hw.sim.set_pawns(())
                shown = hw.sim.strip.wait_for(
                    (lambda f, s=square: f.squares[s] == lit) if placing else (lambda f: not f.lit()), 1.0)
                if shown is None:
                    raise RuntimeError(f"change {i} never reached the LEDs")
                decided_event.wait(1.0)
                scan_t, callback_t = decided[want]
                totals.append(shown[0] - changed_at - window)
                waits.append(scan_t - changed_at - window)
                pipeline.append(shown[0] - callback_t)
    print(f"Reaction, pin change -> LED frame, minus the {window * 1000:g} ms debounce window, "
          f"{changes} changes, scanning at {1 / period:g} Hz"
          + (f", each after {rest_s:g} s at rest (idle rate {1 / loop.idle_period:g} Hz):" if rest_s else ":"))
    print(f"  total                        {ms(totals)}")
    print(f"  waiting for the next scan    {ms(waits)}")
    print(f"  debounced change -> frame    {ms(pipeline)}")


# -- the budget -------------------------------------------------------------------------------------
class NullLgpio:
    """lgpio with pins that cost nothing: counts the calls, every column reads high."""

    error = OSError
    SET_PULL_UP = 32

    def __init__(self) -> None:
        self.calls = 0

    def gpiochip_open(self, number): return 0
    def gpio_get_chip_info(self, handle): return [0, 54, "gpiochip0", "pinctrl-bcm2711"]
    def gpiochip_close(self, handle): return 0
    def group_claim_output(self, handle, gpio, levels=(0,), lFlags=0): return 0  # noqa: N803
    def group_claim_input(self, handle, gpio, lFlags=0): return 0  # noqa: N803
    def group_free(self, handle, gpio): return 0

    def group_write(self, handle, gpio, bits, mask=0):
        self.calls += 1
        return 0

    def group_read(self, handle, gpio):
        self.calls += 1
        return [5, 0b11111]


def cpu_per_scan(scanner, scans: int) -> float:
    for _ in range(200):
        scanner.scan()
    cpu = time.process_time()
    for _ in range(scans):
        scanner.scan()
    return (time.process_time() - cpu) / scans


def pin_calls_per_scan_gpiozero(pinmap) -> int:
    """The gpiozero scanner on the simulated board, its pin reads and writes counted."""
    counted = {"n": 0}
    get, put = MatrixPin._get_state, MatrixPin._set_state

    def counting_get(self):
        counted["n"] += 1
        return get(self)

    def counting_put(self, value):
        counted["n"] += 1
        return put(self, value)

    MatrixPin._get_state, MatrixPin._set_state = counting_get, counting_put
    try:
        with make_hardware("sim", pinmap, scanner="pins") as hw:
            hw.sim.place(0, 12, 18)
            counted["n"] = 0
            hw.scanner.scan()
            return counted["n"]
    finally:
        MatrixPin._get_state, MatrixPin._set_state = get, put


def ioctl_cost() -> float:
    """CPU of one small ioctl from Python here (FIONREAD on a pipe): the kind of call lgpio
    makes per group read or write (a GPIO v2 line ioctl), without a GPIO chip to call."""
    r, w = os.pipe()
    buf = bytearray(4)
    try:
        for _ in range(1000):
            fcntl.ioctl(r, termios.FIONREAD, buf)
        cpu = time.process_time()
        for _ in range(100_000):
            fcntl.ioctl(r, termios.FIONREAD, buf)
        return (time.process_time() - cpu) / 100_000
    finally:
        os.close(r)
        os.close(w)


def perft_rate() -> float:
    from companion.rules.board import Board

    board = Board(PERFT_POSITION)
    started = time.perf_counter()
    leaves = board.engine.perft(board.engine.state(board.position), 5, transpositions=False)
    return leaves / (time.perf_counter() - started)


def idle_service_cpu(pinmap, scanner: str, idle_scan: bool, seconds: float) -> tuple[float, float]:
    """The table service on the simulated board, a base game in play with every pawn at rest:
    its process's CPU as a fraction of one core, and the scans it made per second."""
    from companion.table.service import Companion
    from companion.table.store import GameStore

    if not idle_scan:  # before: the scan never slows down
        pinmap = dataclasses.replace(pinmap, matrix=dataclasses.replace(
            pinmap.matrix, idle_scan_hz=pinmap.matrix.scan_hz))
    with tempfile.TemporaryDirectory() as tmp, make_hardware("sim", pinmap, scanner=scanner) as hw:
        store = GameStore(Path(tmp) / "games.db")
        companion = Companion(hw, store, settle=0.2)
        companion.start()
        try:
            companion.submit(None, {"type": "new_game", "variant": "base", "seed": 3})
            hw.sim.set_pawns([*range(5), *range(20, 25)])
            deadline = time.monotonic() + 10
            while companion.view(None)["game"]["status"] != "playing":
                if time.monotonic() > deadline:
                    raise RuntimeError("the game never started")
                time.sleep(0.05)
            time.sleep(pinmap.matrix.idle_after_s + 0.5)  # let it come to rest
            loop = companion._scan  # the service's ScanLoop, read for its scan count only
            scans0 = loop.scans
            wall, cpu = time.perf_counter(), time.process_time()
            time.sleep(seconds)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rate = (loop.scans - scans0) / wall
        finally:
            companion.close()
            store.close()
    return cpu / wall, rate


def zero2w_estimate(scan_rate: float, real_cpu: float, calls: float, call_cost: float,
                    rest_here: float) -> float:
    """A fraction of one Zero 2 W core: every scan costs its code (10x this machine's CPU) and
    its pin calls (10x an ioctl here each); the rest of the idle service (the loop, debouncer,
    threads, web server) costs 10x what it costs here."""
    per_scan = ZERO2W_SLOWER * (real_cpu + calls * call_cost)
    return scan_rate * per_scan + ZERO2W_SLOWER * rest_here


def bench_budget(pinmap, idle_s: float, scans: int) -> None:
    rate_here = perft_rate()
    call_here = ioctl_cost()
    print(f"Budget of the smallest Pi (a Zero 2 W taken as {ZERO2W_SLOWER}x slower than this machine;"
          f" perft here {rate_here:,.0f} leaves/s, so about {rate_here / ZERO2W_SLOWER:,.0f} there):")
    print(f"  one ioctl from Python here {call_here * 1e6:.2f} us CPU -> {call_here * ZERO2W_SLOWER * 1e6:.1f} us "
          "per lgpio call on a Zero 2 W (assumed: the same work)")
    for label, scanner, idle_scan in (("before: gpiozero pins, 100 Hz always", "pins", False),
                                      ("after:  lgpio groups, 25 Hz at rest", "group", True)):
        if scanner == "pins":
            calls = pin_calls_per_scan_gpiozero(pinmap)
            # gpiozero's device code with mock pins that do nothing but hold a level.
            factory = MockFactory()
            with MatrixScanner(pinmap.matrix, pin_factory=factory) as s:
                real = cpu_per_scan(s, scans)
            factory.close()
        else:
            with make_hardware("sim", pinmap, scanner="group") as hw:
                before = hw.sim.lgpio.pin_calls
                hw.scanner.scan()
                calls = hw.sim.lgpio.pin_calls - before
            with GroupScanner(pinmap.matrix, NullLgpio()) as s:
                real = cpu_per_scan(s, scans)
        with make_hardware("sim", pinmap, scanner=scanner) as hw:
            hw.sim.set_pawns([*range(5), *range(20, 25)])
            sim_scan = cpu_per_scan(hw.scanner, scans)
        service, scan_rate = idle_service_cpu(pinmap, scanner, idle_scan, idle_s)
        rest = max(0.0, service - scan_rate * sim_scan)
        zero = zero2w_estimate(scan_rate, real, calls, call_here, rest)
        per_scan_zero = ZERO2W_SLOWER * (real + calls * call_here)
        print(f"  {label}")
        print(f"    pin calls per scan {calls:3d}   CPU per scan here: real code path {real * 1e6:.1f} us, "
              f"with the simulated board {sim_scan * 1e6:.1f} us")
        print(f"    idle service here {service * 100:5.2f} % of a core at {scan_rate:5.1f} scans/s "
              f"(simulated board included; without its scans {rest * 100:.2f} %)")
        print(f"    Zero 2 W estimate: {per_scan_zero * 1e3:.2f} ms per scan -> idle service "
              f"{zero * 100:5.1f} % of one core (target under 15 %)")
        low, high = (scan_rate * calls * op + ZERO2W_SLOWER * rest for op in ZERO2W_PIN_OP_S)
        print(f"    pessimistic, every pin call at {ZERO2W_PIN_OP_S[0] * 1e3:g}-{ZERO2W_PIN_OP_S[1] * 1e3:g} ms: "
              f"{calls * ZERO2W_PIN_OP_S[0] * 1e3:.1f}-{calls * ZERO2W_PIN_OP_S[1] * 1e3:.1f} ms per scan -> "
              f"idle service {low * 100:.0f}-{high * 100:.0f} % of one core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--scans", type=int, default=5000)
    parser.add_argument("--scan-hz", type=float, help="override the pin map's scan rate")
    parser.add_argument("--rest-changes", type=int, default=12, help="changes measured from rest")
    parser.add_argument("--idle-s", type=float, default=10, help="seconds of idle service measured")
    parser.add_argument("--only-budget", action="store_true", help="skip the scanner and reaction parts")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.2f}"
          + ("  (a busy machine: expect multi-ms scheduling stalls in the tails)" if load > 0.5 * (os.cpu_count() or 1) else ""))
    if not args.only_budget:
        bench_scanner(args.scans)
        bench_reaction(args.changes, args.scan_hz)
        rest = load_pinmap().matrix.idle_after_s + 0.3
        bench_reaction(args.rest_changes, args.scan_hz, rest)
    bench_budget(load_pinmap(), args.idle_s, args.scans)


if __name__ == "__main__":
    main()

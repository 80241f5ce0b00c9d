"""Benchmark of the hardware layer on the simulated board.

    python benchmarks/bench_firmware.py [--changes 300] [--scan-hz HZ]

1. Scanner: scans per second and CPU per scan on the simulated pins (gpiozero's mock pins
   with the matrix model: real device objects, no real GPIO; a Zero 2 W with lgpio pays
   0.1-0.25 ms per pin operation, about 35 per scan).
2. Reaction: from a pin change (a pawn placed or lifted) to the LED frame that shows it,
   through scan loop -> debounce -> on_change -> Animator.set_scene -> recording strip, minus
   the debounce window. Split into the wait for the next scan (up to one scan period: the
   matrix has no interrupts) and the pipeline from the debounced change to the frame.
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

from firmware.animation import Steady  # noqa: E402
from firmware.hardware import make_hardware  # noqa: E402
from firmware.leds import GREEN, capped  # noqa: E402
from firmware.matrix import ScanLoop  # noqa: E402
from firmware.pinmap import load_pinmap  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return (f"p50 {percentile(values, 50) * 1000:6.2f} ms   p99 {percentile(values, 99) * 1000:6.2f} ms   "
            f"max {max(values) * 1000:6.2f} ms")


def bench_scanner(scans: int) -> None:
    with make_hardware("sim", load_pinmap()) as hw:
        hw.sim.place(0, 12, 18)  # a few pawns: columns really switch
        for _ in range(100):
            hw.scanner.scan()
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(scans):
            hw.scanner.scan()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"Scanner, simulated pins, {scans} scans:")
    print(f"  {scans / wall:8.0f} scans/s   {wall / scans * 1000:.3f} ms wall, "
          f"{cpu / scans * 1000:.3f} ms CPU per scan (10 pin writes, 25 pin reads)")


def bench_reaction(changes: int, scan_hz: float | None) -> None:
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
                time.sleep(rng.uniform(0, period))
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
          f"{changes} changes, scanning at {1 / period:g} Hz:")
    print(f"  total                        {ms(totals)}")
    print(f"  waiting for the next scan    {ms(waits)}")
    print(f"  debounced change -> frame    {ms(pipeline)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--scans", type=int, default=5000)
    parser.add_argument("--scan-hz", type=float, help="override the pin map's scan rate")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.2f}"
          + ("  (a busy machine: expect multi-ms scheduling stalls in the tails)" if load > 0.5 * (os.cpu_count() or 1) else ""))
    bench_scanner(args.scans)
    bench_reaction(args.changes, args.scan_hz)


if __name__ == "__main__":
    main()

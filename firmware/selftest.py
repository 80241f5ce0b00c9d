"""The maker's first run: check the OLED, buttons, LEDs and every square, then say what failed.

    onitama-companion selftest          # on the Pi: follow the instructions on screen
    onitama-companion selftest --sim    # the simulated board, driven by a scripted maker

On the Pi nobody can be assumed to be at the board: every wait has a timeout, and what was
never seen is reported as such. With ``--sim`` a scripted maker does what the instructions
say, watching for the same reactions a person would (a square lighting up, a press echoed);
``--sim-dead c3`` or ``--sim-cut 22`` build the simulated board with a fault to see the report;
``--sim-model "Raspberry Pi 5 Model B"`` checks the pin map against that board; ``--scanner``
picks the matrix scanner (group: lgpio group calls; pins: one gpiozero device per pin).
Exit code: 0 all good, 1 something failed, 2 the pin map or the arguments are wrong.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from typing import TextIO

from companion.rules.squares import SQUARE_NAMES, parse_square, square_file, square_rank
from firmware.animation import Blink, Effect, Steady, Urgency
from firmware.errors import join_thread
from firmware.hardware import SCANNERS, Hardware, make_hardware
from firmware.leds import BLUE, GREEN, RED, WHITE, Frame, capped
from firmware.matrix import ScanLoop
from firmware.pimodel import PiModel
from firmware.pinmap import BUTTON_NAMES, PinMap, PinMapError, load_pinmap
from firmware.screens import message_screen, pattern_screen, prompt_screen, status_screen
from firmware.selftest_maker import OCCUPIED, PI_TIMEOUTS, ScriptedMaker, Timeouts, sim_timeouts
from firmware.selftest_report import Check, report
from firmware.sim_mat import SimMat

SEEN = Steady(BLUE, Urgency.HINT)  # a square that has worked, pawn gone
TEST_COLOURS = (("red", RED), ("green", GREEN), ("blue", BLUE), ("white", WHITE))


class SelfTest:
    def __init__(self, hw: Hardware, out: TextIO, timeouts: Timeouts, maker: ScriptedMaker | None):
        self.hw = hw
        self.out = out
        self.timeouts = timeouts
        self.maker = maker
        self._presses: queue.Queue[tuple[str, str]] = queue.Queue()
        self._pressed: set[str] = set()
        self._pressed_changed = threading.Condition()
        hw.buttons.on_press = lambda name: self._on_button("press", name)
        hw.buttons.on_long_press = lambda name: self._on_button("long press", name)

    # -- talking to the maker ----------------------------------------------------------------
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def step(self, number: int, title: str, instructions: str) -> None:
        self.say()
        self.say(f"Step {number} of 4 - {title}")
        self.say(f"  {instructions}")
        self.hw.oled.display(message_screen(instructions, title=f"{number}/4 {title}"))

    def ask(self, question: str) -> bool | None:
        """A yes/no question answered with buttons A and B; None if nobody answers (or in sim)."""
        if self.maker is not None or not {"A", "B"} <= self._pressed:
            return None
        self.say(f"  {question} Press A for yes, B for no.")
        self.hw.oled.display(prompt_screen(question, {"A": "Yes", "B": "No"}))
        self._drain_presses()
        try:
            kind, name = self._presses.get(timeout=self.timeouts.answer)
        except queue.Empty:
            self.say("  (no answer)")
            return None
        return name == "A" if name in ("A", "B") else None

    def _on_button(self, kind: str, name: str) -> None:
        self._presses.put((kind, name))
        with self._pressed_changed:
            self._pressed.add(name)
            self._pressed_changed.notify_all()

    def _echoed(self, name: str, timeout: float) -> bool:
        with self._pressed_changed:
            return self._pressed_changed.wait_for(lambda: name in self._pressed, timeout)

    def _drain_presses(self) -> None:
        while not self._presses.empty():
            self._presses.get_nowait()

    # -- the checks ----------------------------------------------------------------------------
    def run(self) -> list[Check]:
        where = "the simulated board" if self.hw.sim is not None else "this Raspberry Pi"
        self.say(f"Onitama companion self-test on {where}")
        self.say(f"Pin map: {self.hw.pinmap.source}")
        leds, oled = self.hw.pinmap.leds, self.hw.pinmap.oled
        self.say(f"Parts: LEDs through {leds.driver} ({leds.backend}, GPIO{leds.pin}), {oled.driver.upper()} OLED, "
                 f"matrix read by {type(self.hw.scanner).__name__}")
        if self.hw.model is not None:
            self.say(f"Board: {self.hw.model.describe()}")
        return [self.check_oled(), self.check_buttons(), self.check_leds(), self.check_squares()]

    def check_oled(self) -> Check:
        self.step(1, "Screen", "The screen shows a test pattern: a frame on all four edges, "
                  "a checkerboard and a filled box.")
        pattern = pattern_screen()
        self.hw.oled.display(pattern)
        if not self.hw.oled.wait_shown(2.0):
            return Check("OLED", False, "the test pattern never went out on the I2C bus",
                         ["check SDA (GPIO2) and SCL (GPIO3), 3.3 V and ground"])
        if self.hw.sim is not None:
            drawn = self.hw.sim.i2c.image()
            ok = drawn.tobytes() == pattern.tobytes()
            return Check("OLED", ok, "test pattern read back from the display" if ok
                         else "the display holds a different picture than was sent")
        time.sleep(self.timeouts.look)
        return Check("OLED", None, "test pattern sent; check it by eye",
                     ["if the picture is shifted by two pixels or garbled, the module may be an SH1106"])

    def check_buttons(self) -> Check:
        self.step(2, "Buttons", "Press A, then B, then C (short presses). Each press is echoed.")
        self._drain_presses()
        if self.maker is not None:
            pressing = threading.Thread(target=self.maker.press_every_button, args=(self._echoed,),
                                        name="maker-buttons")
            pressing.start()
        last_news = time.monotonic()
        while self._pressed != set(BUTTON_NAMES):
            try:
                kind, name = self._presses.get(timeout=0.05)
            except queue.Empty:
                if self.maker is not None and not pressing.is_alive() and self._presses.empty():
                    break
                if time.monotonic() - last_news > self.timeouts.buttons:
                    break
                continue
            last_news = time.monotonic()
            self.say(f"  Button {name}: {kind}")
            self.hw.oled.display(status_screen("2/4 Buttons", [f"Button {name}: {kind}",
                                 "Pressed so far: " + " ".join(sorted(self._pressed))]))
        if self.maker is not None:
            join_thread(pressing, self.maker.longest_s)
        missing = [n for n in BUTTON_NAMES if n not in self._pressed]
        if not missing:
            return Check("Buttons", True, ", ".join(BUTTON_NAMES))
        pins = self.hw.pinmap.buttons.pins
        return Check("Buttons", False, "never pressed: " + ", ".join(missing),
                     [f"button {n}: check its wires from GPIO{pins[n]} to the switch and on to ground"
                      for n in missing])

    def check_leds(self) -> Check:
        leds = self.hw.pinmap.leds
        self.step(3, "LEDs", f"The {leds.count} LEDs light one by one along the chain, "
                  "then all in red, green, blue and white.")
        failures = []
        walked_edges = set()
        for kind, what in leds.chain():
            if kind == "edge":
                # A frame lights an edge group as one: show each group once, at its first LED.
                if what in walked_edges:
                    continue
                walked_edges.add(what)
            if isinstance(what, int):      # ("square", sq); an edge group is named by a str
                frame = Frame.of({what: WHITE})
                self.hw.animator.set_scene({what: Steady(WHITE)})
            else:
                frame = Frame.of({}, {what: WHITE})
                self.hw.animator.set_scene({}, {what: Steady(WHITE)})
            if not self._shown(frame, self.timeouts.led_step):
                failures.append(SQUARE_NAMES[what] if isinstance(what, int) else f"edge {what}")
        for colour_name, colour in TEST_COLOURS:
            self.hw.animator.set_scene({sq: Steady(colour) for sq in range(25)},
                                       {name: Steady(colour) for name in leds.edges})
            if not self._shown(Frame.of({sq: colour for sq in range(25)}, {n: colour for n in leds.edges}),
                               self.timeouts.colour_hold):
                failures.append(f"all {colour_name}")
        self.hw.animator.set_scene({})
        if self.hw.sim is None:
            answer = self.ask("Did every LED light in turn and show all four colours?")
            if answer is None:
                return Check("LEDs", None, f"{leds.count} LEDs driven; check them by eye")
            if not answer:
                return Check("LEDs", False, "the maker saw LEDs missing", [
                    "if the walk stopped at one LED, the data line breaks there (its DIN or the one before's DOUT)",
                    "if none lit: the level shifter, the 330 ohm resistor and the common ground",
                    "wrong colours: the strip may not be GRB (WS2812B are)"])
        if failures:
            return Check("LEDs", False, "not shown: " + ", ".join(failures))
        return Check("LEDs", True, f"{leds.count} LEDs, {len(TEST_COLOURS)} colours")

    def _shown(self, frame: Frame, hold: float) -> bool:
        """In sim, wait for the strip to show ``frame``; on the Pi, give the maker time to look."""
        if self.hw.sim is None:
            time.sleep(hold)
            return True
        cap = self.hw.pinmap.leds.max_brightness
        expected = Frame(tuple(capped(c, cap) for c in frame.squares),
                         {n: capped(c, cap) for n, c in frame.edges.items()})
        return self.hw.sim.strip.wait_for(lambda f: f == expected, 1.0) is not None

    def check_squares(self) -> Check:
        matrix = self.hw.pinmap.matrix
        events: queue.Queue[frozenset[int]] = queue.Queue()
        lock = threading.Lock()
        seen: set[int] = set()
        stuck: frozenset[int] = frozenset()

        def on_change(occupancy: frozenset[int], t: float) -> None:
            # On the scan thread: light the squares at once, leave the talking to the main thread.
            with lock:
                scene: dict[int, Effect] = {sq: SEEN for sq in seen}
                scene.update({sq: Blink(RED, Urgency.ERROR) for sq in stuck})
                scene.update({sq: Steady(OCCUPIED) for sq in occupancy - stuck})
                seen.update(occupancy - stuck)
            self.hw.animator.set_scene(scene)
            events.put(occupancy)

        self.step(4, "Squares", "Take every pawn off the mat.")
        with ScanLoop(self.hw.scanner, on_change) as loop:
            time.sleep(matrix.debounce_s + 3 / matrix.scan_hz)
            cleared = self._wait_clear(loop)
            with lock:
                stuck = cleared
                seen.clear()
                while not events.empty():  # what happened while clearing is not a test result
                    events.get_nowait()
            self.hw.animator.set_scene({sq: Blink(RED, Urgency.ERROR) for sq in stuck})
            instructions = ("Now put a pawn on every square, one at a time, in any order. A square lights "
                            "green under the pawn and stays dim blue once seen. Press C when done.")
            self.say(f"  {instructions}")
            self.hw.oled.display(message_screen("A pawn on each square in turn. Press C when done.",
                                                title="4/4 Squares"))
            self._watch_squares(events, stuck)
            with lock:
                working = set(seen)
        self.hw.animator.set_scene({})
        return self._squares_check(working, stuck)

    def _wait_clear(self, loop: ScanLoop) -> frozenset[int]:
        """Squares that read occupied although the maker was asked to clear the mat."""
        if not loop.occupancy:
            return frozenset()
        names = " ".join(SQUARE_NAMES[sq] for sq in sorted(loop.occupancy))
        self.say(f"  Waiting for the mat to be clear (still reading: {names}).")
        self.hw.oled.display(message_screen(f"Clear the mat. Still reading: {names}", title="4/4 Squares"))
        deadline = time.monotonic() + self.timeouts.clear_mat
        while loop.occupancy and time.monotonic() < deadline:
            time.sleep(0.05)
        return loop.occupancy

    def _watch_squares(self, events: queue.Queue[frozenset[int]], stuck: frozenset[int]) -> None:
        if self.maker is not None:
            placing = threading.Thread(target=self.maker.place_every_pawn, name="maker-pawns")
            placing.start()
        self._drain_presses()
        reported: set[int] = set(stuck)
        last_news = time.monotonic()
        while len(reported) < 25:
            try:
                occupancy = events.get(timeout=0.05)
            except queue.Empty:
                if self.maker is not None:
                    if not placing.is_alive() and events.empty():
                        break
                elif time.monotonic() - last_news > self.timeouts.squares or self._finish_pressed():
                    break
                continue
            for sq in sorted(occupancy - reported):
                reported.add(sq)
                last_news = time.monotonic()
                self.say(f"  {SQUARE_NAMES[sq]} ok ({len(reported - stuck)}/{25 - len(stuck)})")
            missing = [SQUARE_NAMES[sq] for sq in range(25) if sq not in reported]
            self.hw.oled.display(status_screen("4/4 Squares", [
                f"Seen {len(reported - stuck)} of {25 - len(stuck)}",
                "Still to go:", " ".join(missing[:7]), " ".join(missing[7:14])]))
        if self.maker is not None:
            join_thread(placing, self.maker.longest_s)

    def _finish_pressed(self) -> bool:
        while not self._presses.empty():
            if self._presses.get_nowait()[1] == "C":
                return True
        return False

    def _squares_check(self, seen: set[int], stuck: frozenset[int]) -> Check:
        missing = sorted(set(range(25)) - seen - stuck)
        if not missing and not stuck:
            return Check("Squares", True, "all 25 seen")
        hints = []
        details = []
        if missing:
            details.append(f"never seen: {' '.join(SQUARE_NAMES[sq] for sq in missing)}")
            hints += self._wiring_hints(missing)
        if stuck:
            details.append(f"read occupied with no pawn: {' '.join(SQUARE_NAMES[sq] for sq in sorted(stuck))}")
            hints.append("a square that reads occupied on an empty mat: a switch shorted, or stuck closed "
                         "by a stray magnet")
        return Check("Squares", False, f"{25 - len(missing) - len(stuck)} of 25 seen; " + "; ".join(details), hints)

    def _wiring_hints(self, missing: list[int]) -> list[str]:
        matrix = self.hw.pinmap.matrix
        hints = []
        left = set(missing)
        for rank in range(5):
            line = {sq for sq in range(25) if square_rank(sq) == rank}
            if line <= left:
                hints.append(f"all of rank {rank + 1} is silent: check the row wire on GPIO{matrix.rows[rank]}")
                left -= line
        for file in range(5):
            line = {sq for sq in range(25) if square_file(sq) == file}
            if line <= left:
                hints.append(f"all of file {'abcde'[file]} is silent: check the column wire on "
                             f"GPIO{matrix.columns[file]} and its pull-up")
                left -= line
        for sq in sorted(left):
            hints.append(f"{SQUARE_NAMES[sq]}: check its reed switch and diode (cathode to the row), "
                         "and that the magnet sits over one end of the reed, not its middle")
        return hints


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="onitama-companion selftest",
                                     description="Check the board's screen, buttons, LEDs and squares.")
    parser.add_argument("--sim", action="store_true", help="test the simulated board (no Pi needed)")
    parser.add_argument("--pinmap", metavar="FILE", help="use this pin map instead of the built-in one")
    parser.add_argument("--sim-dead", metavar="SQUARE", action="append", default=[],
                        help="with --sim: a square whose switch never closes (repeatable)")
    parser.add_argument("--sim-cut", metavar="GPIO", type=int, action="append", default=[],
                        help="with --sim: a GPIO whose wire is cut (repeatable)")
    parser.add_argument("--sim-model", metavar="NAME",
                        help="with --sim: check the pin map against this board (as /proc/device-tree/model names it)")
    parser.add_argument("--scanner", choices=SCANNERS, default="auto",
                        help="how the matrix is read: group (lgpio group calls), pins (gpiozero), auto")
    return parser


def main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """The self-test; the checks' report goes to ``out``, a reason it could not run to ``err``
    (stderr, as every command reports bad input)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        dead = [parse_square(name) for name in args.sim_dead]
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    except ValueError as e:
        print(f"selftest: {e}", file=err)
        return 2
    if (dead or args.sim_cut or args.sim_model) and not args.sim:
        print("selftest: --sim-dead, --sim-cut and --sim-model only make sense with --sim", file=err)
        return 2
    try:
        pinmap: PinMap = load_pinmap(args.pinmap)
    except PinMapError as e:
        print(str(e), file=err)
        print("Fix the pin map and run the self-test again.", file=err)
        return 2
    try:
        sim = SimMat(pinmap, dead_switches=dead, cut_wires=args.sim_cut) if args.sim else None
    except ValueError as e:     # a fault the board cannot have: the run would test nothing
        print(f"selftest: {e}", file=err)
        return 2
    try:
        hw = make_hardware("sim" if args.sim else "pi", pinmap, sim, scanner=args.scanner,
                           model=PiModel(args.sim_model) if args.sim_model else None)
    except Exception as e:
        print(f"The hardware did not start: {e}", file=err)
        return 1
    with hw:
        timeouts = sim_timeouts(pinmap) if args.sim else PI_TIMEOUTS
        maker = ScriptedMaker(hw, timeouts) if args.sim else None
        checks = SelfTest(hw, out, timeouts, maker).run()
        hw.oled.display(status_screen("Self-test done", [
            f"{c.name}: {'ok' if c.ok else 'FAIL' if c.ok is False else 'look'}" for c in checks]))
        failed = report(checks, out)
        hw.oled.wait_shown(1.0)
        time.sleep(timeouts.look)  # leave the result on the screen for a moment
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

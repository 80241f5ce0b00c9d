"""The self-test on the simulated board: passing, and naming what is broken."""

from __future__ import annotations

import io
import threading
import time

import pytest

from companion.rules.squares import parse_square
from firmware.hardware import make_hardware
from firmware.selftest import SelfTest, main
from firmware.selftest_maker import Timeouts

from fw_helpers import DEFAULT_MAP_TEXT


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out, err=io.StringIO())
    return code, out.getvalue()


def run_refused(*argv: str) -> tuple[int, str]:
    """A run that cannot start: its exit status, and what it wrote to stderr (stdout stays
    empty: the README promises one line on stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    assert out.getvalue() == ""
    return code, err.getvalue()


@pytest.fixture
def fast_map(tmp_path):
    """The default map scanning at 500 Hz with a 4 ms window: same logic, shorter waits."""
    path = tmp_path / "fast.toml"
    path.write_text(DEFAULT_MAP_TEXT.replace("scan_hz = 100", "scan_hz = 500")
                    .replace("debounce_ms = 25", "debounce_ms = 4"))
    return str(path)


def test_the_simulated_board_passes():
    code, text = run("--sim")
    assert code == 0, text
    assert "All good" in text
    for check in ("OLED", "Buttons", "LEDs", "Squares"):
        assert f"[ ok ] {check}" in text
    assert "e5 ok (25/25)" in text


def test_a_dead_switch_is_named(fast_map):
    code, text = run("--sim", "--pinmap", fast_map, "--sim-dead", "c3")
    assert code == 1
    assert "[FAIL] Squares  24 of 25 seen; never seen: c3" in text
    assert "c3: check its reed switch and diode" in text


def test_a_cut_column_is_diagnosed_as_a_wire(fast_map):
    code, text = run("--sim", "--pinmap", fast_map, "--sim-cut", "23")  # file d's column
    assert code == 1
    assert "never seen: d1 d2 d3 d4 d5" in text
    assert "all of file d is silent: check the column wire on GPIO23" in text


def test_a_dead_button_is_named(fast_map):
    code, text = run("--sim", "--pinmap", fast_map, "--sim-cut", "20")
    assert code == 1
    assert "[FAIL] Buttons  never pressed: B" in text and "[ ok ] Squares" in text


def test_a_bad_pin_map_stops_it_with_the_reason(tmp_path):
    bad = tmp_path / "pinmap.toml"
    bad.write_text(DEFAULT_MAP_TEXT.replace("dma = 10", "dma = 5"))
    code, text = run_refused("--sim", "--pinmap", str(bad))
    assert code == 2
    assert "leds.dma: DMA channel 5" in text


def test_faults_need_the_simulation():
    code, text = run_refused("--sim-dead", "a1")
    assert code == 2 and "only make sense with --sim" in text


def test_a_cut_wire_the_pin_map_does_not_have_is_refused():
    # GPIO 99 is no wire of the board: cutting it would change nothing, and the run would
    # report "All good" for a fault that was never made.
    code, text = run_refused("--sim", "--sim-cut", "99")
    assert code == 2
    assert "GPIO99" in text and "GPIO23" in text      # names the bad one and the wires there are


def test_on_a_pi_it_waits_for_the_person_and_asks_them(pinmap):
    """The Pi flow, with nothing verified by the program: a person presses the buttons, answers
    the LED question with A, puts pawns on a few squares and presses C to finish early."""
    hw = make_hardware("sim", pinmap)
    mat, hw.sim = hw.sim, None  # the self-test sees real hardware; the person uses the mat
    out = io.StringIO()
    timeouts = Timeouts(led_step=0.0, colour_hold=0.0, answer=2, buttons=2, squares=2, clear_mat=1,
                        reaction=0, look=0.0)
    result: list = []
    testing = threading.Thread(target=lambda: result.extend(SelfTest(hw, out, timeouts, None).run()))
    mat.place(parse_square("e5"))  # left on the mat: the person is asked to clear it
    testing.start()

    def wait_for_text(text: str) -> None:
        deadline = time.monotonic() + 5
        while text not in out.getvalue():
            assert time.monotonic() < deadline, f"never printed {text!r}:\n{out.getvalue()}"
            time.sleep(0.01)

    try:
        wait_for_text("Press A, then B")
        for name in "ABC":
            mat.tap(name, 0.05)
        wait_for_text("Press A for yes")
        mat.tap("A", 0.05)
        wait_for_text("Waiting for the mat to be clear (still reading: e5)")
        mat.lift(parse_square("e5"))
        wait_for_text("Now put a pawn on every square")
        for name in ("a1", "c3"):
            mat.place(parse_square(name))
            wait_for_text(f"{name} ok")
            mat.lift(parse_square(name))
        mat.tap("C", 0.05)
        testing.join(5)
    finally:
        testing.join()
        hw.sim = mat
        hw.close()
    checks = {c.name: c for c in result}
    assert checks["OLED"].ok is None  # shown; only a person can say it looks right
    assert checks["Buttons"].ok and checks["LEDs"].ok
    assert checks["Squares"].ok is False and "2 of 25 seen" in checks["Squares"].detail
    assert "a1" not in checks["Squares"].detail.split("never seen:")[1]

"""OLED screens through the real Adafruit driver and the fake I2C bus, against golden PNGs.

The goldens live in tests/firmware/golden/. After an intended change to a screen, regenerate
them with ``UPDATE_GOLDEN=1 pytest tests/firmware/test_fw_oled.py`` and look at the PNGs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import segno
from PIL import Image

from firmware.oled import Oled, OledError
from firmware.screens import (ELLIPSIS, fit, message_screen, prompt_screen, qr_screen, status_screen,
                              pattern_screen, wrap)
from firmware.sim_oled import FakeSSD1306Bus

GOLDEN = Path(__file__).parent / "golden"
JOIN_URL = "HTTP://10.42.0.1/J/MFRGGZDFMZTWQ2LKNNWG23TPOA"  # a 26-character base32 token

SCREENS = {
    "status": lambda: status_screen("Red to move", ["Red: Tiger, Crab", "Blue: Monkey, Boar",
                                                   "Side card: Dragon", "Last: b1-b3 with Tiger, a capture"]),
    "message": lambda: message_screen("That pawn cannot reach d4 with Tiger or Crab. Put it back on c2, "
                                      "then make a move your cards allow. This sentence is too long.",
                                      title="Illegal move"),
    "prompt": lambda: prompt_screen("Which card did you use for b1-b2?", {"A": "Tiger", "B": "Crab", "C": "Cancel it"}),
    "qr": lambda: qr_screen(JOIN_URL, "Scan to join as Blue"),
    "pattern": pattern_screen,
}


@pytest.fixture
def bus():
    return FakeSSD1306Bus(0x3C)


@pytest.fixture
def oled(bus, pinmap):
    with Oled(bus, pinmap.oled) as oled:
        yield oled


def shown(oled: Oled, bus: FakeSSD1306Bus, image: Image.Image) -> Image.Image:
    oled.display(image)
    assert oled.wait_shown(1.0)
    return bus.image()


@pytest.mark.parametrize("name", list(SCREENS))
def test_each_screen_through_the_real_driver_matches_its_golden(name, oled, bus):
    rendered = SCREENS[name]()
    assert rendered.mode == "1" and rendered.size == (128, 64)
    on_panel = shown(oled, bus, rendered)
    assert on_panel.tobytes() == rendered.tobytes(), "the bytes on the bus decode to another picture"
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        on_panel.save(golden)
    assert golden.exists(), f"no golden for {name}: run with UPDATE_GOLDEN=1"
    expected = Image.open(golden).convert("1")
    assert expected.size == on_panel.size
    assert expected.tobytes() == on_panel.tobytes(), f"{name} differs from {golden}"


def test_the_qr_code_on_the_panel_is_the_url(oled, bus):
    """Read the modules back off the panel's pixels and compare with what segno encodes."""
    panel = shown(oled, bus, qr_screen(JOIN_URL, "Join"))
    qr = segno.make(JOIN_URL, error="L")
    assert qr.version == 2 and qr.mode == "alphanumeric"
    size = len(qr.matrix)
    # Find the lit quiet zone's corner, then sample each 2x2 module.
    top = next(y for y in range(64) if panel.getpixel((0, y)))
    side = next(x for x in range(128) if not panel.getpixel((x, top))) if not panel.getpixel((127, top)) else 128
    border = (side // 2 - size) // 2
    assert border >= 1 and side <= 64
    for y in range(size):
        for x in range(size):
            px, py = (x + border) * 2, top + (y + border) * 2
            assert (not panel.getpixel((px, py))) == bool(qr.matrix[y][x]), (x, y)


def test_a_url_that_cannot_fit_is_refused():
    with pytest.raises(ValueError, match="too big"):
        qr_screen("http://companion.local/join/" + "x" * 60, "Join")


def test_text_fitting():
    assert fit("short", 21) == "short"
    assert fit("a" * 30, 21) == "a" * 20 + ELLIPSIS
    assert wrap("one two three four", 9, 5) == ["one two", "three", "four"]
    assert wrap("supercalifragilistic", 8, 5) == ["supercal", "ifragili", "stic"]
    assert wrap("a b c d e f g h", 3, 2) == ["a b", "c" + ELLIPSIS]
    assert fit("Zug \u00e9t\u00e9 \u2192 d4", 21) == "Zug \u00e9t\u00e9 ? d4"  # Latin-1 only
    assert wrap("", 10, 3) == []


def test_the_latest_image_wins(oled, bus):
    images = [status_screen(f"frame {i}", []) for i in range(20)]
    for image in images:
        oled.display(image)
    assert oled.wait_shown(1.0)
    assert bus.image().tobytes() == images[-1].tobytes()
    assert len(bus.frames) < 22  # init + some frames skipped, never a backlog


def test_wrong_images_are_refused(oled):
    with pytest.raises(ValueError, match="128x64 1-bit"):
        oled.display(Image.new("L", (128, 64)))


def test_a_missing_display_is_reported(pinmap):
    with pytest.raises(OledError, match="no SSD1306 answered at I2C address 0x3C"):
        Oled(FakeSSD1306Bus(0x3D), pinmap.oled)


def test_closing_blanks_and_powers_off(bus, pinmap):
    oled = Oled(bus, pinmap.oled)
    shown(oled, bus, pattern_screen())
    oled.close()
    assert not bus.display_on and not any(bus.ram)


def test_the_driver_imports_cleanly_off_a_pi():
    """The simulation loads the real driver on a desktop: no warnings, and never `board`
    (Blinka's platform probe that offers to install packages)."""
    code = "import sys, firmware.oled, firmware.hardware; assert 'board' not in sys.modules"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLINKA")}
    result = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True,
                            timeout=60, env=env, cwd=Path(__file__).resolve().parents[2])
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")

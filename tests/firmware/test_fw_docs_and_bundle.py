"""Generated hardware docs are current; the hardware bundle builds and closes cleanly."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.rules.squares import SQUARE_NAMES
from firmware.docs import generate
from firmware.hardware import make_hardware
from firmware.pinmap import parse_pinmap

from fw_helpers import DEFAULT_MAP_TEXT, REPO


def test_committed_docs_equal_a_fresh_generation(pinmap):
    for name, content in generate(pinmap).items():
        committed = (REPO / "hardware" / name).read_text(encoding="utf-8")
        assert committed == content, f"hardware/{name} is stale: run python -m firmware.docs"


def test_the_template_is_valid_svg_with_every_square_and_led(pinmap):
    root = ET.fromstring(generate(pinmap)["mat-template.svg"].split("\n", 1)[1])
    texts = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert set(SQUARE_NAMES) <= set(texts)
    assert {str(i) for i in range(pinmap.leds.count)} <= set(texts)
    assert "row GPIO5" in texts and "col GPIO17" in texts


def test_the_docs_follow_the_map():
    other = parse_pinmap(DEFAULT_MAP_TEXT.replace("C = 21", "C = 12"))
    docs = generate(other)
    assert "| C | 12 | 32 |" in docs["pins.md"]


def test_the_sim_bundle(hw):
    assert hw.sim is not None and hw.sim.strip.count == 35
    hw.sim.place(4)
    assert hw.scanner.scan() == {4}


def test_an_unknown_mode_is_refused(pinmap):
    with pytest.raises(ValueError, match="'pi' or 'sim'"):
        make_hardware("desktop", pinmap)


@pytest.mark.skipif(Path("/dev/i2c-1").exists(), reason="checks the refusal off a Pi; on a Pi, pi mode really starts the LED strip")
def test_pi_mode_off_a_pi_fails_before_touching_the_leds(pinmap):
    with pytest.raises(OSError, match="enable I2C"):
        make_hardware("pi", pinmap)

"""The pin map: the shipped one loads, and every kind of wrong map is refused by key and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.pinmap import PinMapError, default_pinmap_path, load_pinmap, parse_pinmap

from fw_helpers import DEFAULT_MAP_TEXT, REPO


def tweak(old: str, new: str) -> str:
    assert old in DEFAULT_MAP_TEXT, old
    return DEFAULT_MAP_TEXT.replace(old, new, 1)


def test_the_shipped_map_loads_with_the_suggested_pins(pinmap):
    assert pinmap.matrix.rows == (5, 6, 13, 19, 26)
    assert pinmap.matrix.columns == (17, 27, 22, 23, 24)
    assert (pinmap.leds.backend, pinmap.leds.pin) == ("spi", 10)
    assert (pinmap.oled.address, pinmap.oled.frequency_hz) == (0x3C, 400_000)
    assert dict(pinmap.buttons.pins) == {"A": 16, "B": 20, "C": 21}
    assert pinmap.matrix.debounce_s == pytest.approx(0.025)
    assert pinmap.leds.count == 35


def test_the_package_map_is_a_link_to_the_hardware_map():
    # The link makes the installed package carry the map; the wheel stores its content.
    packaged = REPO / "firmware" / "pinmap.toml"
    assert packaged.is_symlink()
    assert packaged.resolve() == (REPO / "hardware" / "pinmap.toml").resolve()
    assert default_pinmap_path().read_text() == DEFAULT_MAP_TEXT


def test_serpentine_chain_from_a1_along_ranks(pinmap):
    # a1..e1 = 0..4, then e2..a2 = 5..9.
    assert pinmap.leds.square_leds[:10] == (0, 1, 2, 3, 4, 9, 8, 7, 6, 5)
    assert pinmap.leds.chain()[25] == ("edge", "blue")


def test_row_order_chain_from_e5_along_files():
    text = tweak('first = "a1"', 'first = "e5"')
    text = text.replace('along = "rank"', 'along = "file"').replace('layout = "serpentine"', 'layout = "rows"')
    leds = parse_pinmap(text).leds
    # LED 0 under e5, then e4, e3 ... e1, then d5 (rows layout restarts on Blue's side).
    assert leds.square_leds[24] == 0 and leds.square_leds[19] == 1 and leds.square_leds[4] == 4
    assert leds.square_leds[23] == 5


BAD_MAPS = {
    "pin used twice": (tweak("rows = [5, 6, 13, 19, 26]", "rows = [5, 6, 13, 19, 17]"),
                       "matrix.columns[0]", "GPIO17 is already used by matrix.rows[4]"),
    "button on a row pin": (tweak("A = 16", "A = 5"), "buttons.pins.A", "already used by matrix.rows[0]"),
    "LED pin the back-end cannot drive": (tweak("pin = 10", "pin = 13"), "leds.pin",
                                          "cannot drive WS2812s from GPIO13"),
    "PWM back-end on the SPI pin": (tweak('backend = "spi"', 'backend = "pwm"'), "leds.pin", "GPIO12 or GPIO18"),
    "pin outside BCM 2-27": (tweak("columns = [17, 27, 22, 23, 24]", "columns = [17, 27, 22, 23, 28]"),
                             "matrix.columns[4]", "outside BCM 2-27"),
    "ID EEPROM pin": (tweak("C = 21", "C = 1"), "buttons.pins.C", "outside BCM 2-27"),
    "SPI0 pin taken while LEDs use SPI": (tweak("B = 20", "B = 9"), "buttons.pins.B", "SPI0 MISO, reserved"),
    "missing key": (tweak("scan_hz = 100\n", ""), "matrix.scan_hz", "missing"),
    "missing section": (DEFAULT_MAP_TEXT.split("[buttons]")[0], "buttons", "missing"),
    "wrong type": (tweak("address = 0x3C", 'address = "0x3C"'), "oled.address", "must be a whole number"),
    "true as a pin": (tweak("A = 16", "A = true"), "buttons.pins.A", "not true/false"),
    "too few rows": (tweak("rows = [5, 6, 13, 19, 26]", "rows = [5, 6, 13, 19]"), "matrix.rows",
                     "exactly 5"),
    "unknown key": (tweak("scan_hz = 100", "scan_hz = 100\nscan_hertz = 100"), "matrix.scan_hertz",
                    "unknown key"),
    "DMA 5": (tweak("dma = 10", "dma = 5"), "leds.dma", "corrupts"),
    "chain not from a corner": (tweak('first = "a1"', 'first = "c3"'), "leds.chain.first", "not one of"),
    "edge LED on a square's index": (tweak("blue = [25, 26, 27, 28, 29]", "blue = [24, 26, 27, 28, 29]"),
                                     "leds.edges.blue[0]", "already used by square e5"),
    "edge LED past the chain": (tweak("red = [30, 31, 32, 33, 34]", "red = [30, 31, 32, 33, 35]"),
                                "leds.edges.red[4]", "past the end"),
    "count with unmapped LEDs": (tweak("count = 35", "count = 36"), "leds.count", "nothing is mapped to index 35"),
    "debounce shorter than a scan": (tweak("debounce_ms = 25", "debounce_ms = 5"), "matrix.debounce_ms",
                                     "shorter than one scan period"),
    "OLED off I2C1": (tweak("sda = 2", "sda = 4"), "oled.sda", "not I2C1 SDA"),
    "brightness over 1": (tweak("max_brightness = 0.4", "max_brightness = 1.5"), "leds.max_brightness",
                          "out of range"),
    "not TOML": ("[matrix\nrows = 1", "not valid TOML", ""),
}


@pytest.mark.parametrize("name", list(BAD_MAPS))
def test_a_wrong_map_is_refused_naming_key_and_reason(name):
    text, key, reason = BAD_MAPS[name]
    with pytest.raises(PinMapError) as refused:
        parse_pinmap(text, source="test.toml")
    message = str(refused.value)
    assert key in message and reason in message, message
    assert message.startswith("pin map test.toml is refused")


def test_every_problem_is_reported_at_once():
    text = tweak("dma = 10", "dma = 5").replace("A = 16", "A = 99")
    with pytest.raises(PinMapError) as refused:
        parse_pinmap(text)
    assert len(refused.value.problems) == 2


def test_a_missing_file_is_refused(tmp_path: Path):
    with pytest.raises(PinMapError, match="cannot read the file"):
        load_pinmap(tmp_path / "nope.toml")


def test_a_map_file_loads_from_a_path(tmp_path: Path):
    path = tmp_path / "mine.toml"
    path.write_text(tweak("A = 16", "A = 4"))
    assert load_pinmap(path).buttons.pins["A"] == 4

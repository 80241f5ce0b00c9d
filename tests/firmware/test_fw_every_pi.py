"""Every Pi: the board check, the Pi 5's LED back-end (neopixel_spi over a fake SPI bus), the
SH1106 OLED (luma.oled over a fake SMBus) and the self-test on each choice."""

from __future__ import annotations

import dataclasses
import io
import random

import luma.oled.device  # noqa: F401 - at import luma starts a pool of 4 idle threads, once
import pytest
from PIL import Image

from firmware.hardware import make_hardware
from firmware.leds import OFF
from firmware.oled import Oled, OledError
from firmware.pimodel import PiModel, UnsupportedBoard, read_model
from firmware.pinmap import PinMapError, parse_pinmap
from firmware.screens import pattern_screen, qr_screen
from firmware.selftest import main as selftest
from firmware.sim_oled import FakeSH1106Bus
from firmware.sim_spi import BIT0, BIT1, FakeWS2812Spi, SpiProtocolError
from firmware.sim_strip import RecordingStrip
from firmware.spi_strip import NeoPixelSpiStrip
from fw_helpers import DEFAULT_MAP_TEXT, REPO

PI5_MAP = REPO / "tests" / "pi" / "pinmap-pi5.toml"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"


def with_drivers(leds: str = "rpi_ws281x", oled: str = "ssd1306", backend: str = "spi", pin: int = 10) -> str:
    text = DEFAULT_MAP_TEXT.replace('driver = "rpi_ws281x"', f'driver = "{leds}"')
    text = text.replace('driver = "ssd1306"', f'driver = "{oled}"')
    return text.replace('backend = "spi"\npin = 10', f'backend = "{backend}"\npin = {pin}')


# -- the board check ---------------------------------------------------------------------------
@pytest.mark.parametrize("name, drivers", [
    (PI5, ("neopixel_spi",)),
    ("Raspberry Pi 500 Rev 1.0", ("neopixel_spi",)),
    ("Raspberry Pi Compute Module 5 Rev 1.0", ("neopixel_spi",)),
    ("Raspberry Pi 4 Model B Rev 1.5", ("rpi_ws281x", "neopixel_spi")),
    ("Raspberry Pi Zero 2 W Rev 1.0", ("rpi_ws281x", "neopixel_spi")),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", ("rpi_ws281x", "neopixel_spi")),
])
def test_the_model_file_names_the_board_and_its_back_ends(tmp_path, name, drivers):
    path = tmp_path / "model"
    path.write_bytes(name.encode() + b"\0")  # the kernel ends it with a NUL
    model = read_model(path)
    assert model.name == name and model.is_pi
    assert model.led_drivers == drivers
    assert model.describe() == f"{name}: LED back-ends {', '.join(drivers)}"


def test_off_a_pi_nothing_is_refused(tmp_path):
    model = read_model(tmp_path / "absent")
    assert model == PiModel(None) and not model.is_pi
    assert "not a Raspberry Pi" in model.describe()
    for driver in ("rpi_ws281x", "neopixel_spi"):
        model.check_led_driver(driver)


def test_a_pi5_refuses_rpi_ws281x_before_any_device_starts(pinmap):
    with pytest.raises(UnsupportedBoard, match=r"'rpi_ws281x' cannot drive LEDs on a Raspberry Pi 5.*"
                                               r"leds.driver = \"neopixel_spi\""):
        make_hardware("sim", pinmap, model=PiModel(PI5))
    # The same board with the SPI back-end starts.
    with make_hardware("sim", parse_pinmap(with_drivers("neopixel_spi")), model=PiModel(PI5)) as hw:
        assert isinstance(hw.animator._leds.strip, NeoPixelSpiStrip)


def test_the_selftest_reports_the_refusal_clearly(tmp_path):
    # The self-test (like the service) fails with the message, not a traceback.
    out, err = io.StringIO(), io.StringIO()
    assert selftest(["--sim", "--sim-model", PI5], out=out, err=err) == 1
    # On stderr, as the README promises for every refusal.
    assert "cannot drive LEDs on a Raspberry Pi 5" in err.getvalue()


# -- the pin map's choices ---------------------------------------------------------------------
def test_the_drivers_default_to_the_original_parts():
    text = DEFAULT_MAP_TEXT.replace('driver = "rpi_ws281x"\n', "").replace('driver = "ssd1306"\n', "")
    pinmap = parse_pinmap(text)
    assert (pinmap.leds.driver, pinmap.oled.driver) == ("rpi_ws281x", "ssd1306")
    assert (pinmap.matrix.idle_scan_hz, pinmap.matrix.idle_after_s) == (25, 2.0)


@pytest.mark.parametrize("text, problem", [
    (with_drivers("neopixel_spi", backend="pwm", pin=18), "leds.backend: neopixel_spi drives the LEDs over SPI only"),
    (with_drivers("ws2811"), "leds.driver: 'ws2811' is not one of 'rpi_ws281x', 'neopixel_spi'"),
    (with_drivers(oled="ssd1309"), "oled.driver: 'ssd1309' is not one of 'ssd1306', 'sh1106'"),
    (DEFAULT_MAP_TEXT.replace("idle_scan_hz = 25", "idle_scan_hz = 200"),
     "matrix.idle_scan_hz: 200 Hz is faster than matrix.scan_hz (100 Hz)"),
])
def test_a_wrong_choice_is_refused_by_name(text, problem):
    with pytest.raises(PinMapError) as refused:
        parse_pinmap(text)
    assert [p for p in refused.value.problems if p.startswith(problem)] == refused.value.problems


# -- neopixel_spi over the fake SPI bus ----------------------------------------------------------
def test_neopixel_spi_colours_reach_the_chain_unchanged(pinmap):
    sink = RecordingStrip(pinmap.leds)
    strip = NeoPixelSpiStrip(pinmap.leds, FakeWS2812Spi(sink))
    rng = random.Random(5)
    for _ in range(5):
        pixels = [tuple(rng.randrange(256) for _ in range(3)) for _ in range(pinmap.leds.count)]
        strip.write(pixels)
        assert sink.pixels == tuple(pixels)
    strip.close()
    assert sink.pixels == (OFF,) * pinmap.leds.count


def test_the_fake_spi_bus_refuses_what_a_ws2812_would_misread(pinmap):
    bus = FakeWS2812Spi(RecordingStrip(pinmap.leds))
    frame = bytes(64) + bytes([BIT1, BIT0] * 12) * pinmap.leds.count + bytes(64)
    bus.configure(baudrate=6_400_000)
    assert bus.decode(frame)[0] == (0xAA, 0xAA, 0xAA)  # GRB bytes 10101010 each
    with pytest.raises(SpiProtocolError, match="reset gap"):
        bus.decode(frame[60:])
    with pytest.raises(SpiProtocolError, match="neither a WS2812 one nor a zero"):
        bus.decode(frame.replace(bytes([BIT1]), bytes([0b11111000]), 1))
    bus.configure(baudrate=8_000_000)
    with pytest.raises(SpiProtocolError, match="6.4 MHz"):
        bus.decode(frame)


# -- the SH1106 through luma.oled over the fake SMBus -------------------------------------------
def sh1106_config(pinmap):
    return dataclasses.replace(pinmap.oled, driver="sh1106")


def test_the_sh1106_shows_exactly_the_image(pinmap):
    bus = FakeSH1106Bus(0x3C)
    with Oled(bus, sh1106_config(pinmap)) as oled:
        for image in (pattern_screen(), qr_screen("HTTP://10.42.0.1/J/ABC", "Scan")):
            oled.display(image)
            assert oled.wait_shown(2.0)
            assert bus.image().tobytes() == image.tobytes()
        assert bus.display_on
        # Columns 0-1 and 130-131 of the controller's RAM are never shown: the 2-pixel shift
        # an SSD1306 driver would cause on this panel.
        assert not any(bus.ram[page * 132 + c] for page in range(8) for c in (0, 1, 130, 131))
    assert not bus.display_on and bus.image().getbbox() is None


def test_an_absent_sh1106_is_named(pinmap):
    with pytest.raises(OledError, match="no SH1106 answered at I2C address 0x3C"):
        Oled(FakeSH1106Bus(0x3D), sh1106_config(pinmap))


# -- the self-test on each choice ------------------------------------------------------------------
@pytest.mark.parametrize("leds, oled, scanner", [
    ("rpi_ws281x", "ssd1306", "pins"), ("rpi_ws281x", "ssd1306", "group"), ("neopixel_spi", "ssd1306", "group"),
    ("rpi_ws281x", "sh1106", "group"), ("neopixel_spi", "sh1106", "group")])
def test_the_selftest_passes_on_every_choice(tmp_path, leds, oled, scanner):
    path = tmp_path / "pinmap.toml"
    path.write_text(with_drivers(leds, oled))
    out = io.StringIO()
    assert selftest(["--sim", "--pinmap", str(path), "--scanner", scanner], out=out) == 0, out.getvalue()
    assert f"LEDs through {leds}" in out.getvalue() and f"{oled.upper()} OLED" in out.getvalue()
    assert "All good" in out.getvalue()


def test_the_pi5_map_of_the_install_check_is_the_default_wiring_with_the_pi5_parts(pinmap):
    pi5 = parse_pinmap(PI5_MAP.read_text())
    assert (pi5.leds.driver, pi5.oled.driver) == ("neopixel_spi", "sh1106")
    assert dataclasses.replace(pi5.leds, driver="rpi_ws281x") == pinmap.leds
    assert dataclasses.replace(pi5.oled, driver="ssd1306") == pinmap.oled
    assert pi5.matrix == pinmap.matrix and pi5.buttons == pinmap.buttons


def test_a_faulty_board_reads_the_same_through_either_scanner(tmp_path):
    reports = {}
    for scanner in ("group", "pins"):
        out = io.StringIO()
        assert selftest(["--sim", "--sim-dead", "c3", "--sim-cut", "23", "--scanner", scanner], out=out) == 1
        text = out.getvalue()
        # The squares' verdict and hints (the buttons' line depends on the scripted presses).
        reports[scanner] = text[text.index("[FAIL] Squares"):text.index("problem")]
    assert reports["group"] == reports["pins"]
    assert "never seen" in reports["group"] and "GPIO23" in reports["group"]


def test_an_image_of_another_size_is_refused_by_either_controller(pinmap):
    with Oled(FakeSH1106Bus(0x3C), sh1106_config(pinmap)) as oled:
        with pytest.raises(ValueError, match="128x64 1-bit"):
            oled.display(Image.new("1", (128, 32)))

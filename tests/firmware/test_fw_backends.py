"""A back-end is a named entry (firmware.backends): one added in one place, its own module
(fake_backend.py) plus its line in the registry, is checked by the pin map, offered by the
board check, and built by make_hardware on a Pi and in the simulation, with its twin."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

import fake_backend
from firmware import backends
from firmware.animation import Steady
from firmware.hardware import make_hardware
from firmware.leds import GREEN, OFF
from firmware.pimodel import PiModel
from firmware.pinmap import PinMapError, parse_pinmap
from firmware.screens import pattern_screen
from fw_helpers import DEFAULT_MAP_TEXT

PI5 = "Raspberry Pi 5 Model B Rev 1.0"


@pytest.fixture
def registered(monkeypatch):
    """The one place: the fake's line in each registry."""
    monkeypatch.setitem(backends.LED_BACKENDS, "fake_leds", "fake_backend:LEDS")
    monkeypatch.setitem(backends.OLED_BACKENDS, "fake_oled", "fake_backend:OLED")


def fake_map(backend: str = "pio", pin: int = 12) -> str:
    text = DEFAULT_MAP_TEXT.replace('driver = "rpi_ws281x"', 'driver = "fake_leds"')
    text = text.replace('driver = "ssd1306"', 'driver = "fake_oled"')
    assert 'backend = "spi"\npin = 10' in text
    return text.replace('backend = "spi"\npin = 10', f'backend = "{backend}"\npin = {pin}')


def test_an_unregistered_back_end_is_refused_by_name():
    with pytest.raises(PinMapError, match="'fake_leds' is not one of 'rpi_ws281x', 'neopixel_spi'"):
        parse_pinmap(fake_map())


def test_the_pin_map_reads_the_entry_s_keys(registered):
    pinmap = parse_pinmap(fake_map())
    assert (pinmap.leds.driver, pinmap.leds.backend, pinmap.leds.pin) == ("fake_leds", "pio", 12)
    assert pinmap.oled.driver == "fake_oled"
    with pytest.raises(PinMapError, match=r"leds.pin: fake_leds cannot drive WS2812s from GPIO18 .*"
                                          r"it needs GPIO10 or GPIO12"):
        parse_pinmap(fake_map(pin=18))
    with pytest.raises(PinMapError, match="leds.backend: fake_leds drives the LEDs over PIO only"):
        parse_pinmap(fake_map(backend="spi", pin=10))
    # The other back-ends do not accept the fake's block.
    with pytest.raises(PinMapError, match="leds.backend: rpi_ws281x drives the LEDs over SPI or PWM or PCM only"):
        parse_pinmap(fake_map().replace('driver = "fake_leds"', 'driver = "rpi_ws281x"'))


def test_the_board_check_offers_it_where_it_runs(registered):
    assert PiModel(PI5).led_drivers == ("neopixel_spi", "fake_leds")
    assert "fake_leds" in PiModel("Raspberry Pi 4 Model B Rev 1.5").led_drivers
    PiModel(PI5).check_led_driver("fake_leds")


def test_the_simulation_builds_its_twin(registered):
    pinmap = parse_pinmap(fake_map())
    with make_hardware("sim", pinmap, model=PiModel(PI5)) as hw:
        strip = hw.animator._leds.strip
        assert isinstance(strip, fake_backend.FakeStrip) and strip.where == "sim"
        assert isinstance(hw.sim.i2c, fake_backend.FakeOledDevice)
        assert hw.sim.i2c.address == pinmap.oled.address
        picture = pattern_screen()
        hw.oled.display(picture)
        assert hw.oled.wait_shown(5.0)
        assert hw.sim.i2c.image().tobytes() == picture.tobytes()
        hw.animator.set_scene({12: Steady(GREEN)})
        assert strip.written.wait(5.0)
        assert strip.frames[-1][pinmap.leds.square_leds[12]] != OFF
    assert strip.closed and hw.sim.i2c.blank


def test_a_pi_builds_the_entry_and_releases_its_bus(registered, monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", MockFactory())
    pinmap = parse_pinmap(fake_map())
    with make_hardware("pi", pinmap, scanner="pins", model=PiModel(PI5)) as hw:
        strip = hw.animator._leds.strip
        assert isinstance(strip, fake_backend.FakeStrip) and strip.where == "pi"
        device = hw.oled._panel.device
    assert strip.closed and device.blank and device.released

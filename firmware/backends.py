"""The LED and OLED back-ends, by the name the pin map gives them (``leds.driver``,
``oled.driver``).

As gpiozero finds its pin factories through entry points, a name here points at
``"module:attribute"``, loaded only when that back-end is asked for: a driver library is never
imported by a board that does not use it. The attribute is the back-end's whole description,
in its own module: the pin-map keys it accepts, how it is built on a Pi, and its simulated
twin. Adding a back-end touches its own module and one line here; the pin map's check, the
board check (``firmware.pimodel``), ``make_hardware`` and the simulation read the entry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PIL import Image

    from firmware.leds import Strip
    from firmware.pinmap import LedConfig, OledConfig
    from firmware.sim_mat import SimMat

# What a back-end hands back to close once the hardware stops (a bus it opened).
Release = list[Callable[[], None]]

LED_BACKENDS: dict[str, str] = {
    "rpi_ws281x": "firmware.ws281x:BACKEND",      # Pi 1-4, Zero 2 W
    "neopixel_spi": "firmware.spi_strip:BACKEND",  # every Pi with SPI, the Pi 5 included
}
OLED_BACKENDS: dict[str, str] = {
    "ssd1306": "firmware.oled:SSD1306",    # most 0.96" modules
    "sh1106": "firmware.oled:SH1106",      # many 1.3" modules
}


class Panel(Protocol):
    """An OLED controller behind its driver: send a 1-bit image, or blank the panel."""

    def send(self, image: Image.Image) -> None: ...

    def off(self) -> None: ...


class OledTwin(Protocol):
    """The simulation's OLED: an I2C device the driver writes to unchanged, and the picture
    it holds (what a player would see)."""

    def image(self) -> Image.Image: ...


@dataclass(frozen=True)
class LedBackend:
    """A driver of the WS2812 chain."""

    pins: Mapping[str, tuple[int, ...]]   # leds.backend -> the GPIOs leds.pin may name
    on_rp1: bool                          # drives the chain on a Pi 5's RP1 chip
    open: Callable[[LedConfig, Release], Strip]  # on a Pi; adds what it opened to the list
    twin: Callable[[LedConfig, SimMat], Strip]   # in the simulation, on the simulated mat


@dataclass(frozen=True)
class OledBackend:
    """An OLED controller: its driver over a bus, the Pi's bus and the simulated device."""

    panel: Callable[[object | None, OledConfig], Panel]
    bus: Callable[[OledConfig, Release], object | None]  # on a Pi (None: the driver opens it)
    twin: Callable[[int], OledTwin]  # the simulation's fake I2C device at this address


def _load(entries: Mapping[str, str], kind: str, name: str) -> object:
    if name not in entries:
        raise ValueError(f"no {kind} back-end {name!r} (known: {', '.join(entries)})")
    module, _, attribute = entries[name].partition(":")
    return getattr(importlib.import_module(module), attribute)


def led_backend(name: str) -> LedBackend:
    backend = _load(LED_BACKENDS, "LED", name)
    assert isinstance(backend, LedBackend), f"{LED_BACKENDS[name]} is not a LedBackend"
    return backend


def oled_backend(name: str) -> OledBackend:
    backend = _load(OLED_BACKENDS, "OLED", name)
    assert isinstance(backend, OledBackend), f"{OLED_BACKENDS[name]} is not an OledBackend"
    return backend

"""Which Raspberry Pi this is, and which LED back-ends it can drive.

The kernel names the board in ``/proc/device-tree/model`` ("Raspberry Pi 5 Model B Rev 1.0").
rpi_ws281x drives WS2812s with the PWM, PCM or SPI blocks of the Broadcom SoCs of the Pi 1-4
and Zero 2 W; a Pi 5 (and a Pi 500, a CM5) moved those to the RP1 chip, which rpi_ws281x does
not support: there only neopixel_spi (plain SPI through spidev) works. Each back-end says
which it is (``on_rp1`` in ``firmware.backends``). The check runs at start,
before any pin is touched, and refuses a pin map the board cannot drive with a clear message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from firmware.backends import LED_BACKENDS, led_backend
from firmware.errors import FirmwareError

log = logging.getLogger(__name__)

MODEL_PATH = Path("/proc/device-tree/model")
# Boards whose GPIO blocks sit on the RP1 chip.
RP1_BOARDS = ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5")


class UnsupportedBoard(FirmwareError, RuntimeError):
    """The pin map asks for a back-end this board cannot drive."""


@dataclass(frozen=True)
class PiModel:
    name: str | None  # None: not a Raspberry Pi (or the model file is unreadable)

    @property
    def is_pi(self) -> bool:
        return self.name is not None and self.name.startswith("Raspberry Pi")

    @property
    def led_drivers(self) -> tuple[str, ...]:
        """The LED back-ends that work on this board (all of them when it is not known)."""
        if self.name is not None and self.is_pi and any(self.name.startswith(board) for board in RP1_BOARDS):
            return tuple(name for name in LED_BACKENDS if led_backend(name).on_rp1)
        return tuple(LED_BACKENDS)

    def describe(self) -> str:
        where = self.name if self.is_pi else f"not a Raspberry Pi ({self.name or 'no ' + str(MODEL_PATH)})"
        return f"{where}: LED back-ends {', '.join(self.led_drivers)}"

    def check_led_driver(self, driver: str) -> None:
        if driver not in self.led_drivers:
            suggested = self.led_drivers[0]
            block, pins = next(iter(led_backend(suggested).pins.items()))
            raise UnsupportedBoard(
                f"the pin map's LED back-end {driver!r} cannot drive LEDs on a {self.name} "
                f"(it supports {', '.join(self.led_drivers)}): set leds.driver = "
                f"\"{suggested}\" with backend = \"{block}\" and pin = {pins[0]} in the pin map")


def read_model(path: Path = MODEL_PATH) -> PiModel:
    """The board named by the kernel; ``PiModel(None)`` off a Pi."""
    try:
        name = path.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
    except OSError:
        return PiModel(None)
    return PiModel(name or None)

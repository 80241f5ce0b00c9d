"""The WS2812 back-end for Pi 3 / 4 / Zero 2 W, through rpi_ws281x.

Only the Pi factory builds this: ``begin()`` fails off a Pi, and setting a pixel before a good
``begin()`` crashes the interpreter, so tests never construct it. rpi_ws281x does not run on a
Pi 5; a back-end for it implements ``firmware.leds.Strip`` the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware.backends import LedBackend, Release
from firmware.leds import OFF, RGB, Strip
from firmware.pinmap import LedConfig

if TYPE_CHECKING:
    from firmware.sim_mat import SimMat

WS2812_HZ = 800_000
# PWM channel 1 lives on GPIO13/19, everything the pin map allows (10, 12, 18, 21) uses 0.
PWM_CHANNEL_1_PINS = (13, 19)


class WS281xStrip(Strip):
    def __init__(self, config: LedConfig):
        # Imported here: the package is optional (the "pi" extra) and only useful on a Pi.
        from rpi_ws281x import PixelStrip

        self.count = config.count
        # Brightness stays at full: the cap is applied to every frame in software by LedMat,
        # the same for every back-end and visible in the simulation.
        self._strip = PixelStrip(config.count, config.pin, freq_hz=WS2812_HZ, dma=config.dma,
                                 invert=False, brightness=255,
                                 channel=1 if config.pin in PWM_CHANNEL_1_PINS else 0)
        try:
            self._strip.begin()
        except RuntimeError as e:
            hint = ("enable SPI (dtparam=spi=on), set core_freq in config.txt and add the user to "
                    "the spi and gpio groups" if config.backend == "spi" else
                    "the pwm and pcm back-ends need root")
            raise RuntimeError(f"WS2812 strip on GPIO{config.pin} ({config.backend}) did not start: "
                               f"{e}; {hint}") from e

    def write(self, pixels: Sequence[RGB]) -> None:
        for i, (r, g, b) in enumerate(pixels):
            self._strip.setPixelColor(i, (r << 16) | (g << 8) | b)
        self._strip.show()

    def close(self) -> None:
        self.write([OFF] * self.count)


def _open(config: LedConfig, release: Release) -> Strip:
    return WS281xStrip(config)


def _twin(config: LedConfig, sim: SimMat) -> Strip:
    # The simulated mat's recording strip stands in for the chain rpi_ws281x would drive.
    return sim.strip


# Pins rpi_ws281x can drive WS2812s from, per back-end block of the SoC.
BACKEND = LedBackend(pins={"spi": (10,), "pwm": (12, 18), "pcm": (21,)}, on_rp1=False,
                     open=_open, twin=_twin)

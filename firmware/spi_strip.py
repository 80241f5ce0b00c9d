"""The WS2812 back-end for every Pi with SPI, the Pi 5 included: Adafruit's neopixel_spi.

Each WS2812 bit goes out as one SPI byte at 6.4 MHz (``0b11110000`` a one, ``0b11000000`` a
zero), so the timing comes from the SPI clock and no DMA, PWM or root is needed; it is the one
back-end that works on the Pi 5's RP1 chip. The bus is ``firmware.spi_bus.LinuxSPI`` on a Pi
and ``firmware.sim_spi.FakeWS2812Spi`` in the simulation, which decodes those bytes back into
colours: the library runs unchanged in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware.backends import LedBackend, Release
from firmware.leds import OFF, RGB, Strip
from firmware.pinmap import LedConfig

if TYPE_CHECKING:
    from firmware.sim_mat import SimMat

SPI_HZ = 6_400_000  # 8 SPI bits per WS2812 bit at 800 kHz


class NeoPixelSpiStrip(Strip):
    def __init__(self, config: LedConfig, spi: object):
        # Imported here: only the builders of this back-end need the library.
        import neopixel_spi

        self.count = config.count
        # Brightness stays at full: LedMat applies the pin map's cap, as for every back-end.
        self._pixels = neopixel_spi.NeoPixel_SPI(spi, config.count, pixel_order=neopixel_spi.GRB,
                                                 auto_write=False, brightness=1.0, frequency=SPI_HZ)

    def write(self, pixels: Sequence[RGB]) -> None:
        self._pixels[:] = list(pixels)
        self._pixels.show()

    def close(self) -> None:
        self.write([OFF] * self.count)


def _open(config: LedConfig, release: Release) -> Strip:
    from firmware.spi_bus import LinuxSPI

    spi = LinuxSPI(0, 0)
    release.append(spi.close)
    return NeoPixelSpiStrip(config, spi)


def _twin(config: LedConfig, sim: SimMat) -> Strip:
    # The library runs unchanged over the simulated mat's fake SPI bus.
    return NeoPixelSpiStrip(config, sim.spi)


BACKEND = LedBackend(pins={"spi": (10,)}, on_rp1=True, open=_open, twin=_twin)

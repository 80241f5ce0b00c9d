"""A fake SPI bus with a WS2812 chain on its MOSI line: neopixel_spi talks to it unchanged.

The bus checks what the real chain needs (the SPI clock at 6.4 MHz, mode 0, 8-bit words, a
reset gap of at least 50 us of zeros around the data) and decodes every byte the way a WS2812
samples it: ``0b11110000`` is a one, ``0b11000000`` a zero, 24 bits per LED in green-red-blue
order. The colours go to a ``RecordingStrip``, so the simulation reads them like any strip's.
"""

from __future__ import annotations

import threading

from firmware.errors import FirmwareError
from firmware.leds import RGB
from firmware.sim_strip import RecordingStrip

BIT1, BIT0 = 0b11110000, 0b11000000
RESET_S = 50e-6  # a WS2812 latches after the line is low this long


class SpiProtocolError(FirmwareError, ValueError):
    """Bytes a WS2812 chain would misread."""


class FakeWS2812Spi:
    def __init__(self, sink: RecordingStrip):
        self.sink = sink
        self.frequency = 0
        self.mode: tuple[int, int, int] | None = None
        self._lock = threading.Lock()

    # -- the busio.SPI surface adafruit_bus_device uses ----------------------------------------
    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def configure(self, *, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.frequency = baudrate
        self.mode = (polarity, phase, bits)

    def write(self, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self.sink.write(self.decode(bytes(buffer[start:end])))

    # -- the chain ----------------------------------------------------------------------------
    def decode(self, data: bytes) -> list[RGB]:
        if not 6_000_000 <= self.frequency <= 6_800_000 or self.mode != (0, 0, 8):
            raise SpiProtocolError(f"WS2812 over SPI needs 6.4 MHz, mode 0, 8 bits, not "
                                   f"{self.frequency} Hz, {self.mode}")
        body = data.strip(b"\0")
        lead = data.index(body[:1]) if body else len(data)
        trail = len(data) - lead - len(body)
        gap = min(lead, trail) * 8 / self.frequency
        if gap < RESET_S:
            raise SpiProtocolError(f"a reset gap of {gap * 1e6:.0f} us; a WS2812 needs {RESET_S * 1e6:.0f} us")
        if len(body) % 24:
            # A frame whose last byte encodes zeros still ends in BIT0, never 0: lengths are exact.
            raise SpiProtocolError(f"{len(body)} data bytes is not a whole number of LEDs (24 each)")
        bits = []
        for byte in body:
            if byte not in (BIT0, BIT1):
                raise SpiProtocolError(f"byte 0b{byte:08b} is neither a WS2812 one nor a zero")
            bits.append(byte == BIT1)
        pixels = []
        for i in range(0, len(bits), 24):
            g, r, b = (sum(bit << (7 - k) for k, bit in enumerate(bits[i + j:i + j + 8])) for j in (0, 8, 16))
            pixels.append((r, g, b))
        return pixels

"""The Pi's SPI bus for Adafruit drivers, opened straight on ``/dev/spidevB.D``.

As with I2C (``firmware.i2c_bus``), ``board.SPI()`` would first make Blinka probe the platform.
neopixel_spi only calls ``try_lock``, ``unlock``, ``configure`` and ``write`` (through
adafruit_bus_device's ``SPIDevice``): this class gives exactly that over Adafruit_PureIO's
spidev wrapper, the code Blinka itself uses on Linux. It works on every Pi with SPI enabled,
the Pi 5's RP1 included.
"""

from __future__ import annotations

import threading


class LinuxSPI:
    def __init__(self, bus: int = 0, device: int = 0):
        # Imported here: only the Pi factory opens a real bus.
        from Adafruit_PureIO.spi import SPI

        try:
            self._spi = SPI((bus, device))
        except FileNotFoundError:
            raise OSError(f"/dev/spidev{bus}.{device} does not exist: enable SPI (dtparam=spi=on in "
                          "/boot/firmware/config.txt) and reboot") from None
        self._lock = threading.Lock()
        self.frequency = 0

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def configure(self, *, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self._spi.max_speed_hz = baudrate
        self._spi.mode = (polarity << 1) | phase
        self._spi.bits_per_word = bits
        self.frequency = baudrate

    def write(self, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._spi.writebytes(bytes(buffer[start:end]))

    def close(self) -> None:
        self._spi.close()

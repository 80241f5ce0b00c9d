"""The Pi's I2C bus for Adafruit drivers, opened straight on ``/dev/i2c-N``.

Adafruit drivers take a ``busio.I2C``. On a Pi that object comes through ``import board``,
where Blinka first probes the platform, needs the ``gpiod`` package for pins this project
never touches through it, and may offer to pip-install missing packages at start. The SSD1306
driver only calls ``try_lock``, ``unlock``, ``writeto`` and ``readfrom_into``: this class gives
exactly that over Adafruit_PureIO's SMBus, the same code Blinka uses underneath. The bus speed
belongs to the kernel (``dtparam=i2c_arm_baudrate`` in config.txt), so there is no frequency.
"""

from __future__ import annotations

import threading


class LinuxI2C:
    def __init__(self, bus: int):
        # Imported here: only the Pi factory opens a real bus.
        from Adafruit_PureIO.smbus import SMBus

        try:
            self._bus = SMBus(bus)
        except FileNotFoundError:
            raise OSError(f"/dev/i2c-{bus} does not exist: enable I2C (dtparam=i2c_arm=on in "
                          "/boot/firmware/config.txt) and reboot") from None
        self._lock = threading.Lock()

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._bus.write_bytes(address, bytes(buffer[start:end]))

    def readfrom_into(self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None) -> None:
        end = len(buffer) if end is None else end
        buffer[start:end] = self._bus.read_bytes(address, end - start)

    def close(self) -> None:
        self._bus.close()

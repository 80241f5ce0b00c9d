"""The OLED behind one contract: ``display(image)`` with a 128x64 1-bit Pillow image.

Two controllers, chosen by the pin map's ``oled.driver`` (``firmware.backends``): the SSD1306
through Adafruit's ``SSD1306_I2C`` driver, and the SH1106 (many 1.3" modules) through
luma.oled's ``sh1106`` device. Each runs on the Pi's I2C bus or on the simulation's fake bus alike. A full frame takes
about 23 ms at 400 kHz, so ``display`` only hands the image to a worker thread and returns; if
images come faster than the bus, the latest one wins.
"""

from __future__ import annotations

import logging
import threading

# Imports busio and digitalio for type annotations: on a desktop Blinka loads them quietly; on a
# Pi, digitalio needs the gpiod package (the "pi" extra). `board`, which probes the platform and
# offers to install packages, is never imported (see firmware.i2c_bus).
import adafruit_ssd1306
from PIL import Image

from firmware.backends import OledBackend, OledTwin, Release, oled_backend
from firmware.errors import FirmwareError, join_thread
from firmware.pinmap import OledConfig

log = logging.getLogger(__name__)


class OledError(FirmwareError, RuntimeError):
    """The display did not answer."""


def page_bytes(image: Image.Image) -> bytes:
    """The image in SSD1306 RAM order: 8 pages of one byte per column, bit 0 the top row."""
    width, height = image.size
    out = bytearray()
    for top in range(0, height, 8):
        strip = image.crop((0, top, width, top + 8))
        # Pillow packs 1-bit rows most significant bit first; flipping the 8-row strip and
        # turning columns into rows puts the top pixel of each column in bit 0.
        out += strip.transpose(Image.Transpose.FLIP_TOP_BOTTOM).transpose(Image.Transpose.TRANSPOSE).tobytes()
    return bytes(out)


class SSD1306Panel:
    """The SSD1306 through Adafruit's driver; ``i2c`` is a ``busio.I2C``-like bus."""

    def __init__(self, i2c: object, config: OledConfig):
        try:
            self._driver = adafruit_ssd1306.SSD1306_I2C(config.width, config.height, i2c, addr=config.address)
        except (ValueError, OSError) as e:
            raise OledError(f"no SSD1306 answered at I2C address 0x{config.address:02X} on bus "
                            f"{config.bus} ({e}): check its wiring and that I2C is enabled") from e

    def send(self, image: Image.Image) -> None:
        # The driver's own image() loops over all 8192 pixels in Python; its buffer holds the
        # data bytes after one control byte, so the pages are copied in directly.
        self._driver.buffer[1:] = page_bytes(image)
        self._driver.show()

    def off(self) -> None:
        self._driver.fill(0)
        self._driver.show()
        self._driver.poweroff()


class SH1106Panel:
    """The SH1106 through luma.oled; ``bus`` is an SMBus-like bus, or None for luma to open
    ``/dev/i2c-<config.bus>`` itself (on a Pi)."""

    def __init__(self, bus: object | None, config: OledConfig):
        # Imported here: only this controller needs luma.
        from luma.core.error import Error as LumaError
        from luma.core.interface.serial import i2c
        from luma.oled.device import sh1106

        self._luma_error = LumaError
        try:
            serial = i2c(bus=bus, port=config.bus, address=config.address)
            self._device = sh1106(serial, width=config.width, height=config.height)
        except (LumaError, OSError) as e:
            raise OledError(f"no SH1106 answered at I2C address 0x{config.address:02X} on bus "
                            f"{config.bus} ({e}): check its wiring and that I2C is enabled "
                            "(dtparam=i2c_arm=on in /boot/firmware/config.txt)") from e
        # luma blanks the panel at exit by itself; Oled.close() does it in order instead.
        self._device.persist = True

    def send(self, image: Image.Image) -> None:
        try:
            self._device.display(image)
        except self._luma_error as e:  # luma turns a failed transfer into its own error
            raise OSError(str(e)) from e

    def off(self) -> None:
        try:
            self._device.clear()
            self._device.hide()
        except self._luma_error as e:
            raise OSError(str(e)) from e


def _linux_i2c(config: OledConfig, release: Release) -> object:
    from firmware.i2c_bus import LinuxI2C

    bus = LinuxI2C(config.bus)
    release.append(bus.close)
    return bus


def _luma_opens_it(config: OledConfig, release: Release) -> None:
    return None  # luma.oled opens /dev/i2c-N itself


def _fake_ssd1306(address: int) -> OledTwin:
    from firmware.sim_oled import FakeSSD1306Bus

    return FakeSSD1306Bus(address)


def _fake_sh1106(address: int) -> OledTwin:
    from firmware.sim_oled import FakeSH1106Bus

    return FakeSH1106Bus(address)


SSD1306 = OledBackend(panel=SSD1306Panel, bus=_linux_i2c, twin=_fake_ssd1306)
SH1106 = OledBackend(panel=SH1106Panel, bus=_luma_opens_it, twin=_fake_sh1106)


class Oled:
    """The status display. ``display()`` never blocks on the bus; ``close()`` blanks it."""

    def __init__(self, bus: object | None, config: OledConfig):
        self.size = (config.width, config.height)
        self._panel = oled_backend(config.driver).panel(bus, config)
        self._latest: Image.Image | None = None
        self._asked = self._shown = 0
        self._closing = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="oled", daemon=True)
        self._thread.start()

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (mode "1", 128x64) as soon as the bus is free."""
        if image.mode != "1" or image.size != self.size:
            raise ValueError(f"the OLED shows {self.size[0]}x{self.size[1]} 1-bit images, "
                             f"not {image.size[0]}x{image.size[1]} mode {image.mode!r}")
        with self._changed:
            self._latest = image.copy()
            self._asked += 1
            self._changed.notify_all()

    def wait_shown(self, timeout: float) -> bool:
        """Wait until the last image given to ``display`` has gone out; False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: self._shown == self._asked, timeout)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._latest is not None or self._closing)
                if self._latest is None:
                    return
                image, asked, self._latest = self._latest, self._asked, None
            try:
                self._send(image)
            except OSError:
                # A glitch on the bus loses this frame, not the display: the next one retries.
                log.exception("OLED update failed")
            with self._changed:
                self._shown = asked
                self._changed.notify_all()

    def _send(self, image: Image.Image) -> None:
        self._panel.send(image)

    def close(self) -> None:
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        join_thread(self._thread)  # a thread stuck on the bus holds it: the panel is left as it is
        try:
            self._panel.off()
        except OSError:
            log.exception("could not blank the OLED")

    def __enter__(self) -> Oled:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

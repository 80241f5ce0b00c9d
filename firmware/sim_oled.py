"""A fake I2C bus with an SSD1306 on it: the real Adafruit driver talks to it unchanged.

The bus decodes the driver's bytes the way the controller does (control byte, command stream,
display RAM written in horizontal addressing mode), so what the driver sends can be turned
back into the picture the panel would show and saved as PNG. A device that does not answer
at the driver's address makes the driver's probe fail, as on real hardware.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from PIL import Image

from firmware.recording import wait_recorded

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8

# Parameter bytes that follow each multi-byte command (SSD1306 datasheet, section 9).
_PARAMS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
           0xA3: 2, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
# Commands that only tune the panel (timing, charge pump, scrolling, orientation): accepted,
# they do not change what the RAM holds.
_PANEL_ONLY = {0x26, 0x27, 0x29, 0x2A, 0x2E, 0x2F, 0x8D, 0xA0, 0xA1, 0xA3, 0xA4, 0xA5, 0xA8, 0xAD,
               0xC0, 0xC8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0xE3} | set(range(0x40, 0x80))


def image_from_pages(ram: bytes) -> Image.Image:
    """A 128x64 1-bit image from SSD1306 RAM: 8 pages of 128 bytes, bit 0 the top row."""
    image = Image.new("1", (WIDTH, HEIGHT))
    for page in range(PAGES):
        columns = Image.frombytes("1", (8, WIDTH), bytes(ram[page * WIDTH:(page + 1) * WIDTH]))
        # frombytes packs the most significant bit leftmost: each row is one column, bottom up.
        strip = columns.transpose(Image.Transpose.TRANSPOSE).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        image.paste(strip, (0, page * 8))
    return image


class FakeSSD1306Bus:
    """Stands in for ``busio.I2C`` with one SSD1306 at ``address``."""

    def __init__(self, address: int = 0x3C, keep: int = 1000):
        self.address = address
        self.ram = bytearray(WIDTH * PAGES)
        self.display_on = False
        self.inverted = False
        self.contrast = 0x7F
        self.frames: deque[tuple[float, Image.Image]] = deque(maxlen=keep)
        self._bus = threading.Lock()
        self._command: list[int] = []
        self._window = (0, WIDTH - 1, 0, PAGES - 1)  # columns and pages being written
        self._column = self._page = 0
        self._count = 0
        self._written = threading.Condition()

    # -- the busio.I2C surface the Adafruit driver uses --------------------------------------
    def try_lock(self) -> bool:
        return self._bus.acquire(blocking=False)

    def unlock(self) -> None:
        self._bus.release()

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._answer(address)
        data = bytes(buffer[start:end])
        if data:
            self._transfer(data)

    def readfrom_into(self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None) -> None:
        self._answer(address)
        end = len(buffer) if end is None else end
        buffer[start:end] = bytes(end - start)

    def _answer(self, address: int) -> None:
        if address != self.address:
            raise OSError(121, f"no device at I2C address 0x{address:02x}")  # EREMOTEIO, as Linux

    # -- the controller ---------------------------------------------------------------------
    def _transfer(self, data: bytes) -> None:
        i = 0
        wrote_ram = False
        while i < len(data):
            control = data[i]
            i += 1
            # Co=1: one byte follows, then another control byte; Co=0: the rest is one stream.
            chunk = data[i:i + 1] if control & 0x80 else data[i:]
            i += len(chunk)
            if control & 0x40:
                self._write_ram(chunk)
                wrote_ram = True
            else:
                for byte in chunk:
                    self._command_byte(byte)
        if wrote_ram:
            with self._written:
                self.frames.append((time.monotonic(), self.image()))
                self._count += 1
                self._written.notify_all()

    def _command_byte(self, byte: int) -> None:
        self._command.append(byte)
        head = self._command[0]
        if len(self._command) <= _PARAMS.get(head, 0):
            return
        command, self._command = self._command, []
        if head == 0x20:
            if command[1] & 0x03 != 0:
                raise ValueError("FakeSSD1306Bus models horizontal addressing (0x20, 0x00) only")
        elif head == 0x21:
            self._window = (command[1] & 0x7F, command[2] & 0x7F, *self._window[2:])
            self._column = self._window[0]
        elif head == 0x22:
            self._window = (*self._window[:2], command[1] & 0x07, command[2] & 0x07)
            self._page = self._window[2]
        elif head == 0x81:
            self.contrast = command[1]
        elif head in (0xA6, 0xA7):
            self.inverted = head == 0xA7
        elif head in (0xAE, 0xAF):
            self.display_on = head == 0xAF
        elif head not in _PANEL_ONLY:
            raise ValueError(f"SSD1306 command 0x{head:02X} is not modelled")

    def _write_ram(self, chunk: bytes) -> None:
        first_column, last_column, first_page, last_page = self._window
        for byte in chunk:
            self.ram[self._page * WIDTH + self._column] = byte
            self._column += 1
            if self._column > last_column:
                self._column = first_column
                self._page = first_page if self._page >= last_page else self._page + 1

    # -- what the panel shows ---------------------------------------------------------------
    def image(self) -> Image.Image:
        """The display RAM as an image (before inversion or power state)."""
        return image_from_pages(bytes(self.ram))

    def wait_for(self, predicate: Callable[[Image.Image], bool], timeout: float) -> Image.Image | None:
        """The first image now in RAM or written within ``timeout`` that satisfies ``predicate``."""
        return wait_recorded(self._written, lambda: self._count,
                             lambda: self.frames[-1][1] if self.frames else self.image(),
                             lambda n: [image for _, image in list(self.frames)[-n:]],
                             predicate, timeout)


# SH1106 (Sino Wealth datasheet v2.3, section 9): one byte per command except these, which
# take one parameter byte. The controller has 132 columns of RAM; a 128-pixel panel shows
# columns 2-129. Bytes that are no SH1106 command (an SSD1306 init sends 0x20 and 0x8D) are
# ignored by the chip, and so here.
_SH1106_PARAMS = {0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB}
SH1106_COLUMNS, SH1106_FIRST_SHOWN = 132, 2


class FakeSH1106Bus:
    """Stands in for an SMBus (``smbus2.SMBus``) with one SH1106 at ``address``: luma.oled's
    sh1106 device writes to it unchanged (32-byte blocks of ``write_i2c_block_data``)."""

    def __init__(self, address: int = 0x3C, keep: int = 1000):
        self.address = address
        self.ram = bytearray(SH1106_COLUMNS * PAGES)
        self.display_on = False
        self.inverted = False
        self.contrast = 0x80
        self.frames: deque[tuple[float, Image.Image]] = deque(maxlen=keep)
        self._pending: int | None = None  # a command waiting for its parameter
        self._column = self._page = 0
        self._count = 0
        self._written = threading.Condition()

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if address != self.address:
            raise OSError(121, f"no device at I2C address 0x{address:02x}")  # EREMOTEIO
        if register == 0x40:
            for byte in data:
                if self._column < SH1106_COLUMNS:  # past the last column the SH1106 stops
                    self.ram[self._page * SH1106_COLUMNS + self._column] = byte
                self._column += 1
            # luma writes the pages top to bottom: a picture is complete with the last page's row.
            if self._page == PAGES - 1 and self._column >= SH1106_FIRST_SHOWN + WIDTH:
                with self._written:
                    self.frames.append((time.monotonic(), self.image()))
                    self._count += 1
                    self._written.notify_all()
        elif register == 0x00:
            for byte in data:
                self._command_byte(byte)
        else:
            raise ValueError(f"control byte 0x{register:02X} is neither a command nor data stream")

    def close(self) -> None:
        pass

    def _command_byte(self, byte: int) -> None:
        if self._pending is not None:
            if self._pending == 0x81:
                self.contrast = byte
            self._pending = None
        elif byte in _SH1106_PARAMS:
            self._pending = byte
        elif byte <= 0x0F:
            self._column = (self._column & 0xF0) | byte
        elif byte <= 0x1F:
            self._column = (self._column & 0x0F) | (byte & 0x0F) << 4
        elif 0xB0 <= byte <= 0xB7:
            self._page = byte & 0x07
        elif byte in (0xA6, 0xA7):
            self.inverted = byte == 0xA7
        elif byte in (0xAE, 0xAF):
            self.display_on = byte == 0xAF

    def image(self) -> Image.Image:
        """What the panel shows: RAM columns 2-129 of each page."""
        shown = bytearray()
        for page in range(PAGES):
            start = page * SH1106_COLUMNS + SH1106_FIRST_SHOWN
            shown += self.ram[start:start + WIDTH]
        return image_from_pages(bytes(shown))

    def wait_for(self, predicate: Callable[[Image.Image], bool], timeout: float) -> Image.Image | None:
        """The first image now shown or written within ``timeout`` that satisfies ``predicate``."""
        return wait_recorded(self._written, lambda: self._count,
                             lambda: self.frames[-1][1] if self.frames else self.image(),
                             lambda n: [image for _, image in list(self.frames)[-n:]],
                             predicate, timeout)

"""A back-end that exists only in the tests, in one file as a real one would be: an LED driver
on a block no other back-end uses ("pio"), and an OLED controller. test_fw_backends.py adds
it to the registry, the one other place a back-end is named."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from PIL import Image

from firmware.backends import LedBackend, OledBackend, Release
from firmware.leds import RGB, Strip
from firmware.pinmap import LedConfig, OledConfig
from firmware.sim_mat import SimMat


class FakeStrip(Strip):
    def __init__(self, config: LedConfig, where: str):
        self.count = config.count
        self.where = where            # "pi" or "sim": which of the entry's builders made it
        self.frames: list[list[RGB]] = []
        self.closed = False
        self.written = threading.Event()

    def write(self, pixels: Sequence[RGB]) -> None:
        self.frames.append(list(pixels))
        self.written.set()

    def close(self) -> None:
        self.closed = True


class FakeOledDevice:
    """The panel's memory: what was last sent, as a picture."""

    def __init__(self, address: int):
        self.address = address
        self.picture = Image.new("1", (128, 64))
        self.blank = False

    def image(self) -> Image.Image:
        return self.picture.copy()


class FakePanel:
    def __init__(self, bus: object | None, config: OledConfig):
        assert isinstance(bus, FakeOledDevice) and bus.address == config.address
        self.device = bus

    def send(self, image: Image.Image) -> None:
        self.device.picture = image.copy()

    def off(self) -> None:
        self.device.blank = True


def _open_strip(config: LedConfig, release: Release) -> Strip:
    return FakeStrip(config, "pi")


def _twin_strip(config: LedConfig, sim: SimMat) -> Strip:
    return FakeStrip(config, "sim")


def _pi_bus(config: OledConfig, release: Release) -> object:
    device = FakeOledDevice(config.address)
    release.append(lambda: setattr(device, "released", True))
    return device


LEDS = LedBackend(pins={"pio": (10, 12)}, on_rp1=True, open=_open_strip, twin=_twin_strip)
OLED = OledBackend(panel=FakePanel, bus=_pi_bus, twin=FakeOledDevice)

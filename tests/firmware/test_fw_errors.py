"""The hardware layer's errors share one root, and no close() waits for ever on a thread."""

from __future__ import annotations

import importlib
import inspect
import logging
import pkgutil
import threading
from collections.abc import Sequence

import pytest

import firmware
from firmware import errors
from firmware.animation import Animator, Steady
from firmware.errors import FirmwareError, ThreadStuck
from firmware.hardware import make_hardware
from firmware.leds import GREEN, RGB, LedMat, Strip

# The fake lgpio's exception carries the name and place of the library's own (lgpio.error),
# which the group scanner catches on a Pi: it is lgpio's, not the firmware's.
NOT_OURS = {"firmware.sim_lgpio.error"}


def test_every_error_the_firmware_defines_has_the_one_root():
    found = {}
    for info in pkgutil.iter_modules(firmware.__path__):
        module = importlib.import_module(f"firmware.{info.name}")
        for name, value in vars(module).items():
            # A private exception (the pin map reader's _Missing) is control flow that never
            # leaves its module.
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == module.__name__ and not name.startswith("_")):
                found[f"{module.__name__}.{name}"] = value
    assert {"firmware.pinmap.PinMapError", "firmware.pimodel.UnsupportedBoard",
            "firmware.oled.OledError", "firmware.sim_spi.SpiProtocolError",
            "firmware.errors.ThreadStuck"} <= set(found)
    strays = [name for name, cls in found.items()
              if not issubclass(cls, FirmwareError) and name not in NOT_OURS]
    assert not strays


class BlockingStrip(Strip):
    """A driver that hangs in write() until let go, as a wedged bus would."""

    def __init__(self, count: int):
        self.count = count
        self.entered = threading.Event()
        self.let_go = threading.Event()
        self.closed = False

    def write(self, pixels: Sequence[RGB]) -> None:
        self.entered.set()
        self.let_go.wait()

    def close(self) -> None:
        self.closed = True


def test_a_stuck_thread_is_named_and_its_device_left_alone(pinmap, monkeypatch):
    monkeypatch.setattr(errors, "JOIN_TIMEOUT_S", 0.2)
    strip = BlockingStrip(pinmap.leds.count)
    animator = Animator(LedMat(strip, pinmap.leds))
    try:
        animator.set_scene({12: Steady(GREEN)})
        assert strip.entered.wait(5.0)
        with pytest.raises(ThreadStuck, match="the led-animator thread did not stop within 0.2 s"):
            animator.close()
        assert not strip.closed
    finally:
        strip.let_go.set()
        animator._thread.join(5.0)


def test_the_hardware_closes_the_rest_when_one_device_is_stuck(caplog):
    hw = make_hardware("sim")
    stuck_close = hw.animator.close

    def stuck() -> None:
        raise ThreadStuck("the led-animator thread did not stop within 2 s")

    hw.animator.close = stuck
    with caplog.at_level(logging.ERROR, logger="firmware.hardware"):
        hw.close()
    assert "a device did not stop" in caplog.text
    assert not any(t.name in ("oled", "buttons", "matrix-scan") and t.is_alive()
                   for t in threading.enumerate())
    stuck_close()

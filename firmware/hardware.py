"""One bundle of devices for the whole board, on a Pi or simulated: ``make_hardware(mode)``.

Everything above this module gets the same objects either way (a scanner, the LED animator,
the OLED, the buttons); only the simulation also hands out the ``SimMat`` to place pawns,
press buttons and read back what the LEDs and the OLED show.

The choices, each with a simulated twin at its lowest level:
- scanner: ``"group"`` (lgpio group calls, 11 a scan; the default on a Pi with lgpio, and in
  the simulation) or ``"pins"`` (one gpiozero device per pin, 35 calls a scan);
- LEDs: the pin map's ``leds.driver``, rpi_ws281x (Pi 1-4, Zero 2 W; in the simulation the
  recording strip stands in for it) or neopixel_spi (every Pi; in the simulation a fake SPI
  bus decodes its bytes);
- OLED: the pin map's ``oled.driver``, ssd1306 or sh1106 (each with its fake I2C device).
The back-ends are named entries of ``firmware.backends``, each with its simulated twin.
On a Pi the board is checked first (``firmware.pimodel``): a back-end it cannot drive is
refused before any pin is touched.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpiozero.pins import Factory

from firmware.animation import Animator
from firmware.backends import led_backend, oled_backend
from firmware.buttons import Buttons
from firmware.errors import ThreadStuck
from firmware.group_scan import GroupScanner
from firmware.leds import LedMat, Strip
from firmware.matrix import MatrixScanner, Scanner
from firmware.oled import Oled
from firmware.pimodel import PiModel, read_model
from firmware.pinmap import PinMap, load_pinmap
from firmware.sim_mat import SimMat

log = logging.getLogger(__name__)

MODES = ("pi", "sim")
SCANNERS = ("auto", "group", "pins")


@dataclass
class Hardware:
    pinmap: PinMap
    scanner: MatrixScanner | GroupScanner
    animator: Animator
    oled: Oled
    buttons: Buttons
    sim: SimMat | None = None  # only in the simulation
    model: PiModel | None = None  # the board, as checked at start (None in the simulation)
    release: list[Callable[[], None]] = field(default_factory=list)  # buses to close last

    def close(self) -> None:
        """Stop every thread, turn the LEDs and the OLED off, release the pins and buses. A
        device whose thread does not stop is logged and left as it is; the others still close
        (a shutdown must not hang on one driver)."""
        devices: list[Callable[[], None]] = [self.buttons.close, self.animator.close, self.oled.close,
                                             self.scanner.close]
        for close in devices:
            try:
                close()
            except ThreadStuck:
                log.exception("a device did not stop")
        if self.sim is not None:
            self.sim.close()
        for release in self.release:
            release()

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_hardware(mode: str, pinmap: PinMap | None = None, sim: SimMat | None = None, *,
                  scanner: str = "auto", model: PiModel | None = None) -> Hardware:
    """Build the devices for ``mode`` ("pi" or "sim"). In sim, pass ``sim`` to use a mat
    built with faults (``SimMat(pinmap, dead_switches=...)``). ``scanner``: "group", "pins",
    or "auto" (group wherever lgpio is there). ``model``: the board to check the pin map
    against (on a Pi, by default, the one the kernel names; in sim, by default none)."""
    if mode not in MODES:
        raise ValueError(f"hardware mode must be 'pi' or 'sim', not {mode!r}")
    if scanner not in SCANNERS:
        raise ValueError(f"scanner must be one of {', '.join(SCANNERS)}, not {scanner!r}")
    pinmap = pinmap or (sim.pinmap if sim is not None else load_pinmap())
    if mode == "pi" and model is None:
        model = read_model()
        log.info("board: %s; the pin map asks for LEDs through %s and an %s OLED", model.describe(),
                 pinmap.leds.driver, pinmap.oled.driver.upper())
    if model is not None:
        model.check_led_driver(pinmap.leds.driver)
    if mode == "sim":
        sim = sim or SimMat(pinmap)
        try:
            strip = led_backend(pinmap.leds.driver).twin(pinmap.leds, sim)
            return _assemble(pinmap, sim.factory, _scan_lib(scanner, sim.lgpio), strip, sim.i2c, sim, model)
        except Exception:
            sim.close()
            raise
    # Built only here: opening a bus fails off a Pi, and the WS2812 library must never start
    # off one. None: gpiozero's default pin factory (lgpio on a Pi).
    lgpio: Any = None
    if scanner != "pins":
        try:
            lgpio = importlib.import_module("lgpio")
        except ImportError:
            if scanner == "group":
                raise
    release: list[Callable[[], None]] = []
    try:
        i2c = oled_backend(pinmap.oled.driver).bus(pinmap.oled, release)
        strip = led_backend(pinmap.leds.driver).open(pinmap.leds, release)
        hardware = _assemble(pinmap, None, lgpio, strip, i2c, None, model)
    except Exception:
        for close in reversed(release):
            close()
        raise
    hardware.release.extend(release)
    return hardware


def _scan_lib(scanner: str, lgpio: Any) -> Any:
    return None if scanner == "pins" else lgpio


def _assemble(pinmap: PinMap, factory: Factory | None, lgpio: Any, strip: Strip, i2c: object,
              sim: SimMat | None, model: PiModel | None) -> Hardware:
    opened: list[Animator | Oled | Scanner] = []
    try:
        animator = Animator(LedMat(strip, pinmap.leds))
        opened.append(animator)
        oled = Oled(i2c, pinmap.oled)
        opened.append(oled)
        scanner = (GroupScanner(pinmap.matrix, lgpio) if lgpio is not None
                   else MatrixScanner(pinmap.matrix, pin_factory=factory))
        opened.append(scanner)
        buttons = Buttons(pinmap.buttons, pin_factory=factory)
    except Exception:
        for device in reversed(opened):
            device.close()
        raise
    return Hardware(pinmap, scanner, animator, oled, buttons, sim, model)

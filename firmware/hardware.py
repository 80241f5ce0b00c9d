"""One bundle of devices for the whole board, on a Pi or simulated: ``make_hardware(mode)``.

Everything above this module gets the same objects either way (a scanner, the LED animator,
the OLED, the buttons); only the simulation also hands out the ``SimMat`` to place pawns,
press buttons and read back what the LEDs and the OLED show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gpiozero.pins import Factory

from firmware.animation import Animator
from firmware.buttons import Buttons
from firmware.leds import LedMat, Strip
from firmware.matrix import MatrixScanner
from firmware.oled import Oled
from firmware.pinmap import PinMap, load_pinmap
from firmware.sim_mat import SimMat

MODES = ("pi", "sim")


@dataclass
class Hardware:
    pinmap: PinMap
    scanner: MatrixScanner
    animator: Animator
    oled: Oled
    buttons: Buttons
    sim: SimMat | None = None  # only in the simulation
    release: list[Callable[[], None]] = field(default_factory=list)  # buses to close last

    def close(self) -> None:
        """Stop every thread, turn the LEDs and the OLED off, release the pins and buses."""
        self.buttons.close()
        self.animator.close()
        self.oled.close()
        self.scanner.close()
        if self.sim is not None:
            self.sim.close()
        for release in self.release:
            release()

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_hardware(mode: str, pinmap: PinMap | None = None, sim: SimMat | None = None) -> Hardware:
    """Build the devices for ``mode`` ("pi" or "sim"). In sim, pass ``sim`` to use a mat
    built with faults (``SimMat(pinmap, dead_switches=...)``)."""
    if mode not in MODES:
        raise ValueError(f"hardware mode must be 'pi' or 'sim', not {mode!r}")
    pinmap = pinmap or (sim.pinmap if sim is not None else load_pinmap())
    if mode == "sim":
        sim = sim or SimMat(pinmap)
        return _assemble(pinmap, sim.factory, sim.strip, sim.i2c, sim)
    # Built only here: opening a bus fails off a Pi, and the WS2812 library must never start
    # off one. None: gpiozero's default pin factory (lgpio on a Pi).
    from firmware.i2c_bus import LinuxI2C
    from firmware.ws281x import WS281xStrip

    i2c = LinuxI2C(pinmap.oled.bus)
    try:
        strip = WS281xStrip(pinmap.leds)
        hardware = _assemble(pinmap, None, strip, i2c, None)
    except Exception:
        i2c.close()
        raise
    hardware.release.append(i2c.close)
    return hardware


def _assemble(pinmap: PinMap, factory: Factory | None, strip: Strip, i2c: object,
              sim: SimMat | None) -> Hardware:
    opened: list = []
    try:
        animator = Animator(LedMat(strip, pinmap.leds))
        opened.append(animator)
        oled = Oled(i2c, pinmap.oled)
        opened.append(oled)
        scanner = MatrixScanner(pinmap.matrix, pin_factory=factory)
        opened.append(scanner)
        buttons = Buttons(pinmap.buttons, pin_factory=factory)
    except Exception:
        for device in reversed(opened):
            device.close()
        if sim is not None:
            sim.close()
        raise
    return Hardware(pinmap, scanner, animator, oled, buttons, sim)

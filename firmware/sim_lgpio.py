"""The simulation's ``lgpio``: the calls ``GroupScanner`` makes, modelled at the pins.

Levels are computed from the ``SimMat`` the way the wired matrix decides them: a column reads
low while a row it is joined to (through a closed switch and its diode, or without diodes
through any path of closed switches) is driven low; otherwise its pull-up holds it high, if
it has one. Cut wires never connect. Claiming a pin twice fails with lgpio's "GPIO busy", as on
a Pi. ``calls`` counts every call by name, for the benchmark.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.sim_mat import SimMat

SET_PULL_UP = 32
GPIO_BUSY = -17  # lgpio's LG_GPIO_BUSY


class error(Exception):  # noqa: N801 - the name lgpio gives its exception
    pass


class FakeLgpio:
    error = error
    SET_PULL_UP = SET_PULL_UP

    def __init__(self, mat: SimMat):
        self._mat = mat
        self._groups: dict[int, tuple[str, list[int], int]] = {}  # leader -> kind, pins, flags
        self._levels: dict[int, int] = {}  # output pins: level last written
        self._claimed: set[int] = set()
        self._open = 0
        self.calls: Counter[str] = Counter()

    # -- chips ------------------------------------------------------------------------------
    def gpiochip_open(self, number: int) -> int:
        self.calls["gpiochip_open"] += 1
        if number != 0:
            raise error("can not open gpiochip")
        self._open += 1
        return 0

    def gpio_get_chip_info(self, handle: int) -> list[int | str]:
        self.calls["gpio_get_chip_info"] += 1
        return [0, 54, "gpiochip0", "pinctrl-bcm2711"]

    def gpiochip_close(self, handle: int) -> int:
        self.calls["gpiochip_close"] += 1
        self._open -= 1
        return 0

    # -- groups -----------------------------------------------------------------------------
    def _claim(self, kind: str, pins: list[int], flags: int) -> None:
        busy = set(pins) & self._claimed
        if busy or len(set(pins)) != len(pins):
            raise error(f"GPIO busy ({GPIO_BUSY}): GPIO{min(busy or pins)}")
        self._claimed |= set(pins)
        self._groups[pins[0]] = (kind, list(pins), flags)

    def group_claim_output(self, handle: int, gpio: list[int], levels: list[int] = [0], lFlags: int = 0) -> int:  # noqa: B006,N803
        self.calls["group_claim_output"] += 1
        self._claim("output", gpio, lFlags)
        levels = list(levels) + [0] * (len(gpio) - len(levels))
        for pin, level in zip(gpio, levels):
            self._levels[pin] = 1 if level else 0
        return 0

    def group_claim_input(self, handle: int, gpio: list[int], lFlags: int = 0) -> int:  # noqa: N803
        self.calls["group_claim_input"] += 1
        self._claim("input", gpio, lFlags)
        return 0

    def group_free(self, handle: int, gpio: int) -> int:
        self.calls["group_free"] += 1
        kind, pins, _ = self._groups.pop(gpio)
        self._claimed -= set(pins)
        for pin in pins:
            self._levels.pop(pin, None)
        return 0

    def group_write(self, handle: int, gpio: int, group_bits: int, group_mask: int = (1 << 64) - 1) -> int:
        self.calls["group_write"] += 1
        kind, pins, _ = self._groups[gpio]
        if kind != "output":
            raise error(f"GPIO{gpio} is not an output group")
        for i, pin in enumerate(pins):
            if group_mask >> i & 1:
                self._levels[pin] = group_bits >> i & 1
        return 0

    def group_read(self, handle: int, gpio: int) -> list[int]:
        self.calls["group_read"] += 1
        kind, pins, flags = self._groups[gpio]
        if kind == "output":
            return [len(pins), sum(self._levels[p] << i for i, p in enumerate(pins))]
        low = self._mat.low_column_pins(
            {pin for pin, level in self._levels.items() if level == 0})
        pulled = bool(flags & SET_PULL_UP)
        # A floating input (no pull-up) reads low here: every square would show a pawn.
        return [len(pins), sum((pulled and pin not in low) << i for i, pin in enumerate(pins))]

    @property
    def pin_calls(self) -> int:
        """Reads and writes: the calls a scan makes."""
        return self.calls["group_write"] + self.calls["group_read"]

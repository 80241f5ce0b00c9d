"""The matrix scanned in bulk: lgpio's group calls, 11 pin calls a scan instead of 35.

``MatrixScanner`` (firmware.matrix) makes one gpiozero pin operation per row write and per
column read: 10 writes and 25 reads a scan, each 0.1-0.25 ms on a Zero 2 W, plus an edge
callback for every column that changes. ``GroupScanner`` claims the five rows as one output
group and the five columns as one input group (with the pull-ups on, no edge detection) and
scans with one ``group_write`` per row (this row low, the others high, in a single call), one
``group_read`` of all five columns after it, and a last write that lets every row go high:
5 + 5 + 1 calls. Same interface as ``MatrixScanner``: ``config``, ``scan()``, ``close()``.

``lgpio`` is the ``lgpio`` module on a Pi (python3-lgpio on Raspberry Pi OS) or the
simulation's ``firmware.sim_lgpio.FakeLgpio``, which models the same calls at the pins.
"""

from __future__ import annotations

from typing import Any

from firmware.pinmap import MatrixConfig

# gpiochip labels of the 40-pin header's GPIO controller: Pi 1-3 and Zero, Pi 4, Pi 5.
HEADER_CHIPS = ("pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1")


def open_header_chip(lgpio: Any) -> int:
    """A handle on the gpiochip of the header pins: gpiochip0, or gpiochip4 on a Pi 5 with an
    older kernel (where gpiochip0 is the SoC's own)."""
    for number in (0, 4):
        try:
            handle: int = lgpio.gpiochip_open(number)     # lgpio has no type hints
        except lgpio.error:
            continue
        if lgpio.gpio_get_chip_info(handle)[3] in HEADER_CHIPS:
            return handle
        lgpio.gpiochip_close(handle)
    # Not a Pi's controller (or a fake): the first chip, as gpiozero's lgpio factory does.
    first: int = lgpio.gpiochip_open(0)
    return first


class GroupScanner:
    """One full pass over the matrix per ``scan()``: 11 lgpio calls, no sleeping, no threads."""

    def __init__(self, config: MatrixConfig, lgpio: Any):
        self.config = config
        self._lgpio = lgpio
        self._handle: int | None = open_header_chip(lgpio)
        self._rows_claimed = self._columns_claimed = False
        rows, columns = list(config.rows), list(config.columns)
        try:
            # Idle level high on every row: no row is driven.
            lgpio.group_claim_output(self._handle, rows, [1] * len(rows))
            self._rows_claimed = True
            lgpio.group_claim_input(self._handle, columns, lgpio.SET_PULL_UP)
            self._columns_claimed = True
        except Exception:
            self.close()
            raise
        self._row_leader, self._column_leader = rows[0], columns[0]
        self._all_high = (1 << len(rows)) - 1
        self._columns_high = (1 << len(columns)) - 1
        # Per row: the group bits that drive it alone, and its squares by column bit.
        self._plan = [(self._all_high & ~(1 << r), [config.square_at(r, c) for c in range(len(columns))])
                      for r in range(len(rows))]

    def scan(self) -> frozenset[int]:
        """The squares whose switches read closed, one row at a time."""
        write, read = self._lgpio.group_write, self._lgpio.group_read
        handle, rows, columns, high = self._handle, self._row_leader, self._column_leader, self._columns_high
        occupied = []
        for bits, squares in self._plan:
            write(handle, rows, bits, self._all_high)
            # No settling delay: one lgpio call takes longer than the wires' RC time.
            levels = read(handle, columns)[1]
            if levels != high:  # a column reads low: the switch on it is closed
                occupied += [sq for c, sq in enumerate(squares) if not levels >> c & 1]
        write(handle, rows, self._all_high, self._all_high)
        return frozenset(occupied)

    def close(self) -> None:
        if self._handle is None:
            return
        if self._rows_claimed:
            self._lgpio.group_free(self._handle, self.config.rows[0])
        if self._columns_claimed:
            self._lgpio.group_free(self._handle, self.config.columns[0])
        self._lgpio.gpiochip_close(self._handle)
        self._handle = None

    def __enter__(self) -> GroupScanner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""The simulated mat: pawns, switches, diodes and buttons at the level of GPIO pins.

``SimMat`` hands gpiozero a ``MockFactory`` whose matrix pins behave like the wired matrix:
whenever a row pin changes, every column pin is recomputed from the pawns standing on the mat.
The real ``MatrixScanner`` and gpiozero ``Button`` devices run on it unchanged. It also hands
out ``lgpio``, a fake of the lgpio calls the bulk ``GroupScanner`` makes, on the same model.
The mat carries the simulated LED strip (with a fake SPI bus for the neopixel_spi back-end)
and the OLED's bus (an SSD1306 or an SH1106, as the pin map says), so one handle reaches the
whole twin.

Faults a maker meets can be built in: ``dead_switches`` (squares whose reed never closes) and
``cut_wires`` (BCM pins whose wire is broken: a row, a column or a button).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from time import monotonic

from gpiozero.pins.mock import MockFactory, MockPin

from firmware.backends import oled_backend
from firmware.pinmap import PinMap
from firmware.sim_lgpio import FakeLgpio
from firmware.sim_spi import FakeWS2812Spi
from firmware.sim_strip import RecordingStrip


# gpiozero has no type hints, so mypy sees MockPin and MockFactory as Any: subclassing them is
# an error under --strict (disallow_subclassing_any) only, hence ``unused-ignore`` for the default run.
class MatrixPin(MockPin):  # type: ignore[misc, unused-ignore]
    """A mock pin of the switch matrix: its level is the mat's to decide."""

    _state: bool   # MockPin's level (gpiozero has no type hints)

    def __init__(self, factory: MockFactory, info: object, mat: SimMat):
        self._mat = mat
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        # MockPin appends every transition to `states` for its own tests; matrix pins toggle
        # thousands of times a second in a long simulation, so they keep no history.
        if self._state == value:
            return False
        self._state = value
        self._last_change = monotonic()
        if self._function == "output":
            self._mat._refresh()
        return True

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._mat._refresh()

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self._mat._refresh()


class SimFactory(MockFactory):  # type: ignore[misc, unused-ignore]  # MockFactory is Any (see MatrixPin)
    """gpiozero's mock factory with the matrix pins wired to a ``SimMat``."""

    def __init__(self, mat: SimMat):
        super().__init__()
        self._mat = mat
        self.by_bcm: dict[int, MockPin] = {}

    def pin(self, name: object, pin_class: type[MockPin] | None = None, **kwargs: object) -> MockPin:
        bcm = self._bcm(name)
        if bcm in self._mat.matrix_pins:
            pin = super().pin(name, pin_class=MatrixPin, mat=self._mat)
        else:
            pin = super().pin(name, pin_class=pin_class, **kwargs)
        self.by_bcm[bcm] = pin
        return pin

    def _bcm(self, name: object) -> int:
        for _header, info in self.board_info.find_pin(name):
            if info.name.startswith("GPIO"):
                return int(info.name[4:])
        raise ValueError(f"{name!r} is not a GPIO pin")


class SimMat:
    """Place and lift pawns, press buttons; read what the LEDs and the OLED show.

    ``diodes=False`` models a matrix built without diodes: closed switches join rows and
    columns into one net, and a net touching the driven row reads low (the idle rows' high
    level loses, as on a wired-AND). Three pawns on three corners of a rectangle then read as
    a phantom fourth.
    """

    def __init__(self, pinmap: PinMap, *, diodes: bool = True,
                 dead_switches: Iterable[int] = (), cut_wires: Iterable[int] = ()):
        self.pinmap = pinmap
        self.diodes = diodes
        self.dead_switches = frozenset(dead_switches)
        self.cut_wires = frozenset(cut_wires)
        wires = {*pinmap.matrix.rows, *pinmap.matrix.columns, *pinmap.buttons.pins.values()}
        if not self.cut_wires <= wires:
            raise ValueError(f"GPIO{min(self.cut_wires - wires)} is no wire of this pin map (its rows, "
                             f"columns and buttons: {', '.join(f'GPIO{g}' for g in sorted(wires))})")
        self._rows = pinmap.matrix.rows
        self._columns = pinmap.matrix.columns
        self.matrix_pins = frozenset(self._rows + self._columns)
        self._live_rows = [(r, bcm) for r, bcm in enumerate(self._rows) if bcm not in self.cut_wires]
        self._pawns: set[int] = set()
        self._closed: frozenset[tuple[int, int]] = frozenset()
        # The scan thread (through row pins) and the caller (placing pawns) both recompute.
        self._lock = threading.RLock()
        self.factory = SimFactory(self)
        self.lgpio = FakeLgpio(self)
        self.strip = RecordingStrip(pinmap.leds)
        self.spi = FakeWS2812Spi(self.strip)  # the neopixel_spi back-end's bus, into the same strip
        self.i2c = oled_backend(pinmap.oled.driver).twin(pinmap.oled.address)  # the OLED on its bus

    @property
    def pawns(self) -> frozenset[int]:
        return frozenset(self._pawns)

    def place(self, *squares: int) -> None:
        with self._lock:
            self.set_pawns(self._pawns | set(squares))

    def lift(self, *squares: int) -> None:
        with self._lock:
            self.set_pawns(self._pawns - set(squares))

    def set_pawns(self, squares: Iterable[int]) -> None:
        with self._lock:
            self._pawns = set(squares)
            cfg = self.pinmap.matrix
            self._closed = frozenset(
                (r, c) for r in range(len(self._rows)) for c in range(len(self._columns))
                if cfg.square_at(r, c) in self._pawns and cfg.square_at(r, c) not in self.dead_switches)
            self._refresh()

    def press(self, button: str) -> None:
        pin = self.pinmap.buttons.pins[button]
        if pin not in self.cut_wires:
            self.factory.pin(pin).drive_low()

    def release(self, button: str) -> None:
        self.factory.pin(self.pinmap.buttons.pins[button]).drive_high()

    def tap(self, button: str, hold_s: float) -> None:
        """Press, hold for ``hold_s`` seconds (real time), release."""
        self.press(button)
        time.sleep(hold_s)
        self.release(button)

    def _refresh(self) -> None:
        # Runs on every row change (10 per scan): reads MockPin's own fields rather than its
        # public properties, which cost several calls each.
        with self._lock:
            pins = self.factory.by_bcm
            driven = set()
            for r, bcm in self._live_rows:
                pin = pins.get(bcm)
                if pin is not None and pin._function == "output" and not pin._state:
                    driven.add(r)
            low = self._low_columns(driven, self._closed) if driven and self._closed else set()
            for c, bcm in enumerate(self._columns):
                pin = pins.get(bcm)
                if pin is None or pin._function != "input":
                    continue
                if c in low and bcm not in self.cut_wires:
                    if pin._state:
                        pin.drive_low()
                elif not pin._state and pin._pull == "up":
                    pin.drive_high()

    def low_column_pins(self, driven_pins: set[int]) -> set[int]:
        """The column pins pulled low while the row pins ``driven_pins`` are driven low."""
        with self._lock:
            driven = {r for r, bcm in self._live_rows if bcm in driven_pins}
            low = self._low_columns(driven, self._closed) if driven and self._closed else set()
            return {bcm for c, bcm in enumerate(self._columns) if c in low and bcm not in self.cut_wires}

    def _low_columns(self, driven: set[int], closed: frozenset[tuple[int, int]]) -> set[int]:
        if self.diodes:
            # A diode per switch lets current flow only from its column into its own row.
            return {c for r, c in closed if r in driven}
        # No diodes: flood the net from the driven rows through closed switches both ways.
        rows, columns = set(driven), set[int]()
        while True:
            more_columns = {c for r, c in closed if r in rows} - columns
            more_rows = {r for r, c in closed if c in columns | more_columns} - rows
            if not more_columns and not more_rows:
                return columns
            columns |= more_columns
            rows |= more_rows

    def close(self) -> None:
        self.factory.close()

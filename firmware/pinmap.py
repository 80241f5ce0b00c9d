"""The pin map: every pin, bus address, LED chain order and timing of the hardware, as data.

``load_pinmap()`` reads ``pinmap.toml`` (by default the one shipped inside this package, a link
to ``hardware/pinmap.toml`` in the source tree) and checks it completely before any pin is
touched: a wrong map is refused with a ``PinMapError`` that names every bad key and why
(``firmware.pinmap_reader`` reads the keys).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion.rules.squares import SQUARE_NAMES, parse_square, square, square_file, square_rank
from firmware.backends import LED_BACKENDS, OLED_BACKENDS, led_backend
from firmware.errors import FirmwareError
from firmware.pinmap_reader import Reader, kind

BUTTON_NAMES = ("A", "B", "C")

# SPI0 belongs to the LED back-end when it uses SPI: nothing else may sit on its pins.
SPI0_PINS = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
I2C1_SDA, I2C1_SCL = 2, 3
CORNERS = ("a1", "e1", "a5", "e5")


class PinMapError(FirmwareError, ValueError):
    """A pin map that cannot drive the hardware; ``problems`` lists ``"key: reason"`` lines."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"pin map {source} is refused:\n{lines}")


@dataclass(frozen=True)
class MatrixConfig:
    rows: tuple[int, ...]  # BCM pins, rank 1 first
    columns: tuple[int, ...]  # BCM pins, file a first
    scan_hz: float
    debounce_s: float
    # After ``idle_after_s`` with nothing moving, the loop scans at ``idle_scan_hz`` instead.
    idle_scan_hz: float = 25.0
    idle_after_s: float = 2.0

    def square_at(self, row: int, column: int) -> int:
        """The square wired to the switch between row index ``row`` and column index ``column``."""
        return square(column, row)


@dataclass(frozen=True)
class LedConfig:
    backend: str  # the SoC block: "spi", "pwm" or "pcm" (as the driver accepts)
    pin: int
    dma: int
    count: int
    max_brightness: float  # 0 < cap <= 1
    square_leds: tuple[int, ...]  # chain index of the LED under each square, a1 first
    edges: Mapping[str, tuple[int, ...]]  # edge group name -> chain indices
    first: str  # chain description, kept for the docs
    along: str
    layout: str
    driver: str = "rpi_ws281x"  # a name of firmware.backends.LED_BACKENDS

    def chain(self) -> list[tuple[str, int | str]]:
        """Every LED in chain order as ``("square", sq)`` or ``("edge", group)``."""
        owner: dict[int, tuple[str, int | str]] = {}
        for sq, index in enumerate(self.square_leds):
            owner[index] = ("square", sq)
        for name, indices in self.edges.items():
            for index in indices:
                owner[index] = ("edge", name)
        return [owner[i] for i in range(self.count)]


@dataclass(frozen=True)
class OledConfig:
    bus: int
    sda: int
    scl: int
    address: int
    frequency_hz: int
    width: int = 128
    height: int = 64
    driver: str = "ssd1306"  # a name of firmware.backends.OLED_BACKENDS


@dataclass(frozen=True)
class ButtonConfig:
    pins: Mapping[str, int]  # "A", "B", "C" -> BCM pin
    long_press_s: float
    debounce_s: float


@dataclass(frozen=True)
class PinMap:
    matrix: MatrixConfig
    leds: LedConfig
    oled: OledConfig
    buttons: ButtonConfig
    source: str

    def pin_uses(self) -> list[tuple[int, str]]:
        """Every GPIO the map claims, with the key that claims it."""
        uses = [(p, f"matrix.rows[{i}]") for i, p in enumerate(self.matrix.rows)]
        uses += [(p, f"matrix.columns[{i}]") for i, p in enumerate(self.matrix.columns)]
        uses.append((self.leds.pin, "leds.pin"))
        uses += [(self.oled.sda, "oled.sda"), (self.oled.scl, "oled.scl")]
        uses += [(p, f"buttons.pins.{n}") for n, p in self.buttons.pins.items()]
        return uses


def default_pinmap_path() -> Path:
    return Path(str(resources.files("firmware").joinpath("pinmap.toml")))


def load_pinmap(path: str | Path | None = None) -> PinMap:
    """Read and check a pin map; ``None`` means the map shipped with the package."""
    path = Path(path) if path is not None else default_pinmap_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PinMapError(str(path), [f"cannot read the file: {e.strerror or e}"]) from None
    return parse_pinmap(text, source=str(path))


def parse_pinmap(text: str, source: str = "<text>") -> PinMap:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PinMapError(source, [f"not valid TOML: {e}"]) from None
    reader = Reader()
    pinmap = _build(reader, data, source)
    if reader.problems:
        raise PinMapError(source, reader.problems)
    assert pinmap is not None
    _check_pins(reader, pinmap)
    if reader.problems:
        raise PinMapError(source, reader.problems)
    return pinmap


def _build(r: Reader, data: Mapping[str, Any], source: str) -> PinMap | None:
    sections = {}
    for name, keys in {
        "matrix": {"rows", "columns", "scan_hz", "debounce_ms", "idle_scan_hz", "idle_after_ms"},
        "leds": {"driver", "backend", "pin", "dma", "count", "max_brightness", "chain", "edges"},
        "oled": {"driver", "bus", "sda", "scl", "address", "frequency_hz"},
        "buttons": {"pins", "long_press_ms", "debounce_ms"},
    }.items():
        sections[name] = r.attempt(lambda n=name, k=keys: r.table(data, n, k), None)
    for extra in sorted(set(data) - set(sections)):
        r.fail(extra, "unknown section (a typo?)")

    matrix = leds = oled = buttons = None
    if (m := sections["matrix"]) is not None:
        rows = r.attempt(lambda: r.pins(m, "matrix.rows", 5), None)
        columns = r.attempt(lambda: r.pins(m, "matrix.columns", 5), None)
        scan_hz = r.attempt(lambda: r.number(m, "matrix.scan_hz", 10, 2000), None)
        debounce_ms = r.attempt(lambda: r.number(m, "matrix.debounce_ms", 1, 500), None)
        if scan_hz and debounce_ms and debounce_ms < 1000 / scan_hz:
            r.fail("matrix.debounce_ms", f"{debounce_ms:g} ms is shorter than one scan period "
                   f"({1000 / scan_hz:g} ms at {scan_hz:g} Hz): one stray scan could flip a square")
        # Optional: the slower rate while nothing moves (see firmware.matrix.ScanLoop).
        idle_hz = r.attempt(lambda: r.number(m, "matrix.idle_scan_hz", 10, 2000), None) \
            if "idle_scan_hz" in m else (min(25.0, scan_hz) if scan_hz else None)
        if scan_hz and idle_hz and idle_hz > scan_hz:
            r.fail("matrix.idle_scan_hz", f"{idle_hz:g} Hz is faster than matrix.scan_hz ({scan_hz:g} Hz)")
        idle_after_ms = r.attempt(lambda: r.number(m, "matrix.idle_after_ms", 100, 600_000), None) \
            if "idle_after_ms" in m else 2000.0
        if (rows is not None and columns is not None and scan_hz is not None
                and debounce_ms is not None and idle_hz is not None and idle_after_ms is not None):
            matrix = MatrixConfig(rows, columns, scan_hz, debounce_ms / 1000, idle_hz, idle_after_ms / 1000)
    if (s := sections["leds"]) is not None:
        leds = _build_leds(r, s)
    if (o := sections["oled"]) is not None:
        oled_driver = r.attempt(lambda: r.choice(o, "oled.driver", tuple(OLED_BACKENDS)), None) \
            if "driver" in o else "ssd1306"
        bus = r.attempt(lambda: r.integer(o, "oled.bus", 0, 99), None)
        if bus not in (None, 1):
            r.fail("oled.bus", f"I2C bus {bus} is not supported: wire the OLED to I2C1 (GPIO2/3)")
        sda = r.attempt(lambda: r.pin(r.get(o, "oled.sda"), "oled.sda"), None)
        scl = r.attempt(lambda: r.pin(r.get(o, "oled.scl"), "oled.scl"), None)
        if sda not in (None, I2C1_SDA):
            r.fail("oled.sda", f"GPIO{sda} is not I2C1 SDA: the Pi's I2C1 data line is GPIO{I2C1_SDA}")
        if scl not in (None, I2C1_SCL):
            r.fail("oled.scl", f"GPIO{scl} is not I2C1 SCL: the Pi's I2C1 clock line is GPIO{I2C1_SCL}")
        address = r.attempt(lambda: r.integer(o, "oled.address", 0x08, 0x77), None)
        freq = r.attempt(lambda: r.integer(o, "oled.frequency_hz", 10_000, 1_000_000), None)
        if None not in (bus, sda, scl, address, freq, oled_driver) and bus == 1 and (sda, scl) == (I2C1_SDA, I2C1_SCL):
            oled = OledConfig(bus, sda, scl, address, freq, driver=oled_driver)
    if (b := sections["buttons"]) is not None:
        buttons = _build_buttons(r, b)
    if r.problems or matrix is None or leds is None or oled is None or buttons is None:
        return None
    return PinMap(matrix, leds, oled, buttons, source)


def _build_leds(r: Reader, s: Mapping[str, Any]) -> LedConfig | None:
    drivers = tuple(LED_BACKENDS)
    driver = r.attempt(lambda: r.choice(s, "leds.driver", drivers), None) if "driver" in s else drivers[0]
    # The blocks every back-end drives from, and what this one accepts: its blocks and pins.
    blocks = tuple(dict.fromkeys(block for name in drivers for block in led_backend(name).pins))
    pins = led_backend(driver).pins if driver is not None else {}
    backend = r.attempt(lambda: r.choice(s, "leds.backend", blocks), None)
    if driver is not None and backend is not None and backend not in pins:
        r.fail("leds.backend", f"{driver} drives the LEDs over {' or '.join(b.upper() for b in pins)} "
               f"only: backend = \"{next(iter(pins))}\", not {backend!r}")
    pin = r.attempt(lambda: r.pin(r.get(s, "leds.pin"), "leds.pin"), None)
    if backend in pins and pin is not None and pin not in pins[backend]:
        which = ", ".join(f"{'/'.join(map(str, p))} = {block}" for block, p in pins.items())
        r.fail("leds.pin", f"{driver} cannot drive WS2812s from GPIO{pin} with the {backend!r} "
               f"back-end (it needs {' or '.join(f'GPIO{p}' for p in pins[backend])}; {which})")
    dma = r.attempt(lambda: r.integer(s, "leds.dma", 1, 14), None)
    if dma == 5:
        r.fail("leds.dma", "DMA channel 5 is used by the SD card: driving LEDs on it corrupts it")
    count = r.attempt(lambda: r.integer(s, "leds.count", 25, 1000), None)
    cap = r.attempt(lambda: r.number(s, "leds.max_brightness", 0.01, 1.0), None)
    chain = r.attempt(lambda: r.table(s, "leds.chain", {"first", "along", "layout"}), None)
    first: Any = None       # Any: a TOML value, checked by r.choice
    along: Any = None
    layout: Any = None
    if chain is not None:
        first = r.attempt(lambda: r.choice(chain, "leds.chain.first", CORNERS), None)
        along = r.attempt(lambda: r.choice(chain, "leds.chain.along", ("rank", "file")), None)
        layout = r.attempt(lambda: r.choice(chain, "leds.chain.layout", ("serpentine", "rows")), None)
    edges_table = r.attempt(lambda: r.table(s, "leds.edges", None), None)
    edges: dict[str, tuple[int, ...]] = {}
    if edges_table is not None:
        for name, value in edges_table.items():
            key = f"leds.edges.{name}"
            if not isinstance(value, list) or not value:
                r.fail(key, f"must be a non-empty list of chain indices, not {kind(value)}")
                continue
            edges[name] = tuple(r.attempt(lambda i=i, v=v: r._int(v, f"{key}[{i}]", 0, 999), -1)
                                for i, v in enumerate(value))
    if None in (driver, backend, pin, dma, count, cap, first, along, layout) or r.problems:
        return None
    square_leds = _square_leds(first, along, layout)
    owner = {index: f"square {SQUARE_NAMES[sq]}" for sq, index in enumerate(square_leds)}
    for name, indices in edges.items():
        for i, index in enumerate(indices):
            key = f"leds.edges.{name}[{i}]"
            if index >= count:
                r.fail(key, f"LED {index} is past the end of the chain (leds.count = {count})")
            elif index in owner:
                r.fail(key, f"LED {index} is already used by {owner[index]}")
            else:
                owner[index] = f"leds.edges.{name}"
    unused = sorted(set(range(count)) - set(owner))
    if unused:
        r.fail("leds.count", f"{count} LEDs but nothing is mapped to index "
               f"{', '.join(map(str, unused[:5]))}{'...' if len(unused) > 5 else ''}")
    return LedConfig(backend, pin, dma, count, cap, square_leds, edges, first, along, layout, driver)


def _square_leds(first: str, along: str, layout: str) -> tuple[int, ...]:
    """Chain index of each square for a chain starting at corner ``first``."""
    corner = parse_square(first)
    files = range(5) if square_file(corner) == 0 else range(4, -1, -1)
    ranks = range(5) if square_rank(corner) == 0 else range(4, -1, -1)
    outer, inner = (ranks, files) if along == "rank" else (files, ranks)
    index = [0] * 25
    n = 0
    for line, o in enumerate(outer):
        steps = list(inner)
        if layout == "serpentine" and line % 2:
            steps.reverse()
        for i in steps:
            index[square(i, o) if along == "rank" else square(o, i)] = n
            n += 1
    return tuple(index)


def _build_buttons(r: Reader, b: Mapping[str, Any]) -> ButtonConfig | None:
    table = r.attempt(lambda: r.table(b, "buttons.pins", set(BUTTON_NAMES)), None)
    pins: dict[str, int] = {}
    if table is not None:
        for name in BUTTON_NAMES:
            pin = r.attempt(lambda n=name: r.pin(r.get(table, f"buttons.pins.{n}"), f"buttons.pins.{n}"), None)
            if pin is not None:
                pins[name] = pin
    long_ms = r.attempt(lambda: r.number(b, "buttons.long_press_ms", 200, 5000), None)
    debounce_ms = r.attempt(lambda: r.number(b, "buttons.debounce_ms", 1, 200), None)
    if long_ms and debounce_ms and debounce_ms >= long_ms:
        r.fail("buttons.debounce_ms", "must be shorter than buttons.long_press_ms")
    if len(pins) != len(BUTTON_NAMES) or None in (long_ms, debounce_ms):
        return None
    return ButtonConfig(pins, long_ms / 1000, debounce_ms / 1000)


def _check_pins(r: Reader, pinmap: PinMap) -> None:
    """Pins claimed twice, and SPI0 pins taken while the LEDs need SPI."""
    claimed: dict[int, str] = {}
    for pin, key in pinmap.pin_uses():
        if pin in claimed:
            r.fail(key, f"GPIO{pin} is already used by {claimed[pin]}")
            continue
        claimed[pin] = key
        if pinmap.leds.backend == "spi" and pin in SPI0_PINS and key != "leds.pin":
            r.fail(key, f"GPIO{pin} is {SPI0_PINS[pin]}, reserved while the LEDs use SPI "
                   "(leds.backend = 'spi')")

"""Generate the pin documentation and the printable mat template from the pin map.

    python -m firmware.docs            # rewrite hardware/pins.md and hardware/mat-template.svg
    python -m firmware.docs --check    # exit 1 if the committed files are stale

Both files are pure functions of the pin map, so they can never disagree with what the
firmware drives.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.rules.squares import FILE_NAMES, SQUARE_NAMES, square
from firmware.pinmap import SPI0_PINS, PinMap, PinMapError, load_pinmap

# BCM GPIO -> physical pin on the 40-pin header (Pi 3, 4, 5, Zero 2 W).
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
              13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
              1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V", 6: "GND", 9: "GND", 14: "GND", 20: "GND",
              25: "GND", 30: "GND", 34: "GND", 39: "GND"}
LED_MA_FULL_WHITE = 60  # one WS2812 at full white
GENERATED = "<!-- Generated from hardware/pinmap.toml by `python -m firmware.docs`: edit the map, not this file. -->"


def _uses(pinmap: PinMap) -> dict[int, str]:
    m, leds, oled, buttons = pinmap.matrix, pinmap.leds, pinmap.oled, pinmap.buttons
    uses = {pin: f"matrix row, rank {i + 1}" for i, pin in enumerate(m.rows)}
    uses |= {pin: f"matrix column, file {FILE_NAMES[i]}" for i, pin in enumerate(m.columns)}
    uses[leds.pin] = f"WS2812 data ({leds.backend}), through the 74AHCT125"
    uses[oled.sda] = f"OLED SDA (I2C{oled.bus})"
    uses[oled.scl] = f"OLED SCL (I2C{oled.bus})"
    uses |= {pin: f"button {name}" for name, pin in buttons.pins.items()}
    return uses


def pins_markdown(pinmap: PinMap) -> str:
    m, leds, oled, buttons = pinmap.matrix, pinmap.leds, pinmap.oled, pinmap.buttons
    uses = _uses(pinmap)
    out = [GENERATED, "", "# Pins", "",
           "Every connection to the Pi, from `hardware/pinmap.toml`. GPIO numbers are BCM. Header pin 1 "
           "has the square solder pad, at the end of the header away from the USB ports; odd pins are "
           "the inner row.", "",
           "## By GPIO", "", "| GPIO | Header pin | Use |", "|---:|---:|---|"]
    out += [f"| {pin} | {HEADER_PIN[pin]} | {use} |" for pin, use in sorted(uses.items())]
    out += ["", "## The 40-pin header", "", "| Use | Pin | Pin | Use |", "|---|---:|---|---|"]
    by_header = {HEADER_PIN[pin]: f"GPIO{pin}: {use}" for pin, use in uses.items()}
    if leds.backend == "spi":
        by_header |= {HEADER_PIN[pin]: f"GPIO{pin}: keep free ({name}, taken by the LED back-end)"
                      for pin, name in SPI0_PINS.items() if pin not in uses}
    label = {**{n: f"GPIO{g}" for g, n in HEADER_PIN.items()}, **POWER_PINS, **by_header}
    out += [f"| {label[odd]} | {odd} | {odd + 1} | {label[odd + 1]} |" for odd in range(1, 41, 2)]
    out += ["", "## Switch matrix", "",
            f"Rows are driven low one at a time, columns read with pull-ups, {m.scan_hz:g} scans a "
            f"second; a square changes after {m.debounce_s * 1000:g} ms of steady readings. One 1N4148 "
            "per switch, cathode (the band) to the row.", "",
            "| | " + " | ".join(f"file {f}: GPIO{pin}" for f, pin in zip(FILE_NAMES, m.columns)) + " |",
            "|---|" + "---|" * 5]
    for rank in range(4, -1, -1):
        cells = " | ".join(SQUARE_NAMES[square(f, rank)] for f in range(5))
        out.append(f"| rank {rank + 1}: GPIO{m.rows[rank]} | {cells} |")
    out += ["", "Rank 1 is Red's side, file a Red's left.", "",
            "## LED chain", "",
            f"{leds.count} WS2812 LEDs on GPIO{leds.pin} through {leds.driver} ({leds.backend}"
            f"{', DMA ' + str(leds.dma) if leds.backend != 'spi' else ''}). The chain starts under "
            f"{leds.first} and runs along each {leds.along} ({leds.layout}). Chain index under each "
            "square, as Red sees the mat:", "",
            "| | " + " | ".join(FILE_NAMES) + " |", "|---|" + "---|" * 5]
    for rank in range(4, -1, -1):
        cells = " | ".join(str(leds.square_leds[square(f, rank)]) for f in range(5))
        out.append(f"| {rank + 1} | {cells} |")
    out += [""]
    out += [f"- Edge LEDs `{name}`: chain index {', '.join(map(str, indices))}"
            for name, indices in leds.edges.items()]
    full = leds.count * LED_MA_FULL_WHITE / 1000
    out += ["", f"Brightness cap: {leds.max_brightness:.0%}. All {leds.count} LEDs at full white would draw "
            f"about {full:.1f} A; with the cap, at most about {full * leds.max_brightness:.1f} A.", "",
            "## OLED", "",
            f"{oled.driver.upper()} 128x64 at address 0x{oled.address:02X} on I2C{oled.bus} (SDA GPIO{oled.sda}, "
            f"SCL GPIO{oled.scl}) at {oled.frequency_hz // 1000} kHz: "
            f"`dtparam=i2c_arm=on,i2c_arm_baudrate={oled.frequency_hz}` in /boot/firmware/config.txt.", "",
            "## Buttons", "",
            "Each from its GPIO to ground, read with the Pi's pull-up; A, B, C left to right under the "
            f"screen. Long press: {buttons.long_press_s:g} s; debounce {buttons.debounce_s * 1000:g} ms.", "",
            "| Button | GPIO | Header pin |", "|---|---:|---:|"]
    out += [f"| {name} | {pin} | {HEADER_PIN[pin]} |" for name, pin in buttons.pins.items()]
    return "\n".join(out) + "\n"


# -- the mat template (millimetres) ----------------------------------------------------------
PAGE_W, PAGE_H = 210, 297
SQ = 34  # square side
LEFT, TOP = 26, 34  # board's top-left corner
BOARD = 5 * SQ
# Where the chain runs past the mat between its two sides (or edge groups stand on the right).
LEFT_LANE, RIGHT_LANE = LEFT - 3, LEFT + BOARD + 5
ROW_COLOUR, COLUMN_COLOUR, CHAIN_COLOUR = "#1f5fbf", "#1b8a3a", "#d9730d"


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, text: str, size: float = 2.6, anchor: str = "middle", colour: str = "#000",
          weight: str = "normal") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{colour}">{text}</text>')


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float = 0.5) -> str:
    return (f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{colour}" '
            f'stroke-width="{_n(width)}"/>')


def _corner(sq: int) -> tuple[float, float]:
    """Top-left corner of a square, rank 5 at the top as Red sees the mat."""
    return LEFT + (sq % 5) * SQ, TOP + (4 - sq // 5) * SQ


def _led_centre(sq: int) -> tuple[float, float]:
    x, y = _corner(sq)
    return x + 9, y + 8


def _edge_leds(pinmap: PinMap) -> tuple[dict[int, tuple[float, float]], dict[int, list[tuple[float, float]]]]:
    """Where each edge LED goes (``red`` along Red's edge, ``blue`` along Blue's, others on the
    right), and the bends of the chain on its way to a group on the far side of the mat.

    A group is laid from the end nearest the LED before it in the chain, so wires never cross.
    """
    leds = pinmap.leds
    places: dict[int, tuple[float, float]] = {}
    bends: dict[int, list[tuple[float, float]]] = {}
    previous = {i: _led_centre(sq) for sq, i in enumerate(leds.square_leds)}
    for k, (name, indices) in enumerate(leds.edges.items()):
        n = len(indices)
        if name in ("red", "blue"):
            y = TOP + BOARD + 8 if name == "red" else TOP - 8
            spots: list[tuple[float, float]] = [(LEFT + BOARD * (i + 0.5) / n, y) for i in range(n)]
        else:
            x = RIGHT_LANE + 4 + 4 * (k % 2)
            spots = [(x, TOP + BOARD * (i + 0.5) / n) for i in range(n)]
        first = min(indices)
        before = previous.get(first - 1, spots[0])
        if (before[1] < TOP) != (spots[0][1] < TOP) and (before[1] > TOP + BOARD) != (spots[0][1] > TOP + BOARD):
            # Across the mat: around its nearer side, not over the squares.
            lane = LEFT_LANE if before[0] < LEFT + BOARD / 2 else RIGHT_LANE
            bends[first] = [(lane, before[1]), (lane, spots[0][1])]
            before = bends[first][-1]
        if abs(spots[-1][0] - before[0]) + abs(spots[-1][1] - before[1]) < \
                abs(spots[0][0] - before[0]) + abs(spots[0][1] - before[1]):
            spots.reverse()
        for index, spot in zip(sorted(indices), spots):
            places[index] = previous[index] = spot
    return places, bends


def mat_svg(pinmap: PinMap) -> str:
    m, leds = pinmap.matrix, pinmap.leds
    board = BOARD
    x: float          # mm on the page, whole or not
    y: float
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}mm" height="{PAGE_H}mm" '
           f'viewBox="0 0 {PAGE_W} {PAGE_H}" font-family="DejaVu Sans, Arial, sans-serif">',
           "<!-- Generated from hardware/pinmap.toml by `python -m firmware.docs`. Print at 100 %. -->",
           f'<rect width="{PAGE_W}" height="{PAGE_H}" fill="#fff"/>',
           _text(PAGE_W / 2, 9, "Onitama companion: mat template", 4.5, weight="bold"),
           _text(PAGE_W / 2, 14.5, "Seen from above, Red sitting at the bottom (working from below, everything "
                 "is mirrored). Squares 34 mm: print at 100 %.", 2.6),
           _text(LEFT + board / 2, TOP - 13, "Blue's side (rank 5)", 3.2, weight="bold"),
           _text(LEFT + board / 2, TOP + board + 32, "Red's side (rank 1)", 3.2, weight="bold")]
    # Wires first, so parts sit on top of them.
    for rank, pin in enumerate(m.rows):
        y = TOP + (4 - rank) * SQ + 30
        out.append(_line(LEFT - 6, y, LEFT + board, y, ROW_COLOUR, 0.6))
        out.append(_text(LEFT - 7, y + 1, f"row GPIO{pin}", 2.4, "end", ROW_COLOUR))
    for file, pin in enumerate(m.columns):
        x = LEFT + file * SQ + 4
        out.append(_line(x, TOP, x, TOP + board + 22, COLUMN_COLOUR, 0.6))
        out.append(_text(x, TOP + board + 25, f"col GPIO{pin}", 2.4, "middle", COLUMN_COLOUR))
    for sq in range(25):
        x, y = _corner(sq)
        cx, cy = x + SQ / 2, y + SQ / 2
        out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{SQ}" height="{SQ}" fill="none" stroke="#000" '
                   'stroke-width="0.4"/>')
        out.append(_text(x + SQ - 2, y + 4.5, SQUARE_NAMES[sq], 3.2, "end", weight="bold"))
        # Reed switch: one end under the square's centre, where the pawn's magnet stands.
        out.append(_line(x + 4, cy, cx - 2, cy, COLUMN_COLOUR, 0.5))
        out.append(f'<rect x="{_n(cx - 2)}" y="{_n(cy - 1.3)}" width="14" height="2.6" rx="1.3" '
                   'fill="#e8f4ff" stroke="#000" stroke-width="0.3"/>')
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="1.2" fill="none" stroke="#c00" stroke-width="0.3"/>')
        # Diode from the reed's far end down to the row wire, band (cathode) toward the row.
        out.append(_line(cx + 12, cy, cx + 14, cy, "#000", 0.4))
        out.append(_line(cx + 14, cy, cx + 14, y + 30, "#000", 0.4))
        out.append(f'<rect x="{_n(cx + 13)}" y="{_n(cy + 4)}" width="2" height="5" fill="#f2c14e" '
                   'stroke="#000" stroke-width="0.3"/>')
        out.append(_line(cx + 13, cy + 8.2, cx + 15, cy + 8.2, "#000", 0.8))
    # LED chain: a path through the LEDs in chain order, then the LEDs and their indices.
    edge_places, bends = _edge_leds(pinmap)
    places = {i: _led_centre(sq) for sq, i in enumerate(leds.square_leds)} | edge_places
    points = [p for i in range(leds.count) for p in (*bends.get(i, ()), places[i])]
    path = " ".join(f"{'M' if i == 0 else 'L'}{_n(x)},{_n(y)}" for i, (x, y) in enumerate(points))
    out.append(f'<path d="{path}" fill="none" stroke="{CHAIN_COLOUR}" stroke-width="0.5" stroke-dasharray="1.5,1"/>')
    for index in range(leds.count):
        x, y = places[index]
        out.append(f'<rect x="{_n(x - 2.5)}" y="{_n(y - 2.5)}" width="5" height="5" fill="#fff" '
                   f'stroke="{CHAIN_COLOUR}" stroke-width="0.4"/>')
        out.append(_text(x, y + 1, str(index), 2.4, colour=CHAIN_COLOUR, weight="bold"))
    x0, y0 = places[0]
    out.append(_text(x0 - 5, y0 - 3.5, "DIN", 2.4, "middle", CHAIN_COLOUR, "bold"))
    # Legend and scale bar.
    ly = TOP + board + 42
    legend = [
        ("#c00", "red circle: square centre, where the pawn's magnet stands; one END of the reed lies under it"),
        ("#000", "glass tube: reed switch (14 mm); yellow: 1N4148, band (cathode) toward the row wire"),
        (ROW_COLOUR, "row wires (driven low in turn), one per rank"),
        (COLUMN_COLOUR, "column wires (read, 10 kOhm pull-up to 3.3 V each), one per file"),
        (CHAIN_COLOUR, f"WS2812 chain in data order: DIN at LED 0 ({leds.first}), {leds.layout} along "
                       f"each {leds.along}; edge LEDs {', '.join(leds.edges)} follow"),
    ]
    for i, (colour, text) in enumerate(legend):
        out.append(f'<rect x="{LEFT - 14}" y="{_n(ly + i * 6 - 2.6)}" width="4" height="3" fill="{colour}"/>')
        out.append(_text(LEFT - 8, ly + i * 6, text, 2.8, "start"))
    by = ly + len(legend) * 6 + 4
    out.append(_line(LEFT - 14, by, LEFT + 86, by, "#000", 0.6))
    for tick in range(0, 101, 10):
        out.append(_line(LEFT - 14 + tick, by - (2 if tick % 50 == 0 else 1), LEFT - 14 + tick, by, "#000", 0.3))
    out.append(_text(LEFT + 90, by + 1, "100 mm", 2.8, "start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def generate(pinmap: PinMap) -> dict[str, str]:
    """File name -> content of every generated document."""
    return {"pins.md": pins_markdown(pinmap), "mat-template.svg": mat_svg(pinmap)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.docs", description=__doc__.split("\n")[0])
    parser.add_argument("--pinmap", metavar="FILE", help="the pin map (default: the built-in one)")
    parser.add_argument("--out", metavar="DIR",
                        help="where to write (default: next to the pin map, i.e. hardware/ in the source tree)")
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap)
    except PinMapError as e:
        print(e)
        return 2
    # The package's map is a link to hardware/pinmap.toml: resolving it finds hardware/.
    out = Path(args.out) if args.out else Path(pinmap.source).resolve().parent
    stale = []
    for name, content in generate(pinmap).items():
        path = out / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == content:
            continue
        stale.append(name)
        if not args.check:
            path.write_text(content, encoding="utf-8")
            print(f"wrote {path}")
    if args.check and stale:
        print(f"stale: {', '.join(stale)} in {out}; run: python -m firmware.docs")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

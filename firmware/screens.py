"""OLED screens as pure functions of plain data (strings, URLs) to 128x64 1-bit images.

Text uses Pillow's built-in bitmap font: 6x11 pixels, Latin-1, nothing to download, crisp on a
1-bit panel and identical everywhere (so screens can be compared pixel for pixel). That gives
21 characters a line and 5 lines a screen. Long text wraps at words; what still does not fit
ends in an ellipsis. Lit pixels are 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import segno
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
CHAR_W, LINE_H = 6, 12  # the font's cell, plus one pixel of leading
COLUMNS = WIDTH // CHAR_W
ELLIPSIS = "\u2026"  # not in the font: drawn as three dots in one cell
QR_SCALE = 2
QR_MAX_PX = HEIGHT


@lru_cache(maxsize=1)
def font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


def _clean(text: str) -> str:
    """The text with anything the Latin-1 font cannot draw replaced by '?'."""
    text = " ".join(text.split())
    return text.replace(ELLIPSIS, "...").encode("latin-1", "replace").decode("latin-1")


def fit(text: str, columns: int) -> str:
    """One line of at most ``columns`` characters, ending in an ellipsis if cut."""
    text = _clean(text)
    if len(text) <= columns:
        return text
    return text[:columns - 1].rstrip() + ELLIPSIS


def wrap(text: str, columns: int, lines: int) -> list[str]:
    """Word-wrap into at most ``lines`` lines; words longer than a line are split."""
    words = _clean(text).split(" ") if text.strip() else []
    out: list[str] = []
    line = ""
    for word in words:
        while len(word) > columns:
            if line:
                out.append(line)
                line = ""
            out.append(word[:columns])
            word = word[columns:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= columns:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    if len(out) > lines:
        last = out[lines - 1]
        out = out[:lines - 1] + [(last if len(last) < columns else last[:columns - 1].rstrip()) + ELLIPSIS]
    return out


def _text(draw: ImageDraw.ImageDraw, x: int, y: int, line: str, fill: int = 1) -> None:
    if line.endswith(ELLIPSIS):
        line = line[:-1]
        dots_x = x + CHAR_W * len(line)
        for dx in (0, 2, 4):
            draw.point((dots_x + dx, y + 8), fill=fill)
    draw.text((x, y), line, font=font(), fill=fill)


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    return image, ImageDraw.Draw(image)


def _title_bar(draw: ImageDraw.ImageDraw, title: str) -> None:
    draw.rectangle((0, 0, WIDTH - 1, LINE_H - 1), fill=1)
    _text(draw, 1, 0, fit(title, COLUMNS), fill=0)


def status_screen(title: str, lines: Sequence[str]) -> Image.Image:
    """A title bar and up to four lines, each cut to fit."""
    image, draw = _canvas()
    _title_bar(draw, title)
    for i, line in enumerate(lines[:4]):
        _text(draw, 1, LINE_H * (i + 1) + 2, fit(line, COLUMNS))
    return image


def message_screen(text: str, title: str | None = None) -> Image.Image:
    """A paragraph, word-wrapped (four lines under a title, five without)."""
    image, draw = _canvas()
    top = 0
    if title is not None:
        _title_bar(draw, title)
        top = LINE_H + 2
    for i, line in enumerate(wrap(text, COLUMNS, (HEIGHT - top) // LINE_H)):
        _text(draw, 1, top + LINE_H * i, line)
    return image


def prompt_screen(question: str, choices: Mapping[str, str]) -> Image.Image:
    """A question above labels for the buttons under the screen (``{"A": "Yes", ...}``).

    Buttons A, B, C sit left to right; each label gets a third of the width (6 characters).
    """
    image, draw = _canvas()
    for i, line in enumerate(wrap(question, COLUMNS, 3)):
        _text(draw, 1, LINE_H * i, line)
    slot = WIDTH // 3
    for i, name in enumerate("ABC"):
        label = choices.get(name)
        if not label:
            continue
        left = i * slot
        draw.rectangle((left + 1, HEIGHT - LINE_H - 2, left + slot - 2, HEIGHT - 1), fill=1)
        text = fit(label, (slot - 4) // CHAR_W)
        _text(draw, left + (slot - CHAR_W * len(text)) // 2, HEIGHT - LINE_H - 1, text, fill=0)
    return image


def qr_screen(url: str, caption: str) -> Image.Image:
    """A QR code of ``url`` on the left, ``caption`` wrapped on the right.

    Use an upper-case URL (``HTTP://10.42.0.1/J/TOKEN``): QR codes store upper case, digits and
    ``:/.`` in the compact alphanumeric mode, so a 45-character join link fits version 2 (25
    modules, 54 px with its quiet zone). Dark modules are unlit pixels on a lit square, the way
    phone cameras expect them.
    """
    qr = segno.make(url, error="L")
    border = 2 if (qr.symbol_size(scale=QR_SCALE, border=2)[0] <= QR_MAX_PX) else 1
    side = int(qr.symbol_size(scale=QR_SCALE, border=border)[0])   # whole pixels at an int scale
    if side > QR_MAX_PX:
        raise ValueError(f"{url!r} needs a version {qr.version} QR code ({side} px): too big for "
                         f"{HEIGHT} px; shorten it or use upper case")
    image, draw = _canvas()
    top = (HEIGHT - side) // 2
    draw.rectangle((0, top, side - 1, top + side - 1), fill=1)
    for y, row in enumerate(qr.matrix):
        for x, dark in enumerate(row):
            if dark:
                px, py = (x + border) * QR_SCALE, top + (y + border) * QR_SCALE
                draw.rectangle((px, py, px + QR_SCALE - 1, py + QR_SCALE - 1), fill=0)
    left = side + 3
    for i, line in enumerate(wrap(caption, (WIDTH - left) // CHAR_W, HEIGHT // LINE_H)):
        _text(draw, left, LINE_H * i + 2, line)
    return image


def pattern_screen() -> Image.Image:
    """The self-test pattern: a frame on the outermost pixels, a checkerboard, a text sample."""
    image, draw = _canvas()
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=1)
    for y in range(2, 22):
        for x in range(WIDTH - 22, WIDTH - 2):
            if (x + y) % 2 == 0:
                draw.point((x, y), fill=1)
    _text(draw, 4, 3, "Self-test")
    _text(draw, 4, 16, "OLED 128x64")
    _text(draw, 4, 29, "Frame on all 4")
    _text(draw, 4, 41, "edges? Then OK.")
    draw.rectangle((WIDTH - 22, 40, WIDTH - 3, HEIGHT - 3), fill=1)
    return image


def wifi_screen(payload: str, caption: str) -> Image.Image:
    """The table's own Wi-Fi as a QR code phone cameras join from, ``caption`` beside (its
    wording is the table's: ``companion.mat.oled.wifi_caption``).

    ``payload`` is the ``WIFI:T:WPA;S:...;P:...;;`` text (``companion.table.network.
    wifi_qr_payload``); the firmware only draws it. A generated network (``Onitama-XXXX`` and a
    12-character password, 42 bytes) fits a version 3 code (29 modules, 62 px); a name and
    password longer than about 50 bytes together do not fit the panel and raise ValueError.
    """
    return qr_screen(payload, caption)

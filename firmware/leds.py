"""LED frames and the strip interface.

A ``Frame`` says what colour each square (and each edge group) shows. ``LedMat`` turns a frame
into colours in chain order through the pin map, applies the brightness cap and writes them to
a ``Strip``: the rpi_ws281x back-end on a Pi 3/4/Zero 2 W (``firmware.ws281x``), the recording
strip in the simulation. Another back-end (a Pi 5) only has to implement ``Strip``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from firmware.pinmap import LedConfig

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)
# The self-test's colours: each channel alone, and all three. What the colours mean in a game
# (the table's palette) is companion/mat/feedback.py's.
WHITE: RGB = (255, 255, 255)
RED: RGB = (255, 0, 0)
GREEN: RGB = (0, 255, 0)
BLUE: RGB = (0, 0, 255)


@dataclass(frozen=True)
class Frame:
    """Colours for the 25 squares (a1 first) and for named edge groups (absent = off)."""

    squares: tuple[RGB, ...] = (OFF,) * 25
    edges: Mapping[str, RGB] = field(default_factory=dict)

    @classmethod
    def of(cls, squares: Mapping[int, RGB], edges: Mapping[str, RGB] | None = None) -> Frame:
        colours = [OFF] * 25
        for sq, colour in squares.items():
            colours[sq] = colour
        return cls(tuple(colours), dict(edges or {}))

    def lit(self) -> dict[int, RGB]:
        """The squares that are not off."""
        return {sq: c for sq, c in enumerate(self.squares) if c != OFF}


def capped(colour: RGB, cap: float) -> RGB:
    r, g, b = colour
    return round(r * cap), round(g * cap), round(b * cap)


def frame_pixels(frame: Frame, config: LedConfig) -> list[RGB]:
    """The frame as colours in chain order, each capped to ``config.max_brightness``."""
    pixels = [OFF] * config.count
    for sq, colour in enumerate(frame.squares):
        pixels[config.square_leds[sq]] = capped(colour, config.max_brightness)
    for name, colour in frame.edges.items():
        if name not in config.edges:
            raise ValueError(f"no edge LEDs named {name!r} in the pin map (known: {', '.join(config.edges)})")
        for index in config.edges[name]:
            pixels[index] = capped(colour, config.max_brightness)
    return pixels


def pixels_frame(pixels: Sequence[RGB], config: LedConfig) -> Frame:
    """Chain colours back to a frame (as shown: capped), the inverse of ``frame_pixels``."""
    # cast: tuple() of a colour (a strip may hand back lists) is a 3-tuple, which mypy cannot count.
    squares = tuple(cast(RGB, tuple(pixels[config.square_leds[sq]])) for sq in range(25))
    edges = {name: cast(RGB, tuple(pixels[indices[0]])) for name, indices in config.edges.items()
             if pixels[indices[0]] != OFF}
    return Frame(squares, edges)


class Strip(ABC):
    """A chain of RGB LEDs; ``write`` shows one colour per LED in chain order."""

    count: int

    @abstractmethod
    def write(self, pixels: Sequence[RGB]) -> None: ...

    @abstractmethod
    def close(self) -> None:
        """Release the hardware (the LEDs are left as last written)."""


class LedMat:
    """The LEDs under the mat: shows frames through the pin map and the brightness cap."""

    def __init__(self, strip: Strip, config: LedConfig):
        if strip.count != config.count:
            raise ValueError(f"the strip has {strip.count} LEDs but the pin map says leds.count = {config.count}")
        self.strip = strip
        self.config = config

    def show(self, frame: Frame) -> None:
        self.strip.write(frame_pixels(frame, self.config))

    def close(self) -> None:
        """Turn every LED off and release the strip."""
        self.show(Frame())
        self.strip.close()

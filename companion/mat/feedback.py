"""The LED grammar: what a lit square may do (``Cue``), the table's palette (every colour the
mat's LEDs show is named here), and the recognizer's feedback as cues per square.

A ``Cue`` is plain data: a colour, a kind (steady, blink, pulse, or a sweep along a line), an
urgency (speed and brightness: hint, normal, error), a blink's phase and a sweep's place. The
table builds every scene from cues alone (``{square: Cue}``, the recognizer's lights turned into
cues by :func:`cues`); the firmware's animator (``firmware/animation.py``) translates each into
the effect it plays, so no layer above the drivers knows the animator's classes.

The recognizer speaks in colour names and effects (``Light``). This module is the one place
that maps those onto cues, so the LED grammar of docs/recognizer.md is read here:

- steady: a lifted pawn's destinations, coloured by card (cyan = card A, magenta = card B,
  white = both);
- flash: a move just recognised, its destination(s) green;
- blink-slow (hint): the squares of a move waiting for an answer on the OLED;
- blink-fast (error): the wrong squares of an illegal or out-of-sync mat; each misplaced pawn
  and the square it belongs on blink alternately (from in phase, to half a cycle later);
- pulse: the winning master.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .scene import Feedback

RGB = tuple[int, int, int]
Kind = Literal["steady", "blink", "pulse", "sweep"]
Urgency = Literal["hint", "normal", "error"]   # slow and dim, normal, fast

PALETTE: dict[str, RGB] = {
    "red": (255, 0, 0),
    "blue": (0, 0, 255),
    "green": (0, 255, 0),
    "white": (255, 255, 255),
    "cyan": (0, 200, 255),
    "magenta": (255, 0, 200),
    "amber": (255, 140, 0),
}

# A hint's grades on a lifted pawn's destinations: distinct from the card colours (cyan,
# magenta, white) and steady, unlike the blinking red of a mat out of sync.
HINT_COLOURS: dict[str, RGB] = {
    "good": (0, 255, 0),
    "risky": (255, 200, 0),
    "losing": (255, 0, 0),
}

# effect name -> (kind, urgency)
EFFECTS: dict[str, tuple[Kind, Urgency]] = {
    "steady": ("steady", "normal"),
    "flash": ("blink", "normal"),
    "blink-slow": ("blink", "hint"),
    "blink-fast": ("blink", "error"),
    "pulse": ("pulse", "normal"),
}

# A misplaced pawn's square and where it belongs alternate: amber there, red here.
PAIR_FROM: RGB = PALETTE["red"]
PAIR_TO: RGB = PALETTE["amber"]


@dataclass(frozen=True, slots=True)
class Cue:
    """What one square (or edge group) shows. A blink is on for the first half of its cycle,
    ``phase`` (0-1) shifting it; a pulse breathes from full to a tenth; a sweep is a light
    running along a line of ``length`` squares, this one at ``position`` (build it with
    :func:`sweep`)."""
    rgb: RGB
    kind: Kind = "steady"
    urgency: Urgency = "normal"
    phase: float = 0.0
    position: int = 0
    length: int = 1


def steady(rgb: RGB, urgency: Urgency = "normal") -> Cue:
    return Cue(rgb, "steady", urgency)


def blink(rgb: RGB, urgency: Urgency = "normal", phase: float = 0.0) -> Cue:
    return Cue(rgb, "blink", urgency, phase)


def pulse(rgb: RGB, urgency: Urgency = "normal") -> Cue:
    return Cue(rgb, "pulse", urgency)


def sweep(squares: Sequence[int], rgb: RGB, urgency: Urgency = "normal") -> dict[int, Cue]:
    """A light running along ``squares`` in order (a rank, a file, a path)."""
    return {sq: Cue(rgb, "sweep", urgency, 0.0, i, len(squares)) for i, sq in enumerate(squares)}


def cues(feedback: Feedback) -> dict[int, Cue]:
    """Square -> cue for every lit square (the rest are dark)."""
    out: dict[int, Cue] = {}
    for sq, light in feedback.scene.items():
        kind, urgency = EFFECTS[light.effect]
        out[sq] = Cue(PALETTE[light.colour], kind, urgency)
    for frm, to in feedback.pairs:
        out[frm] = blink(PAIR_FROM, "error", 0.0)
        out[to] = blink(PAIR_TO, "error", 0.5)
    return out

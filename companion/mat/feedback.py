"""The recognizer's feedback as LED cues per square: plain data for the animation layer, and
the table's palette (every colour the mat's LEDs show is named here).

The recognizer speaks in colour names and effects (``Light``); the firmware's animator plays
effects with a colour, an urgency (speed and brightness: hint, normal, error) and a phase. This
module is the one place that maps the first onto the second, so the LED grammar of
docs/recognizer.md is read here:

- steady: a lifted pawn's destinations, coloured by card (cyan = card A, magenta = card B,
  white = both);
- flash: a move just recognised, its destination(s) green;
- blink-slow (hint): the squares of a move waiting for an answer on the OLED;
- blink-fast (error): the wrong squares of an illegal or out-of-sync mat; each misplaced pawn
  and the square it belongs on blink alternately (from in phase, to half a cycle later);
- pulse: the winning master.

The service turns a ``Cue`` into ``firmware.animation`` effects:
``{"steady": Steady, "blink": Blink, "pulse": Pulse}[cue.kind](cue.rgb, Urgency[cue.urgency.upper()], ...)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .scene import Feedback

RGB = tuple[int, int, int]

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
EFFECTS: dict[str, tuple[str, str]] = {
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
    rgb: RGB
    kind: str      # "steady", "blink" or "pulse"
    urgency: str   # "hint", "normal" or "error"
    phase: float = 0.0


def cues(feedback: Feedback) -> dict[int, Cue]:
    """Square -> cue for every lit square (the rest are dark)."""
    out: dict[int, Cue] = {}
    for sq, light in feedback.scene.items():
        kind, urgency = EFFECTS[light.effect]
        out[sq] = Cue(PALETTE[light.colour], kind, urgency)
    for frm, to in feedback.pairs:
        out[frm] = Cue(PAIR_FROM, "blink", "error", 0.0)
        out[to] = Cue(PAIR_TO, "blink", "error", 0.5)
    return out

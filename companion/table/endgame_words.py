"""What the OLED says of the deal's exact endgames (``companion.ai.dealtables``): the
table being solved at the start of a game, and a hint on a position it holds. Kept apart
from ``outputs.py`` (at its size limit) in the same form: pure functions giving a Show."""

from __future__ import annotations

from .outputs import SHOW_S, Show


def endgames_show(percent: int) -> Show:
    """The table being solved (shown for two seconds every five while it takes more than
    two)."""
    return Show(2.0, ("Endgames", f"solving: {percent}%", "play on meanwhile"), {})


def solved_hint_show(seat: str, words: str) -> Show:
    """A hint on a solved position: its exact outcome ("b1-b2 wins in 3")."""
    return Show(SHOW_S, (f"{seat.title()} hint: solved", words), {})

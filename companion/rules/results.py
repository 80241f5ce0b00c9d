"""How a game ended, in words: the one table every screen's wording reads (the referee's
events, the OLED, the phones' headline, the game list). Records and views keep the short name
(``"stone"``); the pages' own script (``web/static/common.js``) names them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from .referee import Result


@dataclass(frozen=True, slots=True)
class How:
    title: str          # the rulebook's name, alone on a line: "Way of the Stone"
    by: str             # after "wins by": "capturing the master"


HOW: dict[str, How] = {
    "stone": How("Way of the Stone", "capturing the master"),
    "stream": How("Way of the Stream", "reaching the Temple Arch"),
    "ninjas": How("Every Ninja captured", "capturing every Ninja"),
    "draw": How("A draw", "agreement"),
    "abandoned": How("Game abandoned", "abandoning"),
}


def how(name: str) -> How:
    """The words for ``name``; a name not in the table (a new way's own) stands for itself."""
    return HOW.get(name, How(name, name))


def result_sentence(result: Result) -> str:
    """``red wins by capturing the master``, or ``a draw``."""
    if result.winner is None:
        return "a draw"
    return f"{result.winner} wins by {how(result.how).by}"

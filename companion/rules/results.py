"""How a game ended, in words: the one table every screen's wording reads (the referee's
events, the OLED, the phones' headline, the game list, and the pages: the server sends a
result's words beside it, :func:`result_words`, so the pages' script keeps no copy). Records
and views keep the short name (``"stone"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

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
    # Simultaneous play across tables: the other table revealed another move than it committed.
    "lie": How("A false reveal", "the other table's false reveal"),
}


def how(name: str) -> How:
    """The words for ``name``; a name not in the table (a new way's own) stands for itself."""
    return HOW.get(name, How(name, name))


def result_sentence(result: Result) -> str:
    """``red wins by capturing the master``, or ``a draw``."""
    if result.winner is None:
        return "a draw"
    return f"{result.winner} wins by {how(result.how).by}"


class ResultWords(TypedDict):
    """A result as the pages say it: the banner's two lines and one sentence."""
    head: str           # "Red wins", "A draw", "Game abandoned"
    line: str           # under it: "Way of the Stone", "Nobody wins this one."
    sentence: str       # alone: "Red wins by capturing the master"


def result_words(result: Mapping[str, Any] | None) -> ResultWords | None:
    """The words for a result as records and views hold it (``{"winner", "how"}``)."""
    if not result:
        return None
    if result.get("how") == "abandoned":
        title = how("abandoned").title
        return {"head": title, "line": "It ended before anyone won.", "sentence": title}
    if result.get("how") == "set aside":       # a saved game that could not be resumed
        why = str(result.get("reason", "it could not be resumed"))
        return {"head": "Set aside", "line": why, "sentence": f"Set aside: {why}"}
    winner = result.get("winner")
    if not winner:
        title = how("draw").title
        return {"head": title, "line": "Nobody wins this one.", "sentence": title}
    words = how(str(result.get("how")))
    head = f"{str(winner).title()} wins"
    return {"head": head, "line": words.title, "sentence": f"{head} by {words.by}"}

"""A saved game's referee, rebuilt from its header and its actions.

Whatever a save file or a backup holds, the answer is a referee or a :class:`ReplayError`
saying which part does not replay: never a KeyError or a TypeError from a damaged header."""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.errors import OnitamaError
from ..rules.position import parse_position
from ..rules.referee import Referee
from ..rules.variants import ClassicReferee, new_referee

# Only these replay from their start position; the others are dealt again from their seed.
CLASSIC = ("base", "wind")


class ReplayError(OnitamaError):
    """A saved game that does not replay: its header, or action number ``n``."""


def rebuild(header: dict, actions: Iterable[tuple[str | None, str]]) -> Referee:
    """Replay ``actions`` (seat, notation; ``"takeback"`` undoes the last one)."""
    try:
        if header.get("fixed") or header["variant"] in CLASSIC:
            ref: Referee = ClassicReferee(parse_position(header["start"]), header["variant"],
                                          seed=header.get("seed"))
        else:
            seed = header["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ReplayError("the header's seed is not a number")
            ref = new_referee(header["variant"], seed=seed, sets=tuple(header["sets"]),
                              wind_cards=header.get("wind_cards", 2))
    except OnitamaError as exc:
        raise ReplayError(f"the header does not start a game: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayError(f"the header does not start a game ({type(exc).__name__}: {exc})") from None
    for n, (seat, text) in enumerate(actions):
        try:
            if text == "takeback":
                ref.undo()
            elif seat is None:
                raise ReplayError(f"action {n} ({text!r}) has no seat")
            else:
                ref.act(seat, text)
        except OnitamaError as exc:
            raise ReplayError(f"action {n} ({text!r}) does not replay: {exc}") from None
    return ref

"""A saved game's referee, rebuilt from its header and its actions.

Whatever a save file or a backup holds, the answer is a referee or a :class:`ReplayError`
saying which part does not replay: never a KeyError or a TypeError from a damaged header."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..rules.errors import OnitamaError
from ..rules.ways import AnyReferee, way
from .errors import CompanionError
from .logwords import public_words
from .tables import table_referee


class ReplayError(CompanionError):
    """A saved game that does not replay: its header, or action number ``n``."""


def rebuild(header: dict[str, Any], actions: Iterable[tuple[str | None, str]]) -> AnyReferee:
    """Replay ``actions`` (seat, notation; ``"takeback"`` undoes the last one)."""
    try:
        ref = table_referee(header, way(header["variant"]).restart(header))
    except OnitamaError as exc:
        raise ReplayError(f"the header does not start a game: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayError(f"the header does not start a game ({type(exc).__name__}: {exc})") from None
    for n, (seat, text) in enumerate(actions):
        try:
            if text == "takeback":
                ref.undo()
            elif seat is None:
                raise ReplayError(f"action {n} has no seat")
            else:
                ref.act(seat, text)
        except OnitamaError as exc:
            if way(ref.mode).hidden:
                # Said in the log and the game list: not the hidden action, nor why it failed.
                raise ReplayError(f"action {n} does not replay ({public_words(exc)})") from None
            raise ReplayError(f"action {n} ({text!r}) does not replay: {exc}") from None
    return ref

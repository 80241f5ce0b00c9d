"""The full record of a finished Light & Shadow game played across two tables.

A table's referee (:class:`~.shadow_half.HalfReferee`) knows its own seat's Ninjas only, so
its own full record holds its secrets and the other seat's public turns. At the game's end
the other table opens every commitment (docs/tables.md, "Audit"); with those openings, the
other seat's half is replayed (its opened steps in place of its rows, as the audit does), and
each seat's sealed record comes from its own half: the record shows both tables' Ninjas, set-up
and steps, as a full record of a game at one table does (``companion.rules.sealed``).
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import OnitamaError, RecordError
from .jsondata import JsonObject
from .position import COLORS
from .sealed import public_record, reveal, sealed_record
from .shadow import ShadowReferee
from .shadow_half import HalfReferee


def opened_record(here: HalfReferee, whole: ShadowReferee,
                  openings: Mapping[str, tuple[str, str]]) -> JsonObject:
    """``here``: this table's half, the game over; ``whole``: the game as dealt; ``openings``:
    the other table's (action number -> text, salt). Raises :class:`RecordError` when the
    openings do not replay to the game both tables saved (the audit names that table)."""
    if here.result is None:
        raise RecordError("the sealed records are revealed when the game ends")
    seat, there = COLORS[here.here], COLORS[here.there]
    salts = {int(n): s for n, (_, s) in openings.items() if n.isdigit()}
    theirs = HalfReferee(whole, there, here.game, lambda n: salts.get(n, ""))
    try:
        for n, (who, text) in enumerate(here.rows):
            theirs.act(who, openings[str(n)][0] if who == there and "#" in text else text)
    except (OnitamaError, KeyError) as exc:
        raise RecordError(f"the other table's openings do not replay: {exc}") from None
    if theirs.rows != here.rows or [t.public for t in theirs.log] != [t.public for t in here.log]:
        raise RecordError("the other table's openings give another game")
    own = {**sealed_record(here, seat), "setup": _setup(here.rows, seat, here.openings())}
    other = {**sealed_record(theirs, there), "setup": _setup(here.rows, there, openings)}
    return reveal(public_record(here), own, other)


def _setup(rows: list[tuple[str, str]], seat: str, opened: Mapping[str, tuple[str, str]]) -> str | None:
    """``seat``'s Ninjas as placed: the opening of its set-up row."""
    n = next((n for n, (who, text) in enumerate(rows) if who == seat and text.startswith("setup ")), None)
    return None if n is None else opened[str(n)][0]

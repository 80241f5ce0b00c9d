"""Two tables' halves of one game without a broker: the rows one half adds cross to the other
half in order, as the link carries them (``companion.rules.table_half``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def cross(halves: Mapping[str, Any], seat: str, action: Any,
          sent: list[tuple[str, str]] | None = None) -> None:
    """``seat``'s table plays ``action``; the rows it adds are played at the other table (and
    noted in ``sent``, as they crossed)."""
    here, there = halves[seat], halves[other(seat)]
    n = len(here.rows)
    here.act(seat, action)
    for who, text in here.rows[n:]:
        there.act(who, text)
        if sent is not None:
            sent.append((who, text))

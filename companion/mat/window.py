"""The last open move as its mover sees it: the other turns they could still amend it into,
from the same square (what the LEDs show while the pawn just moved is lifted again)."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.moves import Move
from ..rules.position import Position
from .readings import Reading


def move_of(r: Reading) -> Move:
    """The move of a reading known to be a turn."""
    assert r.move is not None, "a reading of a legal turn has a move"
    return r.move


def origin(move: Move) -> int | None:
    """The square of the piece a turn picks up first (its pawn, or the Spirit)."""
    return move.from_sq if move.from_sq is not None else move.spirit_from


@dataclass(frozen=True)
class Window:
    """The last move published (``reading``, played from ``before``) and the mover's other
    turns from ``before`` with the same piece."""
    reading: Reading
    before: Position
    mover: int
    readings: list[Reading]


def open_window(reading: Reading, before: Position, turns: list[Reading]) -> Window:
    """The window of ``reading``, played from ``before`` where ``turns`` were legal."""
    start = origin(move_of(reading))
    others = [r for r in turns if r.move != reading.move and origin(move_of(r)) == start
              and r.pieces != reading.pieces]
    return Window(reading, before, before.turn, others)

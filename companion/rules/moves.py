"""Moves as small frozen values, and the move notation of ``docs/positions.md``.

``Card c1c3`` moves a pawn (or, from the Spirit's square, the Wind Spirit); a Wind Spirit card
is written with both steps, ``-`` for one that had no legal option (``Eagle - c3a5``); a pass
names the card given up (``Tiger pass``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, CardTable, notation_name
from .errors import CardError, NotationError
from .squares import parse_square, square_name


@dataclass(frozen=True, slots=True)
class Move:
    card: str
    from_sq: int | None = None      # the pawn step (or a regular card's Spirit move)
    to_sq: int | None = None
    spirit_from: int | None = None  # a Wind Spirit card's bottom step
    spirit_to: int | None = None
    wind_card: bool = False         # written with two steps

    @classmethod
    def pass_turn(cls, card: str) -> "Move":
        return cls(card)

    @property
    def is_pass(self) -> bool:
        return self.from_sq is None and self.spirit_from is None

    def __str__(self) -> str:
        return format_move(self)


def _step(frm: int | None, to: int | None) -> str:
    if frm is None:
        return "-"
    assert to is not None, "a step's squares come in pairs"
    return square_name(frm) + square_name(to)


def format_move(move: Move) -> str:
    name = notation_name(move.card)
    if move.is_pass:
        return f"{name} pass"
    if move.wind_card:
        return f"{name} {_step(move.from_sq, move.to_sq)} {_step(move.spirit_from, move.spirit_to)}"
    return f"{name} {_step(move.from_sq, move.to_sq)}"


def _parse_step(text: str, step: str) -> tuple[int, int] | None:
    if step == "-":
        return None
    if len(step) != 4:
        raise NotationError(text, f"{step!r} is not a step like c1c3")
    try:
        frm, to = parse_square(step[:2]), parse_square(step[2:])
    except ValueError as exc:
        raise NotationError(text, str(exc)) from None
    if frm == to:
        raise NotationError(text, f"{step!r} does not move")
    return frm, to


def parse_move(text: str, cards: CardTable = CARDS) -> Move:
    if not isinstance(text, str):
        raise NotationError(repr(text), "a move must be text")
    parts = text.split()
    if not parts:
        raise NotationError(text, "empty")
    try:
        card = cards[parts[0]]
    except CardError:
        raise NotationError(text, f"unknown card {parts[0]!r}") from None
    rest = parts[1:]
    if rest == ["pass"]:
        return Move(card.name)
    if card.is_wind_card:
        if len(rest) != 2:
            raise NotationError(text, f"{card.name} is a Wind Spirit card: write both steps, "
                                      f"'-' for a skipped one (e.g. '{notation_name(card.name)} c1c2 c3c4')")
        pawn, spirit = _parse_step(text, rest[0]), _parse_step(text, rest[1])
        if pawn is None and spirit is None:
            raise NotationError(text, "both steps skipped: write a pass as '<Card> pass'")
        pawn_from, pawn_to = pawn or (None, None)
        spirit_from, spirit_to = spirit or (None, None)
        return Move(card.name, pawn_from, pawn_to, spirit_from, spirit_to, wind_card=True)
    if len(rest) != 1:
        raise NotationError(text, "expected '<Card> <from><to>' or '<Card> pass'")
    step = _parse_step(text, rest[0])
    if step is None:
        raise NotationError(text, "a regular card has one step; '-' is only for Wind Spirit cards")
    return Move(card.name, *step)

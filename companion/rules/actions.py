"""What a seat can do besides an ordinary move, as small frozen values, and their notation.

A main-board move (or pass) is the engine's :class:`~companion.rules.moves.Move`. The hidden modes
and the variants add: placing Ninjas at set-up, a Ninja step, a Ninja strike, a Lantern, a
Skip (declining an optional step) and, in the Knowledge variant, taking a card from the side
stack. ``docs/notation.md`` describes the text forms; ``action_text`` and ``parse_action``
are their only implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import CARDS, CardTable, notation_name
from .errors import CardError, NotationError
from .jsondata import JsonObject
from .moves import Move, parse_move
from .squares import FILE_NAMES, RANK_NAMES, parse_square, square_name

ROW, COLUMN = "row", "column"


@dataclass(frozen=True, slots=True)
class Place:
    """Set-up: the squares the seat's Ninja(s) start on, in ascending order."""
    squares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NinjaMove:
    """A Ninja's step with ``card`` (the turn's card in Way of the Shadow)."""
    card: str
    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Strike:
    """A Ninja's step onto a square with no pawn, declaring an attack on the enemy Ninja."""
    card: str
    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Lantern:
    """A search of one rank (``row``, index 0-4 = ranks 1-5) or file (``column``, 0-4 = a-e)."""
    line: str
    index: int

    def squares(self) -> frozenset[int]:
        if self.line == ROW:
            return frozenset(self.index * 5 + f for f in range(5))
        return frozenset(r * 5 + self.index for r in range(5))

    def __str__(self) -> str:
        return f"rank {RANK_NAMES[self.index]}" if self.line == ROW else f"file {FILE_NAMES[self.index]}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional step: the Ninja step or the Lantern."""


@dataclass(frozen=True, slots=True)
class Take:
    """Knowledge variant: the card taken from the side stack to replace the one played."""
    card: str


Action = Union[Move, Place, NinjaMove, Strike, Lantern, Skip, Take]
LANTERNS = tuple(Lantern(line, i) for line in (ROW, COLUMN) for i in range(5))


def _sq(text: str, whole: str) -> int:
    try:
        return parse_square(text)
    except ValueError as exc:
        raise NotationError(whole, str(exc)) from None


def action_text(action: Action) -> str:
    """The action in the notation a seat types or taps (``Tiger c1c3``, ``Nb1c2``, ``L3``)."""
    if isinstance(action, Move):
        return str(action)
    if isinstance(action, Place):
        return " ".join("N" + square_name(sq) for sq in action.squares)
    if isinstance(action, NinjaMove):
        return f"N{square_name(action.frm)}{square_name(action.to)}"
    if isinstance(action, Strike):
        return f"S{square_name(action.frm)}{square_name(action.to)}"
    if isinstance(action, Lantern):
        return "L" + (RANK_NAMES if action.line == ROW else FILE_NAMES)[action.index]
    if isinstance(action, Take):
        return ">" + notation_name(action.card)
    return "skip"


def action_dict(action: Action, turn_card: str | None = None) -> JsonObject:
    """Plain data for a phone: the kind, the squares by name, and the text form, which names
    the card of a Ninja step unless it is ``turn_card`` (the card a bare step moves with)."""
    out: JsonObject = {"text": action_text(action)}
    if isinstance(action, NinjaMove) and action.card != turn_card:
        out["text"] = f"{notation_name(action.card)} {out['text']}"
    if isinstance(action, Move):
        out["kind"] = "pass" if action.is_pass else "move"
        out["card"] = action.card
        if action.from_sq is not None:
            assert action.to_sq is not None, "a step's squares come in pairs"
            out["from"], out["to"] = square_name(action.from_sq), square_name(action.to_sq)
    elif isinstance(action, Place):
        out.update(kind="place", squares=[square_name(s) for s in action.squares])
    elif isinstance(action, (NinjaMove, Strike)):
        out.update(kind="ninja" if isinstance(action, NinjaMove) else "strike", card=action.card,
                   **{"from": square_name(action.frm), "to": square_name(action.to)})
    elif isinstance(action, Lantern):
        out.update(kind="lantern", line=action.line, index=action.index)
    elif isinstance(action, Take):
        out.update(kind="take", card=action.card)
    else:
        out["kind"] = "skip"
    return out


def parse_action(text: str, card: str | None = None, cards: CardTable = CARDS) -> Action:
    """Parse one action. ``card`` is the turn's card, which a bare Ninja step moves with;
    ``<Card> N<from><to>`` names it explicitly (the Shadow Master's turn in Way of the Light)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(repr(text), "empty")
    parts, card = _named_step(text.split(), card, text, cards)
    head = parts[0]
    if head == "skip" and len(parts) == 1:
        return Skip()
    if head[0] == "N" and all(len(p) == 3 and p[0] == "N" for p in parts):
        return Place(tuple(sorted(_sq(p[1:], text) for p in parts)))
    if head[0] in "NS" and len(head) == 5 and len(parts) == 1:
        return _ninja_step(head, card, text)
    if head[0] == "L" and len(head) == 2 and len(parts) == 1:
        return _lantern(head, text)
    if head[0] == ">" and len(parts) == 1:
        return Take(_card_name(head[1:], text, cards))
    return parse_move(text, cards)


def _ninja_step(head: str, card: str | None, text: str) -> NinjaMove | Strike:
    """``N<from><to>`` (a step) or ``S<from><to>`` (a strike) with the turn's ``card``."""
    if card is None:
        raise NotationError(text, "a Ninja step needs its card: no card has been played yet")
    frm, to = _sq(head[1:3], text), _sq(head[3:], text)
    if frm == to:
        raise NotationError(text, f"{head!r} does not move")
    return (NinjaMove if head[0] == "N" else Strike)(card, frm, to)


def _lantern(head: str, text: str) -> Lantern:
    """``L<rank>`` searches a row, ``L<file>`` a column."""
    if head[1] in RANK_NAMES:
        return Lantern(ROW, RANK_NAMES.index(head[1]))
    if head[1].lower() in FILE_NAMES:
        return Lantern(COLUMN, FILE_NAMES.index(head[1].lower()))
    raise NotationError(text, f"{head[1]!r} is neither a rank 1-5 nor a file a-e")


def _card_name(name: str, text: str, cards: CardTable) -> str:
    try:
        return cards[name].name
    except CardError:
        raise NotationError(text, f"unknown card {name!r}") from None


def _named_step(parts: list[str], card: str | None, text: str,
                cards: CardTable) -> tuple[list[str], str | None]:
    """``<Card> N<from><to>``: the step and the card it names; else the parts as they are."""
    if len(parts) == 2 and parts[1][:1] in ("N", "S") and len(parts[1]) == 5:
        return parts[1:], _card_name(parts[0], text, cards)
    return parts, card

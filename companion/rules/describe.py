"""Turns and refusals in players' words, for the move lists and the screens.

Everything here reads only what its caller may know: a turn's text as its audience saw it (the
public form, or the seat's own full form of its own turns) and the public board before the
turn. ``Red: Tiger, c1 → c3, takes a student`` rather than ``Tiger c1c3``;
``Blue moved a Ninja (Crane)`` rather than ``Crane N?``.

``why_not`` names the rule a move seen on the mat breaks, from the public position alone: the
mat shows every pawn, so whatever it says is already known at the table. A rule that rests on a
hidden Ninja is never found here (the referee gives that reason to the mover only).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .board import Board
from .cards import CARDS, CardTable
from .errors import OnitamaError
from .jsondata import JsonObject
from .moves import Move
from .position import board_pieces, parse_position
from .squares import parse_square

ARROW = "→"
PIECES = {"R": "Red's master", "r": "a Red student", "B": "Blue's master", "b": "a Blue student",
          "W": "the Wind Spirit"}
_SQ = r"[a-e][1-5]"
# The tokens of docs/notation.md that are not a card's move.
_STEP = re.compile(rf"xN|N\?(?:{_SQ})?|S\?{_SQ}[+-]|[NS]{_SQ}{_SQ}[+-]?|L[1-5a-e][+-]?|[+>]\S+")


def _title(seat: str | None) -> str:
    return seat.title() if seat else "Both"


def card_words(name: str) -> str:
    """A card as players say it: ``Wind-Spirit`` in notation is ``Wind Spirit``."""
    return name.replace("-", " ")


def _owner(piece: str) -> str:
    return "red" if piece in "Rr" else "blue" if piece in "Bb" else ""


def _taken(piece: str | None, mover: str | None) -> str:
    """What a step onto a square holding ``piece`` does, or '' for nothing."""
    if not piece or piece == "W":
        return ""
    if mover and _owner(piece) == mover:
        return ""
    return "takes the master" if piece in "RB" else "takes a student"


@dataclass
class _Turn:
    seat: str | None
    board: dict[int, str]
    parts: list[str]
    card: str | None = None

    def step(self, frm: str, to: str) -> str:
        f, t = parse_square(frm), parse_square(to)
        piece = self.board.pop(f, None)
        there = self.board.get(t)
        words = f"{frm} {ARROW} {to}"
        if piece == "W":
            words = f"Wind Spirit {words}"
            if there:
                # The Spirit trades places with the student it lands on.
                self.board[f] = there
                words += ", swaps with a student"
        elif (taken := _taken(there, self.seat or _owner(piece or ""))):
            words += f", {taken}"
        if piece:
            self.board[t] = piece
        return words


def turn_words(seat: str | None, text: str, board: str | dict[int, str]) -> str:
    """One turn in words. ``seat`` moved (None: both, in simultaneous play), ``text`` is the
    turn as the caller may see it, ``board`` the public board before the turn (a position
    string or its pieces)."""
    pieces = dict(board_pieces(board) if isinstance(board, str) else board)
    if " | " in text:                       # simultaneous play: both moves at once
        red, blue = text.split(" | ", 1)
        return f"{turn_words('red', red, pieces)}; {turn_words('blue', blue, pieces)}"
    turn = _Turn(seat, pieces, [])
    tokens = text.split()
    ninja_card = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if not _STEP.fullmatch(tok):                # a card: its move, pass or Ninja follows
            if nxt == "pass":
                turn.parts.append(f"passes with {card_words(tok)}")
                i += 2
                continue
            if _STEP.fullmatch(nxt):
                ninja_card = card_words(tok)     # Way of the Light: the card, then a Ninja
                i += 1
                continue
            turn.card = card_words(tok)
            words = [turn.card]
            i += 1
            while i < len(tokens) and (re.fullmatch(_SQ * 2, tokens[i]) or tokens[i] == "-"):
                if tokens[i] != "-":
                    words.append(turn.step(tokens[i][:2], tokens[i][2:]))
                i += 1
            turn.parts.append(", ".join(words))
            continue
        turn.parts.append(_token_words(turn, tok, ninja_card))
        ninja_card = None
        i += 1
    body = "; ".join(p for p in turn.parts if p)
    if body.startswith("moved a Ninja"):
        return f"{_title(seat)} {body}"
    return f"{_title(seat)}: {body}"


def _token_words(turn: _Turn, tok: str, card: str | None) -> str:
    with_card = f" ({card})" if card else ""
    if tok == "xN":
        return "takes a hidden Ninja"
    if tok == "N?":
        return f"moved a Ninja{with_card}"
    if m := re.fullmatch(rf"N\?({_SQ})", tok):
        taken = turn.board.pop(parse_square(m[1]), None)
        what = "the master" if taken and taken in "RB" else "a student"
        return f"a Ninja takes {what} on {m[1]}{with_card}"
    if m := re.fullmatch(rf"S\?({_SQ})([+-])", tok):
        return f"a Ninja strikes at {m[1]}: {'a hit' if m[2] == '+' else 'a miss'}"
    if m := re.fullmatch(rf"S({_SQ})({_SQ})([+-])", tok):
        return f"Ninja {m[1]} {ARROW} {m[2]} strikes: {'a hit' if m[3] == '+' else 'a miss'}"
    if m := re.fullmatch(rf"N({_SQ})({_SQ})", tok):
        taken = _taken(turn.board.pop(parse_square(m[2]), None), turn.seat)
        return f"Ninja {m[1]} {ARROW} {m[2]}{with_card}" + (f", {taken}" if taken else "")
    if m := re.fullmatch(r"L([1-5a-e])([+-]?)", tok):
        line = f"rank {m[1]}" if m[1].isdigit() else f"file {m[1]}"
        answer = {"+": ": a Ninja is there", "-": ": no Ninja", "": ""}[m[2]]
        return f"a Lantern on {line}{answer}"
    if tok.startswith("+"):
        return f"the student's owner draws {card_words(tok[1:])}"
    if tok.startswith(">"):
        return f"takes {card_words(tok[1:])} from the side stack"
    return tok


class TurnText(Protocol):
    """A finished turn as the referee logs it (``companion.rules.referee.Turn``)."""
    @property
    def seat(self) -> str | None: ...
    @property
    def full(self) -> str: ...
    @property
    def public(self) -> str: ...


def move_list(turns: Sequence[TurnText], positions: Sequence[str],
              seat: str | None = None) -> list[JsonObject]:
    """Numbered move-list entries: ``turns`` are the referee's turns (``seat``, ``full``,
    ``public``), ``positions`` the public position before each. A seat sees its own turns in
    full (its own secret steps) and the others' as everyone does."""
    out = []
    for n, (turn, before) in enumerate(zip(turns, positions), 1):
        text = turn.full if seat is not None and turn.seat == seat else turn.public
        out.append({"n": n, "seat": turn.seat, "text": text,
                    "words": turn_words(turn.seat, text, before)})
    return out


# -- why a move seen on the mat is refused ---------------------------------------------------

@dataclass(frozen=True)
class Refusal:
    """The rule a move breaks: ``short`` fits an OLED line (at most 21 characters), ``long``
    is for the pages."""
    short: str
    long: str


def why_not(position: str, frm: str, to: str, cards: CardTable = CARDS) -> Refusal | None:
    """Why the pawn lifted from ``frm`` may not stand on ``to`` in the public ``position``
    (None: some card allows it). Reads nothing hidden: a Ninja's square is never a reason."""
    pieces = board_pieces(position)
    fields = position.split()
    mover = fields[1]
    f, t = parse_square(frm), parse_square(to)
    piece = pieces.get(f)
    if piece is None:
        return Refusal(f"No pawn on {frm}", f"There is no pawn on {frm} to move.")
    if piece != "W" and _owner(piece) != mover:
        return Refusal(f"{mover.title()}'s turn", f"It is {mover.title()}'s turn: "
                       f"{_owner(piece).title()}'s pawn on {frm} waits.")
    there = pieces.get(t)
    if there and _owner(there) == mover:
        return Refusal("Own pawn there", f"{to} holds one of {mover.title()}'s own pawns.")
    try:
        pos = parse_position(position, cards)
        hand = pos.hands[0 if mover == "red" else 1]
    except OnitamaError:
        return None
    board = Board(pos, cards=cards)
    if any((f, t) in ((m.from_sq, m.to_sq), (m.spirit_from, m.spirit_to))
           for m in board.legal_moves if isinstance(m, Move)):
        return None
    names = " nor ".join(card_words(c) for c in hand)
    what = "the Wind Spirit" if piece == "W" else "the master" if piece in "RB" else "a student"
    return Refusal("No card moves that",
                   f"Neither {names} moves {what} from {frm} to {to}.")

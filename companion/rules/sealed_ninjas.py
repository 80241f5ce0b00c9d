"""What one table knows of a Light & Shadow game played across two tables, and the texts its
actions travel as (docs/tables.md, "Hidden information").

Each table keeps its own seat's Ninjas. Of the other seat's it keeps :class:`SealedNinjas`:
how many live, where the rules have shown one, and the commitments the other table
published. No square of a hidden enemy Ninja can be written there: a table cannot leak what
it never holds.

An action with a hidden part travels as its public form and a commitment
(:class:`Hidden`: ``ninja #<sha256>``); where the rules need the truth about a seat's Ninjas
the owner's table answers with an action of its own (:class:`Answer`: ``answer +`` or
``answer -``). Everything else travels in ``docs/notation.md``'s notation.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .actions import Action, Lantern, parse_action
from .cards import CardTable, notation_name
from .errors import NotationError
from .position import Position
from .referee import Result, TurnLog
from .shadow_state import LanternAnswer
from .squares import parse_square, square_name

_DIGEST = re.compile(r"^#([0-9a-f]{64})$")
_NOTHING = "0" * 64          # the commitment of an action as the rules check it (not sent)


def commitment(game: str, seat: str, ply: str, text: str, salt: str) -> str:
    """The hash a table publishes for ``text``: nothing of it can be read from the hash, and
    no other text opens it (``ply``: the action's number, or a turn's in older records)."""
    body = json.dumps({"game": game, "seat": seat, "ply": ply, "text": text, "salt": salt},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    return hashlib.sha256(body).hexdigest()


def table_salts(secret: str, game: str) -> Callable[[int], str]:
    """A table's salts: action ``n``'s is fresh to anyone without this table's secret (an
    HMAC is a pseudo-random function), and the same when the table replays its save file."""
    def salt(n: int) -> str:
        return hmac.new(secret.encode(), f"{game}/{n}".encode(), hashlib.sha256).hexdigest()[:32]
    return salt


@dataclass(frozen=True, slots=True)
class Hidden:
    """A step of the other seat with a hidden part, as this table receives it. ``kind``:
    ``setup``; ``ninja`` (a quiet Ninja step or none); ``capture`` (its Ninja took a pawn on
    ``square``); ``strike`` (at ``square``); ``shadow`` (Way of the Light's Shadow Master
    played ``card``: a step or a pass, or a capture on ``square``). The digest is its
    commitment, which the legal forms leave out (``compare=False``)."""
    kind: str
    card: str | None = None
    square: int | None = None
    digest: str = field(default=_NOTHING, compare=False)

    def public(self) -> str:
        """What the turn's public text adds: the rules' own words for it."""
        where = "" if self.square is None else square_name(self.square)
        if self.kind == "shadow":
            assert self.card is not None, "the Shadow Master's step names its card"
            return f"{notation_name(self.card)} N?{where}"
        return {"capture": f"N?{where}", "strike": f"S?{where}"}.get(self.kind, "")

    def text(self) -> str:
        where = "" if self.square is None else " " + square_name(self.square)
        head = notation_name(self.card) if self.kind == "shadow" and self.card else self.kind
        return f"{head}{where} #{self.digest}"


@dataclass(frozen=True, slots=True)
class Answer:
    """The Ninjas' owner's answer to the question the last step asked: is one there?"""
    yes: bool

    def text(self) -> str:
        return "answer " + ("+" if self.yes else "-")


Step = Action | Hidden | Answer
KINDS = ("setup", "ninja", "capture", "strike")


def parse_step(text: str, card: str | None, cards: CardTable) -> Step:
    """An action as it travels: an answer, a hidden step with its commitment, or plain
    notation."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) == 2 and parts[0] == "answer" and parts[1] in "+-":
        return Answer(parts[1] == "+")
    if parts and _DIGEST.match(parts[-1]):
        digest = parts[-1][1:]
        head, where = parts[0], parts[1:-1]
        try:
            square = parse_square(where[0]) if len(where) == 1 else None
        except ValueError as exc:
            raise NotationError(text, str(exc)) from None
        if len(where) > 1:
            raise NotationError(text, "a hidden step names one square at most")
        if head in KINDS:
            return Hidden(head, None, square, digest)
        return Hidden("shadow", cards[head].name, square, digest)
    return parse_action(text, card, cards)


@dataclass(frozen=True, slots=True)
class SealedNinjas:
    """The other seat's Ninjas as this table knows them: how many live, the squares the rules
    show (a strike's, a capture's, until its owner's next turn), and its commitments
    (action number, hash). Never where a hidden one stands."""
    alive: int
    revealed: tuple[int, ...] = ()
    commitments: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Question:
    """What the last step asks the other seat's table: ``land`` (a pawn on ``square``),
    ``strike`` (at ``square``) or ``lantern``; ``text`` is the asking step's full text."""
    kind: str
    square: int | None
    lantern: Lantern | None
    text: str


@dataclass(frozen=True, slots=True)
class HalfState:
    pos: Position                      # main board; pos.turn is the mover
    own: tuple[int, ...]               # this table's seat's living Ninjas
    own_revealed: tuple[int, ...]
    other: SealedNinjas                # the other seat's
    lost: tuple[int, int]              # Ninjas captured, by owner
    lanterns: tuple[int, int]
    phase: str                         # setup, move, ninja, lantern, answer
    card: str | None                   # the card played, during the ninja phase
    ply: int                           # finished turns
    placed: tuple[bool, bool]
    result: Result | None
    full: tuple[str, ...]              # the turn in progress: all this table knows of it
    public: tuple[str, ...]
    log: TurnLog
    answers: tuple[LanternAnswer, ...]
    question: Question | None
    rows: tuple[tuple[str, str], ...]  # every action as it travels: (seat, text)
    opened: tuple[tuple[int, str, str], ...]  # this table's commitments: (n, text, salt)

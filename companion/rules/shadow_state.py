"""The state of a Light & Shadow game and the pure steps on it: the moves a state offers and
the Ninjas lost or shown. :class:`companion.rules.shadow.ShadowReferee` runs the turns on it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Iterator, Sequence, TypeVar

from .actions import Lantern, NinjaMove, action_text
from .engine import Engine
from .jsondata import JsonObject
from .moves import Move
from .position import COLORS, Position
from .referee import Event, Result, TurnLog

SHADOW, LIGHT = "shadow", "light"


@dataclass(frozen=True, slots=True)
class LanternAnswer:
    ply: int
    seat: str           # who searched
    lantern: Lantern
    answer: bool

    def as_dict(self) -> JsonObject:
        return {"ply": self.ply, "by": self.seat, "line": str(self.lantern), "answer": self.answer}


@dataclass(frozen=True, slots=True)
class ShadowState:
    pos: Position                                  # main board; pos.turn is the mover
    ninjas: tuple[tuple[int, ...], tuple[int, ...]]  # living Ninjas by colour
    revealed: tuple[tuple[int, ...], tuple[int, ...]]  # of those, the ones on show
    lost: tuple[int, int]                          # Ninjas captured, by owner
    lanterns: tuple[int, int]
    phase: str                                     # setup, move, ninja, lantern
    card: str | None                               # the card played, during the ninja phase
    ply: int                                       # finished turns
    setup: tuple[tuple[int, ...] | None, tuple[int, ...] | None]
    result: Result | None
    full: tuple[str, ...]                          # notation of the turn in progress
    public: tuple[str, ...]
    log: TurnLog
    answers: tuple[LanternAnswer, ...]


T = TypeVar("T")


def set_pair(pair: tuple[T, T], i: int, value: T) -> tuple[T, T]:
    """``pair`` with colour ``i``'s entry replaced."""
    return (value, pair[1]) if i == 0 else (pair[0], value)


def bits(squares: Iterable[int]) -> int:
    return sum(1 << s for s in squares)


def squares(mask: int) -> Iterator[int]:
    while mask:
        b = mask & -mask
        yield b.bit_length() - 1
        mask ^= b


def pawn_moves(engine: Engine, st: ShadowState, c: int) -> Sequence[Move]:
    """Colour ``c``'s main-board moves: never onto its own pawns or Ninjas; a pass when none."""
    pos = st.pos
    own, master = pos.pawns(c), pos.master(c)
    blocked = own | bits(st.ninjas[c])
    out = []
    for card in pos.hands[c]:
        cm = engine.table(card)[c]
        for f in squares(own):
            for t, tb in (cm.master[f] if f == master else cm.student[f]):
                if not blocked & tb:
                    out.append(Move(card, f, t))
    return out or [Move.pass_turn(card) for card in pos.hands[c]]


def ninja_steps(engine: Engine, st: ShadowState, c: int, card: str) -> list[NinjaMove]:
    """A Ninja moves by the card's student pattern, never onto its own side's pieces."""
    cm = engine.table(card)[c]
    blocked = st.pos.pawns(c) | bits(st.ninjas[c])
    return [NinjaMove(card, f, t) for f in st.ninjas[c] for t, tb in cm.student[f]
            if not blocked & tb]


def lose_ninja(st: ShadowState, e: int, sq: int) -> ShadowState:
    """Colour ``e``'s Ninja on ``sq`` is captured."""
    return replace(st, ninjas=set_pair(st.ninjas, e, tuple(s for s in st.ninjas[e] if s != sq)),
                   revealed=set_pair(st.revealed, e, tuple(s for s in st.revealed[e] if s != sq)),
                   lost=set_pair(st.lost, e, st.lost[e] + 1))


def reveal(st: ShadowState, c: int, sq: int) -> ShadowState:
    """Colour ``c``'s Ninja on ``sq`` is on show until ``c``'s next turn begins."""
    return replace(st, revealed=set_pair(st.revealed, c, tuple(sorted({*st.revealed[c], sq}))))


def light_lantern(st: ShadowState, c: int, lantern: Lantern, events: list[Event]) -> ShadowState:
    """Colour ``c`` searches a line with a Lantern; the owner's answer is public."""
    seat, owner = COLORS[c], COLORS[1 - c]
    answer = bool(lantern.squares() & set(st.ninjas[1 - c]))
    text = action_text(lantern)
    events.append(Event("lantern", f"{seat} searches {lantern} with a Lantern", public=True,
                        data={"by": seat, "line": str(lantern)}))
    # The rulebook has the owner announce the answer aloud: the whole table hears it, and
    # the mat shows it, so it is public (never where in the line, nor how many Ninjas).
    events.append(Event("lantern_answer", f"{owner} answers {'yes' if answer else 'no'} for "
                        f"{lantern}", public=True,
                        data={"by": seat, "line": str(lantern), "answer": answer}))
    said = text + ("+" if answer else "-")
    return replace(st, lanterns=set_pair(st.lanterns, c, st.lanterns[c] - 1),
                   answers=st.answers + (LanternAnswer(st.ply, seat, lantern, answer),),
                   full=st.full + (said,), public=st.public + (said,))

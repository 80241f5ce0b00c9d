"""What the computer may know: a seat's view, frozen and typed.

The computer player's only input is a :class:`SeatView`, built from the plain data of
``Referee.view(seat)`` (what that seat's phone receives). Nothing here holds a referee or
its state, so an agent cannot peek at hidden Ninjas: the types do not let it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from companion.rules.actions import Action, parse_action
from companion.rules.cards import CARDS, CardTable
from companion.rules.errors import OnitamaError
from companion.rules.position import Position, parse_position
from companion.rules.squares import parse_square


class ViewError(OnitamaError):
    """The data is not a seat's view the computer can play from."""


@dataclass(frozen=True, slots=True)
class LanternSearch:
    ply: int
    by: str
    line: str          # "rank 3", "file c"
    answer: bool


@dataclass(frozen=True, slots=True)
class NinjaInfo:
    alive: int
    captured: int
    revealed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    mode: str
    seat: str
    to_act: tuple[str, ...]
    phase: str
    position: str                       # the public position string (Knowledge: see stacks)
    log: tuple[str, ...]                # each finished turn as everyone saw it
    legal: tuple[str, ...]              # the seat's legal actions, in notation
    turn_card: str | None = None        # the card a bare Ninja step moves with
    slots: tuple[str, ...] = ()         # seven/nine: each hand column's role
    side_stacks: tuple[tuple[str, ...], tuple[str, ...]] | None = None   # Knowledge, red/blue
    ninjas: tuple[tuple[str, NinjaInfo], ...] = ()
    own_ninjas: tuple[int, ...] = ()
    lanterns: tuple[int, int] = (0, 0)
    searches: tuple[LanternSearch, ...] = ()
    light: str | None = None            # Way of the Light: the Light Master's colour
    first_turn: bool = False

    @classmethod
    def from_view(cls, data: Mapping[str, Any]) -> "SeatView":
        """Build from ``Referee.view(seat)``. Raises :class:`ViewError` on anything else
        (a public view, a missing field)."""
        try:
            seat = data["seat"]
            if seat not in ("red", "blue"):
                raise ViewError("the computer plays a seat: this is not a seat's view")
            stacks = data.get("side_stacks")
            ninjas = tuple((colour, NinjaInfo(int(info["alive"]), int(info["captured"]),
                                              tuple(parse_square(s) for s in info["revealed"])))
                           for colour, info in sorted(data.get("ninjas", {}).items()))
            lanterns = data.get("lanterns", {})
            return cls(
                mode=str(data["mode"]), seat=seat, to_act=tuple(data["to_act"]),
                phase=str(data["phase"]), position=str(data["position"]),
                log=tuple(data["log"]), legal=tuple(a["text"] for a in data["legal"]),
                turn_card=data.get("card"), slots=tuple(data.get("slots", ())),
                side_stacks=None if stacks is None else (tuple(stacks["red"]), tuple(stacks["blue"])),
                ninjas=ninjas, own_ninjas=tuple(parse_square(s) for s in data.get("own_ninjas", ())),
                lanterns=(int(lanterns.get("red", 0)), int(lanterns.get("blue", 0))),
                searches=tuple(LanternSearch(int(s["ply"]), s["by"], s["line"], bool(s["answer"]))
                               for s in data.get("searches", ())),
                light=data.get("light"), first_turn=bool(data.get("first_turn", False)))
        except (KeyError, TypeError, ValueError) as exc:
            raise ViewError(f"not a seat's view: {exc}") from None

    @property
    def color(self) -> int:
        return 0 if self.seat == "red" else 1

    def cards(self) -> CardTable:
        """The card table of this game (the conditional variant adds the project's own)."""
        if self.mode == "conditional":
            from companion.rules.variants import example_conditional_cards
            own = example_conditional_cards()
            return CARDS.with_cards(c for c in own if c.name not in CARDS)
        return CARDS

    def board(self) -> Position:
        """The main board. In Knowledge the side field holds the mover's whole side stack;
        the search takes stacks from ``side_stacks``, so only its first card is kept here."""
        fields = self.position.split()
        if len(fields) == 5 and "," in fields[4]:
            fields[4] = fields[4].split(",")[0]
        return parse_position(" ".join(fields), self.cards())

    def actions(self) -> list[Action]:
        table = self.cards()
        return [parse_action(text, self.turn_card, table) for text in self.legal]

    def ninja_info(self, colour: str) -> NinjaInfo | None:
        return dict(self.ninjas).get(colour)

"""The referee: one object per game that knows everything and tells each seat only what the
rules let it know.

A referee holds an immutable state; :meth:`Referee.act` computes the next state and the
events of the action, or raises and changes nothing. The modes (``companion.rules.shadow``,
``companion.rules.variants``) supply the rules through five hooks. What leaves a referee is plain
data: ``view(seat)`` for a phone, ``view(None)`` for the OLED and spectators, events with
their audience, and the public, sealed and full records of ``companion.rules.sealed``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Generic, Protocol, Self, TypeVar, overload

from .actions import Action, action_dict, action_text, parse_action
from .cards import CARDS, CardTable
from .describe import move_list
from .errors import GameOverError, IllegalActionError, NotYourTurnError, RefereeError
from .jsondata import JsonObject
from .position import Position

SEATS = ("red", "blue")


def seat_name(seat: str) -> str:
    if seat not in SEATS:
        raise RefereeError(f"{seat!r} is not a seat (red or blue)")
    return seat


@dataclass(frozen=True, slots=True)
class Result:
    winner: str | None   # None: a draw
    how: str             # stone, stream, ninjas (Way of the Light), draw

    def as_dict(self) -> JsonObject:
        return {"winner": self.winner, "how": self.how}


@dataclass(frozen=True, slots=True)
class Event:
    """An announcement. ``seats`` are told; ``public`` events also go to the OLED and spectators
    (and then to every seat)."""
    kind: str
    text: str
    public: bool
    seats: tuple[str, ...] = SEATS
    data: JsonObject = field(default_factory=dict, compare=True)

    def reaches(self, seat: str | None) -> bool:
        return self.public or (seat is not None and seat in self.seats)

    def as_dict(self) -> JsonObject:
        return {"kind": self.kind, "text": self.text, **self.data}


@dataclass(frozen=True, slots=True)
class Turn:
    """One finished turn as the rules record it: ``full`` with everything, ``public`` as
    everyone saw it. ``seat`` is the mover (None for a simultaneous turn)."""
    seat: str | None
    full: str
    public: str


class TurnLog(Sequence[Turn]):
    """The turns so far, shared by every saved state of one game instead of copied into each.

    A referee keeps each earlier state for undo, and each state holds its log: as tuples, a
    1000-turn game kept half a million references to its turns. Here a state holds a length
    into one list that only grows; adding to the newest log appends in place, and adding to
    an older one (after an undo) starts a new list, so no state ever sees its log change.
    Each mode's new game starts from an empty ``TurnLog()`` of its own."""

    __slots__ = ("_turns", "_n")

    def __init__(self, turns: list[Turn] | None = None, n: int = 0):
        self._turns: list[Turn] = [] if turns is None else turns
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Turn: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Turn, ...]: ...

    def __getitem__(self, i: int | slice) -> Turn | tuple[Turn, ...]:
        if isinstance(i, slice):
            return tuple(self._turns[:self._n][i])
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("turn index out of range")
        return self._turns[i]

    def __iter__(self) -> Iterator[Turn]:
        return islice(self._turns, self._n)

    def __add__(self, more: tuple[Turn, ...]) -> TurnLog:
        turns = self._turns if len(self._turns) == self._n else self._turns[:self._n]
        turns.extend(more)
        return TurnLog(turns, self._n + len(more))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (TurnLog, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"TurnLog({list(self)!r})"


class GameState(Protocol):
    """What the common machinery reads of every mode's state."""

    @property
    def result(self) -> Result | None: ...

    @property
    def log(self) -> TurnLog: ...


S = TypeVar("S", bound=GameState)


class Referee(Generic[S]):
    """The common machinery. A mode implements ``_to_act``, ``_legal``, ``_apply``, ``_why``
    and ``_view`` over its own frozen state ``S``, which has ``result`` and ``log`` fields.
    Code that takes a referee of any mode writes ``Referee[Any]``: the state's type is the
    mode's own, and only the mode reads it."""

    mode: str
    start: Position          # the position the game started from, for the records
    seed: int | None         # of the deal, for the records
    light: int | None = None  # the Light Master's colour index (Way of the Light), else None

    def __init__(self, state: S, cards: CardTable = CARDS):
        self.cards = cards
        self._state = state
        self._history: list[tuple[S, int]] = []
        self._events: list[Event] = []

    # -- the hooks -------------------------------------------------------------------------

    def _to_act(self, st: S) -> tuple[str, ...]:
        raise NotImplementedError

    def _legal(self, st: S, seat: str) -> Sequence[Action]:
        raise NotImplementedError

    def _apply(self, st: S, seat: str, action: Action) -> tuple[S, list[Event]]:
        raise NotImplementedError

    def _why(self, st: S, seat: str, action: Action) -> str | tuple[str, str | None]:
        """Why ``action`` is refused: one text, or (the seat's reason, the public's reason or
        None) when the reason rests on the seat's secret."""
        raise NotImplementedError

    def _view(self, st: S, seat: str | None) -> JsonObject:
        raise NotImplementedError

    def _turn_card(self, st: S, seat: str) -> str | None:
        """The card a bare Ninja step in ``seat``'s typed text moves with."""
        return None

    # -- the public API --------------------------------------------------------------------

    @property
    def state(self) -> S:
        """The whole truth (for the harness and tests; never send it to a phone)."""
        return self._state

    @property
    def result(self) -> Result | None:
        return self._state.result

    @property
    def log(self) -> TurnLog:
        return self._state.log

    def to_act(self) -> tuple[str, ...]:
        """The seats the rules are waiting for (two at set-up and in simultaneous play)."""
        return () if self._state.result is not None else self._to_act(self._state)

    def legal_actions(self, seat: str) -> Sequence[Action]:
        seat = seat_name(seat)
        return self._legal(self._state, seat) if seat in self.to_act() else []

    def parse(self, seat: str, text: str) -> Action:
        return parse_action(text, self._turn_card(self._state, seat_name(seat)), self.cards)

    def act(self, seat: str, action: Action | str) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the events it caused (each with its
        audience). Raises a :class:`RefereeError` naming the rule and changes nothing."""
        seat = seat_name(seat)
        st = self._state
        if st.result is not None:
            raise GameOverError(f"the game is over ({describe_result(st.result)})")
        waiting = self._to_act(st)
        if seat not in waiting:
            raise NotYourTurnError(seat, waiting)
        if isinstance(action, str):
            action = self.parse(seat, action)
        if action not in self._legal(st, seat):
            why = self._why(st, seat, action)
            # A mode's reason is a text, or (private, public) when it rests on a secret.
            private, public = (why, why) if isinstance(why, str) else why
            raise IllegalActionError(action_text(action), private, public_reason=public)
        new, events = self._apply(st, seat, action)
        self._history.append((st, len(self._events)))
        self._state = new
        self._events.extend(events)
        return events

    def undo(self) -> None:
        """Take back the last action (for a mis-tap at the table)."""
        if not self._history:
            raise RefereeError("nothing to undo")
        self._state, n = self._history.pop()
        del self._events[n:]

    def events(self, seat: str | None = None) -> list[Event]:
        """Every event so far that reached ``seat`` (None: the public)."""
        return [e for e in self._events if e.reaches(seat)]

    def view(self, seat: str | None = None) -> JsonObject:
        """What ``seat`` may know, as JSON-ready data; None gives the public view."""
        if seat is not None:
            seat_name(seat)
        st = self._state
        out: JsonObject = {
            "mode": self.mode,
            "seat": seat,
            "to_act": list(self.to_act()),
            "log": [t.public for t in st.log],
            "result": None if st.result is None else st.result.as_dict(),
        }
        out.update(self._view(st, seat))
        # The move list in players' words: a seat's own turns with its own secret steps.
        out["moves"] = move_list(st.log, self.turn_positions(), seat)
        out["legal"] = ([action_dict(a, self._turn_card(st, seat)) for a in self.legal_actions(seat)]
                        if seat is not None else [])
        return out

    def turn_positions(self) -> list[str]:
        """The public position at the start of each finished turn, oldest first."""
        starts: dict[int, str] = {}
        for st, _ in self._history:        # the state before each action
            if len(st.log) not in starts:
                position = self._view(st, None)["position"]
                assert isinstance(position, str)
                starts[len(st.log)] = position
        return [starts[n] for n in range(len(self._state.log))]

    def copy(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        other._events = list(self._events)
        return other


def describe_result(result: Result) -> str:
    from .results import result_sentence      # the words' table reads Result from here
    return result_sentence(result)

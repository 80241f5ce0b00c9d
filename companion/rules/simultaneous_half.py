"""One table's referee of a Simultaneous game played across two tables (docs/tables.md).

Both seats choose a move at once, in secret. At one table the companion holds both until
both have chosen. Across two tables neither may see the other's move before its own is fixed,
so each turn is a commitment, then a reveal:

- each seat's player chooses on its phone whenever they like; the move stays at its table
  (this referee's ``chosen``);
- the tables publish their commitments in a fixed order, Red's then Blue's (``commit <hex>``:
  :func:`~.sealed_ninjas.commitment` of the move with a fresh salt, the table's own for that
  row), each as soon as its seat has chosen and the row before it is in;
- once both are in, the tables reveal, Red's then Blue's (``reveal <move> <salt>``): a table
  reveals only after it holds the other's commitment, so neither can change its move after
  seeing the other's;
- both referees check both reveals against the commitments: a move that does not open its
  commitment, or is not legal, ends the game there, won by the other seat, and the turn
  that ends it names the table that lied, in both tables' records.

The moves then resolve together, as :class:`~.variants.SimultaneousReferee` resolves them.
Until a reveal the rows are the same bytes whatever was chosen, but for the commitment's hash.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from .actions import Action, action_text, parse_action
from .errors import NotationError, VariantError
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, RED, Position
from .referee import Event, Result, Turn, TurnLog
from .results import result_sentence
from .sealed_ninjas import commitment
from .table_half import TableHalf
from .variants import SimultaneousReferee, SimultaneousState, put_seat

LIE = "lie"                 # a result's ``how``: the other table revealed a false move


@dataclass(frozen=True, slots=True)
class Sealed:
    """A table's commitment (``commit``) or reveal (``reveal``) of its seat's move. Equal
    when of one kind: what a row holds is checked when it is applied, not by its form."""
    kind: str
    digest: str = field(default="", compare=False)   # commit
    move: str = field(default="", compare=False)     # reveal
    salt: str = field(default="", compare=False)     # reveal

    def text(self) -> str:
        return f"commit {self.digest}" if self.kind == "commit" else f"reveal {self.move} {self.salt}"


def parse_sealed(text: str) -> Sealed | None:
    """``commit <64 hex>`` or ``reveal <move> <salt>``; None for any other text."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) == 2 and parts[0] == "commit" and len(parts[1]) == 64 and _hex(parts[1]):
        return Sealed("commit", digest=parts[1])
    if len(parts) >= 3 and parts[0] == "reveal" and len(parts[-1]) == 32 and _hex(parts[-1]):
        return Sealed("reveal", move=" ".join(parts[1:-1]), salt=parts[-1])
    return None


def _hex(text: str) -> bool:
    return all(ch in "0123456789abcdef" for ch in text)


@dataclass(frozen=True, slots=True)
class SimultaneousHalfState:
    sim: SimultaneousState               # the board, the log, the result: both tables' same
    chosen: Move | None                  # this table's seat's move of the turn (never sent)
    commits: tuple[tuple[int, str] | None, tuple[int, str] | None]   # (row, hash) by seat
    reveals: tuple[Move | None, Move | None]
    rows: tuple[tuple[str, str], ...]    # every action as it travels: (seat, text)

    @property
    def result(self) -> Result | None:
        return self.sim.result

    @property
    def log(self) -> TurnLog:
        return self.sim.log


class SimultaneousHalf(TableHalf[SimultaneousHalfState]):
    """``whole``: the game as dealt; ``here``: this table's seat; ``game``: its name on the
    broker; ``salts``: this table's (:func:`~.sealed_ninjas.table_salts`)."""

    mode = "simultaneous"
    row_kinds = (Sealed,)

    def __init__(self, whole: SimultaneousReferee, here: str, game: str, salts: Callable[[int], str]):
        if here not in COLORS:
            raise VariantError(f"{here!r} is not a seat")
        self.whole = whole.copy()          # its rules, never its state
        self.start, self.seed = whole.start, whole.seed
        self.here, self.game, self._salts = COLORS.index(here), game, salts
        super().__init__(SimultaneousHalfState(whole.state, None, (None, None), (None, None), ()),
                         whole.cards)

    # -- what the table does at once ---------------------------------------------------------

    def answer(self) -> str | None:
        """This table's commitment or reveal, when its row is next; else None."""
        st = self._state
        if st.result is None and self._next(st) == self.here and st.chosen is not None:
            return self._own(st).text()
        return None

    def table_row(self, text: str) -> Action | None:
        """A commitment or a reveal: played off the mat at once."""
        return parse_sealed(text)  # type: ignore[return-value]     # Referee.act takes this mode's steps

    def position(self) -> Position:
        return self._state.sim.pos

    # -- whose row is next ----------------------------------------------------------------------

    @staticmethod
    def _next(st: SimultaneousHalfState) -> int:
        """The seat whose row comes next: commitments, then reveals, Red's first."""
        if st.commits[RED] is None:
            return RED
        if st.commits[BLUE] is None:
            return BLUE
        return RED if st.reveals[RED] is None else BLUE

    def _own(self, st: SimultaneousHalfState) -> Sealed:
        assert st.chosen is not None, "a table commits to its seat's chosen move"
        seat, n = COLORS[self.here], len(st.rows)
        committed = st.commits[self.here]
        if committed is None:
            return Sealed("commit", digest=commitment(self.game, seat, str(n), str(st.chosen), self._salts(n)))
        return Sealed("reveal", move=str(st.chosen), salt=self._salts(committed[0]))

    def _to_act(self, st: SimultaneousHalfState) -> tuple[str, ...]:
        nxt = self._next(st)
        choosing = st.chosen is None and st.commits[self.here] is None
        return tuple(COLORS[c] for c in (RED, BLUE)
                     if c == nxt or (c == self.here and choosing))

    def _legal(self, st: SimultaneousHalfState, seat: str) -> Sequence[Action]:
        c = COLORS.index(seat)
        if c == self.here and st.chosen is None:
            return self.whole._legal(st.sim, seat)
        kind = "commit" if st.commits[c] is None else "reveal"
        out = [self._own(st)] if c == self.here else [Sealed(kind)]
        return out  # type: ignore[return-value]

    # -- applying -------------------------------------------------------------------------------

    def _apply(self, st: SimultaneousHalfState, seat: str,
               action: Action) -> tuple[SimultaneousHalfState, list[Event]]:
        c = COLORS.index(seat)
        step: Sealed | Action = action
        if not isinstance(step, Sealed):
            assert isinstance(step, Move) and c == self.here, "a seat chooses at its own table"
            return replace(st, chosen=step), [Event("chosen", f"{seat} has chosen", public=False,
                                                    seats=(seat,))]
        st = replace(st, rows=st.rows + ((seat, step.text()),))
        if step.kind == "commit":
            n = len(st.rows) - 1
            return replace(st, commits=put_seat(st.commits, c, (n, step.digest))), [
                Event("committed", f"{seat} has committed", public=True, data={"by": seat})]
        revealed = self._revealed(st, c, step)
        if isinstance(revealed, str):
            return self._caught(st, c, revealed)
        st = replace(st, reveals=put_seat(st.reveals, c, revealed))
        red, blue = st.reveals
        if red is None or blue is None:
            return st, []
        sim, events = self.whole._resolve(replace(st.sim, commits=(red, blue)), (red, blue))
        return SimultaneousHalfState(sim, None, (None, None), (None, None), st.rows), events

    def _revealed(self, st: SimultaneousHalfState, c: int, step: Sealed) -> Move | str:
        """The move ``step`` reveals of seat ``c``'s commitment, or why it reveals none."""
        committed = st.commits[c]
        assert committed is not None, "a reveal follows both commitments"
        n, digest = committed
        if commitment(self.game, COLORS[c], str(n), step.move, step.salt) != digest:
            return f"the move revealed ({step.move}) does not open its commitment (row {n})"
        try:
            move = parse_action(step.move, None, self.cards)
        except NotationError:
            return f"the move revealed ({step.move}) is no move"
        if not isinstance(move, Move) or move not in self.whole._legal(st.sim, COLORS[c]):
            return f"the move revealed ({step.move}) is not legal"
        return move

    def _caught(self, st: SimultaneousHalfState, c: int,
                why: str) -> tuple[SimultaneousHalfState, list[Event]]:
        """A false reveal ends the game, won by the other seat; its turn names the liar."""
        seat = COLORS[c]
        result = Result(COLORS[1 - c], LIE)
        text = f"{seat}'s table lied: {why}"
        events = [Event("lie", text, public=True, data={"seat": seat, "detail": why}),
                  Event("game_over", result_sentence(result), public=True, data=result.as_dict())]
        sim = replace(st.sim, result=result, log=st.sim.log + (Turn(None, text, text),))
        return replace(st, sim=sim), events

    def _why(self, st: SimultaneousHalfState, seat: str, action: Action) -> str:
        if COLORS.index(seat) == self.here and st.chosen is None:
            return self.whole._why(st.sim, seat, action)
        return f"{seat}'s table owes its {'commitment' if st.commits[COLORS.index(seat)] is None else 'reveal'}"

    def _view(self, st: SimultaneousHalfState, seat: str | None) -> JsonObject:
        out = self.whole._view(replace(st.sim, commits=(None, None)), seat)
        out["committed"] = {COLORS[c]: st.commits[c] is not None for c in (RED, BLUE)}
        if seat is not None:
            out["own_commit"] = str(st.chosen) if COLORS.index(seat) == self.here and st.chosen else None
        return out

    def sealed(self, seat: str) -> str | None:
        """``seat``'s chosen move of the turn in progress, when it is this table's."""
        st = self._state
        return str(st.chosen) if COLORS.index(seat) == self.here and st.chosen is not None else None

"""The steps of a turn that :class:`~.shadow_half.HalfReferee` shares between its own seat
and the other: showing, capturing and losing Ninjas, the card exchange, the end of a turn, the
winner, the reasons and the views. Each reads the other seat's Ninjas from
:class:`~.sealed_ninjas.SealedNinjas` only."""

from __future__ import annotations

from dataclasses import replace

from .actions import Action, action_text
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, RED
from .referee import Event, Result
from .sealed_ninjas import HalfState
from .shadow_steps import close_turn, lantern_due, ninja_takes, pass_card, winner
from .shadow_state import LIGHT, set_pair
from .squares import square_name


class HalfTurns:
    """Mixed into :class:`~.shadow_half.HalfReferee`, which sets these."""
    here: int
    ninja_count: int
    mode: str
    light: int | None

    def alive(self, st: HalfState, c: int) -> int:
        return len(st.own) if c == self.here else st.other.alive

    def _show(self, st: HalfState, c: int, sq: int) -> HalfState:
        if c == self.here:
            return replace(st, own_revealed=tuple(sorted({*st.own_revealed, sq})))
        return replace(st, other=replace(st.other, revealed=tuple(sorted({*st.other.revealed, sq}))))

    def _take_pawn(self, st: HalfState, c: int, t: int, events: list[Event]) -> HalfState:
        st = replace(st, pos=ninja_takes(st.pos, c, t, events))
        return replace(st, result=self._winner(st))

    def _lose(self, st: HalfState, owner: int, sq: int) -> HalfState:
        """``owner``'s Ninja on ``sq`` is captured (its owner said so)."""
        st = replace(st, lost=set_pair(st.lost, owner, st.lost[owner] + 1))
        if owner == self.here:
            return replace(st, own=tuple(s for s in st.own if s != sq),
                           own_revealed=tuple(s for s in st.own_revealed if s != sq))
        other = st.other
        return replace(st, other=replace(other, alive=other.alive - 1,
                                         revealed=tuple(s for s in other.revealed if s != sq)))

    def _exchange(self, st: HalfState, c: int, card: str, events: list[Event]) -> HalfState:
        st = replace(st, pos=pass_card(st.pos, c, card), card=None)
        if lantern_due(st.lanterns, st.ply, self.ninja_count, st.lost, c):
            return replace(st, phase="lantern")
        return self._end_turn(st, events)

    def _end_turn(self, st: HalfState, events: list[Event]) -> HalfState:
        mover = st.pos.turn
        turn = close_turn(mover, st.full, st.public, st.result, events)
        st = replace(st, log=st.log + (turn,), ply=st.ply + 1, full=(), public=(), card=None)
        if st.result is not None:
            return replace(st, phase="over")
        nxt = 1 - mover
        st = replace(st, pos=replace(st.pos, turn=nxt), phase="move")
        # A revealed Ninja goes back behind its owner's screen as the owner's turn begins.
        if nxt == self.here:
            return replace(st, own_revealed=())
        return replace(st, other=replace(st.other, revealed=()))

    def _winner(self, st: HalfState) -> Result | None:
        shadow = None if self.light is None else 1 - self.light
        out = shadow is not None and st.placed[shadow] and not self.alive(st, shadow)
        return winner(st.pos, self.light, out)

    # -- why not, and views ----------------------------------------------------------------

    def _why(self, st: HalfState, seat: str, action: Action) -> str | tuple[str, None]:
        if st.phase == "answer":
            return f"{seat} answers whether a Ninja is there"
        if COLORS.index(seat) != self.here:
            return f"not a step {seat} can make now"
        if isinstance(action, Move) and not action.is_pass and action.to_sq in st.own:
            return f"{seat}'s own Ninja stands on {square_name(action.to_sq)}", None
        return f"{action_text(action)} is not a legal step now ({st.phase})"

    def _view(self, st: HalfState, seat: str | None) -> JsonObject:
        ninjas = {}
        for c in (RED, BLUE):
            if self.mode == LIGHT and c == self.light:
                continue
            shown = st.own_revealed if c == self.here else st.other.revealed
            ninjas[COLORS[c]] = {"alive": self.ninja_count - st.lost[c], "captured": st.lost[c],
                                 "revealed": [square_name(s) for s in shown]}
        out: JsonObject = {
            "position": str(st.pos), "turn": COLORS[st.pos.turn],
            "phase": "over" if st.result is not None else st.phase, "card": st.card,
            "first_turn": st.ply == 0, "ninjas": ninjas,
            "lanterns": {COLORS[k]: st.lanterns[k] for k in (RED, BLUE)},
            "searches": [a.as_dict() for a in st.answers],
        }
        if self.light is not None:
            out["light"] = COLORS[self.light]
        if seat is not None:
            out["own_ninjas"] = [square_name(s) for s in st.own] if COLORS.index(seat) == self.here else []
        return out

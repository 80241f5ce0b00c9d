"""The steps of a turn that :class:`~.shadow_half.HalfReferee` shares between its own seat
and the other: showing, capturing and losing Ninjas, the card exchange, the end of a turn, the
winner, the reasons and the views. Each reads the other seat's Ninjas from
:class:`~.sealed_ninjas.SealedNinjas` only."""

from __future__ import annotations

from dataclasses import replace

from .actions import Action, action_text
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, NO_SQUARE, RED, TEMPLE
from .referee import Event, Result, Turn
from .results import result_sentence
from .sealed_ninjas import HalfState
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
        pos, e = st.pos, 1 - c
        victim = "master" if t == pos.master(e) else "student"
        red, blue = (pos.red, pos.blue & ~(1 << t)) if e == BLUE else (pos.red & ~(1 << t), pos.blue)
        master = victim == "master"
        pos = replace(pos, red=red, blue=blue,
                      red_master=NO_SQUARE if master and e == RED else pos.red_master,
                      blue_master=NO_SQUARE if master and e == BLUE else pos.blue_master)
        events.append(Event("ninja_capture", f"{COLORS[c]}'s Ninja captured {COLORS[e]}'s {victim} "
                            f"on {square_name(t)}", public=True,
                            data={"by": COLORS[c], "square": square_name(t), "captured": victim}))
        st = replace(st, pos=pos)
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
        pos = st.pos
        hand = tuple(pos.side[0] if h == card else h for h in pos.hands[c])
        st = replace(st, pos=replace(pos, hands=set_pair(pos.hands, c, hand), side=(card,)), card=None)
        if st.lanterns[c] and st.ply > 0 and self.ninja_count > st.lost[1 - c]:
            return replace(st, phase="lantern")
        return self._end_turn(st, events)

    def _end_turn(self, st: HalfState, events: list[Event]) -> HalfState:
        mover = st.pos.turn
        turn = Turn(COLORS[mover], " ".join(st.full), " ".join(st.public))
        events.append(Event("turn", turn.public, public=True, data={"by": turn.seat}))
        st = replace(st, log=st.log + (turn,), ply=st.ply + 1, full=(), public=(), card=None)
        if st.result is not None:
            events.append(Event("game_over", result_sentence(st.result), public=True,
                                data=st.result.as_dict()))
            return replace(st, phase="over")
        nxt = 1 - mover
        st = replace(st, pos=replace(st.pos, turn=nxt), phase="move")
        # A revealed Ninja goes back behind its owner's screen as the owner's turn begins.
        if nxt == self.here:
            return replace(st, own_revealed=())
        return replace(st, other=replace(st.other, revealed=()))

    def _winner(self, st: HalfState) -> Result | None:
        pos = st.pos
        if self.light is None:
            won = pos.winner()
            return None if won is None else Result(COLORS[won[0]], won[1])
        light, shadow = self.light, 1 - self.light
        if pos.master(light) == NO_SQUARE:
            return Result(COLORS[shadow], "stone")
        if pos.master(light) == TEMPLE[shadow]:
            return Result(COLORS[light], "stream")
        if st.placed[shadow] and not self.alive(st, shadow):
            return Result(COLORS[light], "ninjas")
        return None

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

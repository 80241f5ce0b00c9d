"""Light & Shadow: the referee of Way of the Shadow and Way of the Light.

The referee knows where every Ninja is. A Ninja is on the main board for the rules (a pawn
landing on it captures it; its own side's pieces never share its square) but is missing from
the position string and from every view but its owner's until it is revealed. Whatever a seat
does in secret (placing, stepping or not stepping a Ninja, the Shadow Master's choice of
Ninja) leaves the opponent's and the public view exactly as they would be otherwise: the
turn always walks through the same phases, auto-skipping only what public facts rule out.

A turn (``docs/rules.md``): ``move`` (the mandatory main-board move, or a pass when nothing
can move), ``ninja`` (Way of the Shadow, while the mover's Ninja lives: an optional step or
strike with the same card), the card exchange, ``lantern`` (optional, when the mover has
one and it is not the first turn of the game). In Way of the Light the Shadow Master's turn
is a single ``move`` phase: one Ninja's step, or a pass when no Ninja can move.

The state and its pure steps are in :mod:`companion.rules.shadow_state`, the reasons an action
is refused in :mod:`companion.rules.shadow_why`; this module runs the turns.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Sequence

from .actions import LANTERNS, Action, Lantern, NinjaMove, Place, Skip, Strike
from .cards import CARDS, CardTable, notation_name
from .deal import deal
from .engine import Engine
from .errors import SetupError, VariantError
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, NO_SQUARE, RED, Position, parse_position
from .referee import Event, Referee, Result, TurnLog
from .shadow_state import (LIGHT, SHADOW, ShadowState, light_lantern, lose_ninja, ninja_steps,
                           pawn_moves, reveal, set_pair)
from .shadow_steps import close_turn, lantern_due, ninja_takes, pass_card, winner
from .shadow_why import why_not
from .squares import square_name

SHADOW_BOARD = "b1B1b/5/5/5/r1R1r"
LIGHT_BOARD = ("5/5/5/5/rrRrr", "bbBbb/5/5/5/5")  # by the Light Master's colour
LANTERNS_EACH = 2


class ShadowReferee(Referee[ShadowState]):
    """``mode`` is ``shadow`` or ``light``; in Way of the Light ``light`` is the Light
    Master's colour (the Shadow Master holds the other one and has no pawns)."""

    def __init__(self, start: Position | str, mode: str = SHADOW, *, light: str = "red",
                 cards: CardTable = CARDS, seed: int | None = None):
        if mode not in (SHADOW, LIGHT):
            raise VariantError(f"unknown Light & Shadow mode {mode!r} (shadow or light)")
        if isinstance(start, str):
            start = parse_position(start, cards)
        for name in start.cards():
            card = cards[name]
            if card.is_wind_card or start.spirit != NO_SQUARE:
                raise VariantError("Light & Shadow is not combined with the Way of the Wind here")
            if card.move_only or card.capture_only:
                # "Only onto an empty square" would have to treat a hidden Ninja's square as
                # empty or not, and either answer tells the mover something.
                raise VariantError(f"{name} has conditional moves, which Light & Shadow does not use")
        self.mode = mode
        self.seed = seed              # of the deal, for the record
        # The Light Master's colour: None in Way of the Shadow (so None exactly when mode is
        # not LIGHT, which is what the type checker reads).
        self.light: int | None = COLORS.index(light) if mode == LIGHT else None
        self.ninja_count = 1 if mode == SHADOW else 2
        if self.light is not None:
            shadow = 1 - self.light
            if start.pawns(shadow):
                raise SetupError("in Way of the Light the Shadow Master has no pawns on the main board")
            if start.master(self.light) == NO_SQUARE:
                raise SetupError("the Light Master's master is missing")
            start = replace(start, turn=self.light)
        elif start.red_master == NO_SQUARE or start.blue_master == NO_SQUARE:
            raise SetupError("Way of the Shadow needs both masters on the board")
        self.engine = Engine(cards)
        self.start = start
        needs = (True, True) if self.light is None else set_pair((False, False), 1 - self.light, True)
        state = ShadowState(
            pos=start, ninjas=((), ()), revealed=((), ()), lost=(0, 0),
            lanterns=(LANTERNS_EACH, LANTERNS_EACH) if self.light is None
            else set_pair((0, 0), self.light, LANTERNS_EACH),
            phase="setup", card=None, ply=0,
            setup=(None if needs[0] else (), None if needs[1] else ()), result=None,
            full=(), public=(), log=TurnLog(), answers=())
        super().__init__(state, cards)

    @classmethod
    def deal(cls, mode: str = SHADOW, *, seed: int | None = None, sets: tuple[str, ...] = ("base",),
             light: str = "red", cards: CardTable = CARDS) -> "ShadowReferee":
        """A new game: five random cards from ``sets``; in Way of the Shadow the side card's
        stamp picks the first player, in Way of the Light the Light Master starts."""
        if mode not in (SHADOW, LIGHT):
            raise VariantError(f"unknown Light & Shadow mode {mode!r} (shadow or light)")
        d = deal("base", sets, seed=seed, cards=cards)
        board = SHADOW_BOARD if mode == SHADOW else LIGHT_BOARD[COLORS.index(light)]
        start = str(d.position).split(" ", 1)[1]
        return cls(f"{board} {start}", mode, light=light, cards=cards, seed=d.seed)

    # -- who is who ------------------------------------------------------------------------

    def has_pawns(self, c: int) -> bool:
        return self.mode == SHADOW or c == self.light

    def placements(self, c: int) -> list[Place]:
        """Where colour ``c`` may start its Ninja(s)."""
        pos = self.start
        if self.mode == SHADOW:
            m = pos.master(c)
            occupied = pos.red | pos.blue
            beside = [m + d for d in (-1, 1) if 0 <= m % 5 + d < 5 and not occupied >> (m + d) & 1]
            return [Place((sq,)) for sq in beside]
        back = range(20, 25) if c == BLUE else range(0, 5)
        return [Place(pair) for pair in combinations(back, 2)]

    # -- generation ------------------------------------------------------------------------

    def _to_act(self, st: ShadowState) -> tuple[str, ...]:
        if st.phase == "setup":
            return tuple(COLORS[c] for c in (RED, BLUE) if st.setup[c] is None)
        return (COLORS[st.pos.turn],)

    def _legal(self, st: ShadowState, seat: str) -> Sequence[Action]:
        c = COLORS.index(seat)
        if st.phase == "setup":
            return self.placements(c)
        if st.phase == "move":
            if self.has_pawns(c):
                return pawn_moves(self.engine, st, c)
            steps = [s for card in st.pos.hands[c] for s in ninja_steps(self.engine, st, c, card)]
            return steps or [Move.pass_turn(card) for card in st.pos.hands[c]]
        if st.phase == "ninja":
            assert st.card is not None, "the ninja phase follows a card played"
            steps = ninja_steps(self.engine, st, c, st.card)
            enemy = st.pos.pawns(1 - c)
            strikes = ([Strike(s.card, s.frm, s.to) for s in steps if not enemy >> s.to & 1]
                       if st.ninjas[1 - c] else [])
            return [*steps, *strikes, Skip()]
        return [*LANTERNS, Skip()]

    def _turn_card(self, st: ShadowState, seat: str) -> str | None:
        return st.card

    # -- applying --------------------------------------------------------------------------

    def _apply(self, st: ShadowState, seat: str, action: Action) -> tuple[ShadowState, list[Event]]:
        c = COLORS.index(seat)
        events: list[Event] = []
        if isinstance(action, Place):
            st = replace(st, setup=set_pair(st.setup, c, action.squares),
                         ninjas=set_pair(st.ninjas, c, action.squares))
            events.append(Event("placed", f"{seat} has placed their Ninja"
                                + ("s" if len(action.squares) > 1 else ""), public=True))
            if all(s is not None for s in st.setup):
                st = replace(st, phase="move")
            return st, events
        if isinstance(action, Move):
            st = self._main(st, c, action, events)
            if st.result is None and not self.has_pawns(c):
                st = self._exchange(st, c, action.card, events)   # the Shadow Master's pass
            elif st.result is None and self.mode == SHADOW and st.ninjas[c]:
                st = replace(st, phase="ninja", card=action.card)
            elif st.result is None:
                st = self._exchange(st, c, action.card, events)
        elif isinstance(action, (NinjaMove, Strike)):
            st = self._ninja(st, c, action, events)
            if st.result is None:
                st = self._exchange(st, c, action.card, events)
        elif isinstance(action, Lantern):
            st = light_lantern(st, c, action, events)
            st = self._end_turn(st, events)
        elif st.phase == "ninja":        # Skip: the Ninja stays put
            assert st.card is not None, "the ninja phase follows a card played"
            st = self._exchange(st, c, st.card, events)
        else:                            # Skip: no Lantern this turn
            st = self._end_turn(st, events)
        if st.result is not None:
            st = self._end_turn(st, events)
        return st, events

    def _main(self, st: ShadowState, c: int, mv: Move, events: list[Event]) -> ShadowState:
        """The mandatory step: a pawn move, or a pass (the Shadow Master's pass in Way of the
        Light keeps its card public but not whether a Ninja could move)."""
        if mv.is_pass:
            public = str(mv) if self.has_pawns(c) else f"{notation_name(mv.card)} N?"
            return replace(st, full=(str(mv),), public=(public,))
        pos, e = st.pos, 1 - c
        f, t = mv.from_sq, mv.to_sq
        assert f is not None and t is not None, "a pawn move that is not a pass has both squares"
        tb = 1 << t
        own = pos.pawns(c) ^ (1 << f) ^ tb
        opp = pos.pawns(e) & ~tb
        masters = [pos.red_master, pos.blue_master]
        if masters[c] == f:
            masters[c] = t
        if masters[e] == t:
            masters[e] = NO_SQUARE
        red, blue = (own, opp) if c == RED else (opp, own)
        st = replace(st, pos=replace(pos, red=red, blue=blue, red_master=masters[0],
                                     blue_master=masters[1]),
                     full=(str(mv),), public=(str(mv),))
        if t in st.ninjas[e]:
            st = lose_ninja(st, e, t)
            st = replace(st, full=st.full + ("xN",), public=st.public + ("xN",))
            events.append(Event("ninja_captured", f"{COLORS[c]} captured {COLORS[e]}'s Ninja on "
                                f"{square_name(t)}", public=True,
                                data={"owner": COLORS[e], "square": square_name(t), "by": "pawn"}))
        return replace(st, result=self._winner(st))

    def _ninja(self, st: ShadowState, c: int, step: NinjaMove | Strike,
               events: list[Event]) -> ShadowState:
        e, f, t = 1 - c, step.frm, step.to
        seat = COLORS[c]
        ninjas = tuple(sorted(t if s == f else s for s in st.ninjas[c]))
        st = replace(st, ninjas=set_pair(st.ninjas, c, ninjas))
        head = (f"{notation_name(step.card)} " if st.phase == "move" else "")
        full = f"{head}{'S' if isinstance(step, Strike) else 'N'}{square_name(f)}{square_name(t)}"
        pos = st.pos
        if isinstance(step, Strike):
            hit = t in st.ninjas[e]
            if hit:
                st = lose_ninja(st, e, t)
            mark = "+" if hit else "-"
            events.append(Event("strike", f"{seat}'s Ninja strikes at {square_name(t)}: "
                                + ("a hit" if hit else "a miss"), public=True,
                                data={"by": seat, "square": square_name(t), "hit": hit}))
            st = reveal(st, c, t)
            return replace(st, full=st.full + (full + mark,),
                           public=st.public + (f"S?{square_name(t)}{mark}",))
        if pos.pawns(e) >> t & 1:
            st = reveal(replace(st, pos=ninja_takes(pos, c, t, events)), c, t)
            st = replace(st, result=self._winner(st))
            public: str | None = f"{head}N?{square_name(t)}"
        else:
            public = f"{notation_name(step.card)} N?" if st.phase == "move" else None
        return replace(st, full=st.full + (full,),
                       public=st.public + ((public,) if public else ()))

    def _exchange(self, st: ShadowState, c: int, card: str, events: list[Event]) -> ShadowState:
        """The card played goes beside the mat and the side card joins the hand; then the
        Lantern step, unless public facts rule it out: no Lantern left, the first turn of the
        game, or no enemy Ninja left to find (how many live is public)."""
        st = replace(st, pos=pass_card(st.pos, c, card), card=None)
        if lantern_due(st.lanterns, st.ply, self.ninja_count, st.lost, c):
            return replace(st, phase="lantern")
        return self._end_turn(st, events)

    def _end_turn(self, st: ShadowState, events: list[Event]) -> ShadowState:
        mover = st.pos.turn
        turn = close_turn(mover, st.full, st.public, st.result, events)
        st = replace(st, log=st.log + (turn,), ply=st.ply + 1, full=(), public=(), card=None)
        if st.result is not None:
            return st
        nxt = 1 - mover
        # A revealed Ninja goes back behind its owner's screen as the owner's turn begins.
        return replace(st, pos=replace(st.pos, turn=nxt), phase="move",
                       revealed=set_pair(st.revealed, nxt, ()))

    def _winner(self, st: ShadowState) -> Result | None:
        shadow = None if self.light is None else 1 - self.light
        out = shadow is not None and not st.ninjas[shadow] and st.setup[shadow] is not None
        return winner(st.pos, self.light, out)

    # -- why not ---------------------------------------------------------------------------

    def _why(self, st: ShadowState, seat: str, action: Action) -> str | tuple[str, None]:
        return why_not(self, st, seat, action)

    # -- views -----------------------------------------------------------------------------

    def _view(self, st: ShadowState, seat: str | None) -> JsonObject:
        c = None if seat is None else COLORS.index(seat)
        ninjas = {}
        for color in (RED, BLUE):
            if self.mode == LIGHT and color == self.light:
                continue
            ninjas[COLORS[color]] = {"alive": self.ninja_count - st.lost[color],
                                     "captured": st.lost[color],
                                     "revealed": [square_name(s) for s in st.revealed[color]]}
        out: JsonObject = {
            "position": str(st.pos),
            "turn": COLORS[st.pos.turn],
            "phase": "over" if st.result is not None else st.phase,
            "card": st.card,
            "first_turn": st.ply == 0,
            "ninjas": ninjas,
            "lanterns": {COLORS[k]: st.lanterns[k] for k in (RED, BLUE)},
            "searches": [a.as_dict() for a in st.answers],
        }
        if self.light is not None:
            out["light"] = COLORS[self.light]
        if c is not None:
            out["own_ninjas"] = [square_name(s) for s in st.ninjas[c]]
        if st.result is not None:
            # The game is over: the screens come down.
            out["all_ninjas"] = {COLORS[k]: [square_name(s) for s in st.ninjas[k]] for k in (RED, BLUE)}
        return out

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
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Iterable, Iterator, Sequence, TypeVar

from .actions import (LANTERNS, Action, Lantern, NinjaMove, Place, Skip, Strike,
                      action_text)
from .cards import CARDS, CardTable, notation_name
from .deal import deal
from .engine import Engine
from .errors import SetupError, VariantError
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, NO_SQUARE, RED, TEMPLE, Position, parse_position
from .referee import Event, Referee, Result, Turn, TurnLog
from .results import result_sentence
from .squares import square_name

SHADOW, LIGHT = "shadow", "light"
SHADOW_BOARD = "b1B1b/5/5/5/r1R1r"
LIGHT_BOARD = ("5/5/5/5/rrRrr", "bbBbb/5/5/5/5")  # by the Light Master's colour
LANTERNS_EACH = 2


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


def _set(pair: tuple[T, T], i: int, value: T) -> tuple[T, T]:
    return (value, pair[1]) if i == 0 else (pair[0], value)


def _bits(squares: Iterable[int]) -> int:
    return sum(1 << s for s in squares)


def _squares(bits: int) -> Iterator[int]:
    while bits:
        b = bits & -bits
        yield b.bit_length() - 1
        bits ^= b


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
        needs = (True, True) if self.light is None else _set((False, False), 1 - self.light, True)
        state = ShadowState(
            pos=start, ninjas=((), ()), revealed=((), ()), lost=(0, 0),
            lanterns=(LANTERNS_EACH, LANTERNS_EACH) if self.light is None
            else _set((0, 0), self.light, LANTERNS_EACH),
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

    def _has_pawns(self, c: int) -> bool:
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

    def _pawn_moves(self, st: ShadowState, c: int) -> Sequence[Move]:
        pos = st.pos
        own, master = pos.pawns(c), pos.master(c)
        blocked = own | _bits(st.ninjas[c])
        out = []
        for card in pos.hands[c]:
            cm = self.engine.table(card)[c]
            for f in _squares(own):
                for t, tb in (cm.master[f] if f == master else cm.student[f]):
                    if not blocked & tb:
                        out.append(Move(card, f, t))
        return out or [Move.pass_turn(card) for card in pos.hands[c]]

    def _ninja_steps(self, st: ShadowState, c: int, card: str) -> list[NinjaMove]:
        """A Ninja moves by the card's student pattern, never onto its own side's pieces."""
        cm = self.engine.table(card)[c]
        blocked = st.pos.pawns(c) | _bits(st.ninjas[c])
        return [NinjaMove(card, f, t) for f in st.ninjas[c] for t, tb in cm.student[f]
                if not blocked & tb]

    def _to_act(self, st: ShadowState) -> tuple[str, ...]:
        if st.phase == "setup":
            return tuple(COLORS[c] for c in (RED, BLUE) if st.setup[c] is None)
        return (COLORS[st.pos.turn],)

    def _legal(self, st: ShadowState, seat: str) -> Sequence[Action]:
        c = COLORS.index(seat)
        if st.phase == "setup":
            return self.placements(c)
        if st.phase == "move":
            if self._has_pawns(c):
                return self._pawn_moves(st, c)
            steps = [s for card in st.pos.hands[c] for s in self._ninja_steps(st, c, card)]
            return steps or [Move.pass_turn(card) for card in st.pos.hands[c]]
        if st.phase == "ninja":
            assert st.card is not None, "the ninja phase follows a card played"
            steps = self._ninja_steps(st, c, st.card)
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
            st = replace(st, setup=_set(st.setup, c, action.squares),
                         ninjas=_set(st.ninjas, c, action.squares))
            events.append(Event("placed", f"{seat} has placed their Ninja"
                                + ("s" if len(action.squares) > 1 else ""), public=True))
            if all(s is not None for s in st.setup):
                st = replace(st, phase="move")
            return st, events
        if isinstance(action, Move):
            st = self._main(st, c, action, events)
            if st.result is None and not self._has_pawns(c):
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
            st = self._lantern(st, c, action, events)
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
            public = str(mv) if self._has_pawns(c) else f"{notation_name(mv.card)} N?"
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
            st = self._lose_ninja(st, e, t)
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
        st = replace(st, ninjas=_set(st.ninjas, c, ninjas))
        head = (f"{step.card} " if st.phase == "move" else "")
        full = f"{head}{'S' if isinstance(step, Strike) else 'N'}{square_name(f)}{square_name(t)}"
        pos = st.pos
        if isinstance(step, Strike):
            hit = t in st.ninjas[e]
            if hit:
                st = self._lose_ninja(st, e, t)
            mark = "+" if hit else "-"
            events.append(Event("strike", f"{seat}'s Ninja strikes at {square_name(t)}: "
                                + ("a hit" if hit else "a miss"), public=True,
                                data={"by": seat, "square": square_name(t), "hit": hit}))
            st = self._reveal(st, c, t)
            return replace(st, full=st.full + (full + mark,),
                           public=st.public + (f"S?{square_name(t)}{mark}",))
        if pos.pawns(e) >> t & 1:
            victim = "master" if t == pos.master(e) else "student"
            red, blue = (pos.red, pos.blue & ~(1 << t)) if e == BLUE else (pos.red & ~(1 << t), pos.blue)
            lost_master = victim == "master"
            pos = replace(pos, red=red, blue=blue,
                          red_master=NO_SQUARE if lost_master and e == RED else pos.red_master,
                          blue_master=NO_SQUARE if lost_master and e == BLUE else pos.blue_master)
            events.append(Event("ninja_capture", f"{seat}'s Ninja captured {COLORS[e]}'s {victim} "
                                f"on {square_name(t)}", public=True,
                                data={"by": seat, "square": square_name(t), "captured": victim}))
            st = self._reveal(replace(st, pos=pos), c, t)
            st = replace(st, result=self._winner(st))
            public: str | None = f"{head}N?{square_name(t)}"
        else:
            public = f"{step.card} N?" if st.phase == "move" else None
        return replace(st, full=st.full + (full,),
                       public=st.public + ((public,) if public else ()))

    def _lantern(self, st: ShadowState, c: int, lantern: Lantern, events: list[Event]) -> ShadowState:
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
        return replace(st, lanterns=_set(st.lanterns, c, st.lanterns[c] - 1),
                       answers=st.answers + (LanternAnswer(st.ply, seat, lantern, answer),),
                       full=st.full + (said,), public=st.public + (said,))

    def _lose_ninja(self, st: ShadowState, e: int, sq: int) -> ShadowState:
        return replace(st, ninjas=_set(st.ninjas, e, tuple(s for s in st.ninjas[e] if s != sq)),
                       revealed=_set(st.revealed, e, tuple(s for s in st.revealed[e] if s != sq)),
                       lost=_set(st.lost, e, st.lost[e] + 1))

    def _reveal(self, st: ShadowState, c: int, sq: int) -> ShadowState:
        return replace(st, revealed=_set(st.revealed, c, tuple(sorted({*st.revealed[c], sq}))))

    def _exchange(self, st: ShadowState, c: int, card: str, events: list[Event]) -> ShadowState:
        """The card played goes beside the mat and the side card joins the hand; then the
        Lantern step, unless public facts rule it out: no Lantern left, the first turn of the
        game, or no enemy Ninja left to find (how many live is public)."""
        pos = st.pos
        hand = tuple(pos.side[0] if h == card else h for h in pos.hands[c])
        st = replace(st, pos=replace(pos, hands=_set(pos.hands, c, hand), side=(card,)), card=None)
        if st.lanterns[c] and st.ply > 0 and self.ninja_count > st.lost[1 - c]:
            return replace(st, phase="lantern")
        return self._end_turn(st, events)

    def _end_turn(self, st: ShadowState, events: list[Event]) -> ShadowState:
        mover = st.pos.turn
        turn = Turn(COLORS[mover], " ".join(st.full), " ".join(st.public))
        events.append(Event("turn", turn.public, public=True, data={"by": turn.seat}))
        st = replace(st, log=st.log + (turn,), ply=st.ply + 1, full=(), public=(), card=None)
        if st.result is not None:
            events.append(Event("game_over", result_sentence(st.result), public=True,
                                data=st.result.as_dict()))
            return st
        nxt = 1 - mover
        # A revealed Ninja goes back behind its owner's screen as the owner's turn begins.
        return replace(st, pos=replace(st.pos, turn=nxt), phase="move",
                       revealed=_set(st.revealed, nxt, ()))

    def _winner(self, st: ShadowState) -> Result | None:
        pos = st.pos
        if self.light is None:       # Way of the Shadow
            won = pos.winner()
            return None if won is None else Result(COLORS[won[0]], won[1])
        light, shadow = self.light, 1 - self.light
        if pos.master(light) == NO_SQUARE:
            return Result(COLORS[shadow], "stone")
        if pos.master(light) == TEMPLE[shadow]:
            return Result(COLORS[light], "stream")
        if not st.ninjas[shadow] and st.setup[shadow] is not None:
            return Result(COLORS[light], "ninjas")
        return None

    # -- why not ---------------------------------------------------------------------------

    def _why(self, st: ShadowState, seat: str, action: Action) -> str | tuple[str, None]:
        c = COLORS.index(seat)
        phase = st.phase
        if isinstance(action, Place):
            if phase != "setup":
                return "the Ninjas were placed at set-up"
            where = ", ".join(action_text(p) for p in self.placements(c))
            return f"{seat} places {'its Ninja' if self.mode == SHADOW else 'both Ninjas'}: {where}"
        if phase == "setup":
            return f"{seat} must place {'its Ninja' if self.mode == SHADOW else 'its Ninjas'} first"
        if isinstance(action, Move):
            if phase != "move":
                return f"the main-board move is made; now the {phase} step"
            if not self._has_pawns(c):
                return "the Shadow Master has no pawns: move a Ninja (e.g. 'Tiger Nb5b4')"
            if action.card not in st.pos.hands[c]:
                return f"{action.card} is not in {seat}'s hand"
            if action.is_pass:
                return f"{seat} has a legal move on the main board and must make it"
            if action.to_sq in st.ninjas[c]:
                # Only the mover knows its Ninja is there: the others are told nothing, and to
                # them the move is still being made.
                return f"{seat}'s own Ninja stands on {square_name(action.to_sq)}", None
            if action.from_sq is not None and not st.pos.pawns(c) >> action.from_sq & 1:
                return f"{seat} has no pawn on {square_name(action.from_sq)}"
            return f"{action.card} does not take that pawn there (or {seat}'s own pawn is there)"
        if isinstance(action, (NinjaMove, Strike)):
            if self.mode == LIGHT and c == self.light:
                return "the Light Master has no Ninja"
            if phase == "move" and self._has_pawns(c):
                return "the Ninja steps after the main-board move (or after a pass)"
            if phase == "lantern":
                return "the Ninja steps before the card exchange; this is the Lantern step"
            if not st.ninjas[c]:
                return f"{seat} has no Ninja left"
            if phase == "ninja" and action.card != st.card:
                return f"the Ninja moves with this turn's card, {st.card}"
            if action.card not in st.pos.hands[c]:
                return f"{action.card} is not in {seat}'s hand"
            if isinstance(action, Strike) and self.mode == LIGHT:
                return "in Way of the Light there is no enemy Ninja to strike at"
            if action.frm not in st.ninjas[c]:
                return f"{seat} has no Ninja on {square_name(action.frm)}"
            if isinstance(action, Strike):
                if not st.ninjas[1 - c]:
                    return f"{COLORS[1 - c]} has no Ninja left to strike at"
                if st.pos.pawns(1 - c) >> action.to & 1:
                    return (f"a strike lands on a square without pawns; to capture the pawn on "
                            f"{square_name(action.to)}, step there (N{square_name(action.frm)}"
                            f"{square_name(action.to)})")
            if (st.pos.pawns(c) | _bits(st.ninjas[c])) >> action.to & 1:
                return f"{square_name(action.to)} holds {seat}'s own piece"
            return f"{action.card} does not move a Ninja from {square_name(action.frm)} to {square_name(action.to)}"
        if isinstance(action, Lantern):
            if phase != "lantern":
                return "a Lantern is used at the end of the turn, after the card exchange"
            return "not a line of the board"
        if phase == "move":
            return "the main-board move is mandatory (pass only when nothing can move)"
        return "not allowed now"

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

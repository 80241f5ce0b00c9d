"""One table's referee of a Light & Shadow game played across two tables (docs/tables.md).

:class:`HalfReferee` runs the turns of ``companion.rules.shadow`` for the table that plays
``here``: it knows that seat's Ninjas and, of the other seat's, only
:class:`~.sealed_ninjas.SealedNinjas`. The turn walks through the same phases as the whole
game's referee, plus one: where the rules need the truth about a seat's Ninjas (a pawn lands
on a square that may hold one, a strike, a Lantern), the turn waits in the ``answer`` phase
for the Ninjas' owner, whose table plays :meth:`HalfReferee.answer`. Whether a question is
asked rests on public facts only, so the questions say nothing either.

Each of this table's actions with a hidden part goes out as its public form and a commitment
(``rows``); :meth:`HalfReferee.openings` opens them all once the game is over, and
``companion.link.audit.audit_rows`` checks the other table's. Both tables' referees, fed
the same rows, log the same public turns as ``ShadowReferee`` would.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from .actions import LANTERNS, Action, Lantern, NinjaMove, Place, Skip, Strike, action_text
from .cards import notation_name
from .errors import OnitamaError, VariantError
from .half_turns import HalfTurns
from .moves import Move
from .position import BLUE, COLORS, NO_SQUARE, RED
from .referee import Event, TurnLog
from .sealed_ninjas import (Answer, HalfState, Hidden, Question, SealedNinjas, Step, commitment,
                            parse_step)
from .shadow import ShadowReferee
from .shadow_state import SHADOW, LanternAnswer, ShadowState, ninja_steps, pawn_moves, set_pair
from .squares import square_name
from .table_half import TableHalf


class HalfReferee(HalfTurns, TableHalf[HalfState]):
    """``whole``: the game as dealt (its start, way and cards); ``here``: this table's seat;
    ``game``: the game's name on the broker; ``salts``: action number -> its salt (a table's
    own: :func:`~.sealed_ninjas.table_salts`; an audit's: the openings')."""

    row_kinds = (Hidden, Answer)

    def __init__(self, whole: ShadowReferee, here: str, game: str, salts: Callable[[int], str]):
        if here not in COLORS:
            raise VariantError(f"{here!r} is not a seat")
        self.mode, self.start, self.seed, self.light = whole.mode, whole.start, whole.seed, whole.light
        self.whole = whole.copy()             # its placements and card rules, never its state
        self.here, self.there = COLORS.index(here), 1 - COLORS.index(here)
        self.game, self._salts = game, salts
        self.ninja_count = whole.ninja_count
        st = whole.state
        placed = (st.setup[RED] is not None, st.setup[BLUE] is not None)
        state = HalfState(pos=st.pos, own=(), own_revealed=(),
                          other=SealedNinjas(0 if placed[self.there] else self.ninja_count),
                          lost=(0, 0), lanterns=st.lanterns, phase="setup", card=None, ply=0,
                          placed=placed, result=None, full=(), public=(), log=TurnLog(),
                          answers=(), question=None, rows=(), opened=())
        super().__init__(state, whole.cards)

    # -- who knows what --------------------------------------------------------------------

    def has_pawns(self, c: int) -> bool:
        return self.mode == SHADOW or c == self.light

    def answer(self) -> str | None:
        """The answer this table owes now (its seat's Ninjas are asked about), else None."""
        st = self._state
        if st.phase != "answer" or st.result is not None or st.pos.turn == self.here:
            return None
        return self._truth(st).text()

    def openings(self) -> dict[str, tuple[str, str]]:
        """Every commitment of this table, opened (action number -> text, salt): once the
        game is over."""
        if self._state.result is None:
            raise VariantError("the commitments are opened when the game ends")
        return {str(n): (text, s) for n, text, s in self._state.opened}

    def table_row(self, text: str) -> Action | None:
        """A hidden step's public form or an answer: this table's answers and the other
        table's hidden steps are played from their rows, never chosen on a phone."""
        try:
            step = parse_step(text, None, self.cards)
        except OnitamaError:
            return None
        return step if isinstance(step, self.row_kinds) else None  # type: ignore[return-value]

    def _turn_card(self, st: HalfState, seat: str) -> str | None:
        return st.card

    def parse(self, seat: str, text: str) -> Action:
        step: Step = parse_step(text, self._state.card, self.cards)
        return step  # type: ignore[return-value]     # Referee.act takes this mode's steps

    # -- generation ------------------------------------------------------------------------

    def _to_act(self, st: HalfState) -> tuple[str, ...]:
        if st.phase == "setup":
            # One after the other, Red first: each table's row comes in one order at both.
            return (COLORS[next(c for c in (RED, BLUE) if not st.placed[c])],)
        if st.phase == "answer":
            return (COLORS[1 - st.pos.turn],)
        return (COLORS[st.pos.turn],)

    def _legal(self, st: HalfState, seat: str) -> Sequence[Action]:
        c = COLORS.index(seat)
        if st.phase == "answer":
            out: list[Step] = [self._truth(st)] if c == self.here else [Answer(True), Answer(False)]
        elif c == self.here:
            out = list(self._own_legal(st, c))
        else:
            out = self._their_legal(st, c)
        return out  # type: ignore[return-value]

    def _shadow_state(self, st: HalfState, c: int) -> ShadowState:
        """The whole game's state as far as colour ``c``'s own moves need it: its Ninjas only."""
        own = st.own if c == self.here else ()
        return ShadowState(pos=st.pos, ninjas=set_pair(((), ()), c, own), revealed=((), ()),
                           lost=st.lost, lanterns=st.lanterns, phase=st.phase, card=st.card,
                           ply=st.ply, setup=((), ()), result=None, full=(), public=(),
                           log=TurnLog(), answers=())

    def _own_legal(self, st: HalfState, c: int) -> Sequence[Action]:
        if st.phase == "setup":
            return self.whole.placements(c)
        whole = self._shadow_state(st, c)
        if st.phase == "move":
            if self.has_pawns(c):
                return pawn_moves(self.whole.engine, whole, c)
            steps = [s for card in st.pos.hands[c] for s in ninja_steps(self.whole.engine, whole, c, card)]
            return steps or [Move.pass_turn(card) for card in st.pos.hands[c]]
        if st.phase == "ninja":
            assert st.card is not None, "the ninja phase follows a card played"
            steps = ninja_steps(self.whole.engine, whole, c, st.card)
            pawns = st.pos.red | st.pos.blue
            strikes = ([Strike(s.card, s.frm, s.to) for s in steps if not pawns >> s.to & 1]
                       if st.other.alive else [])
            return [*steps, *strikes, Skip()]
        return [*LANTERNS, Skip()]

    def _their_legal(self, st: HalfState, c: int) -> list[Step]:
        """The other seat's steps as far as public facts allow: its hidden Ninjas are checked
        at the game's end."""
        mine = sorted(_squares(st.pos.pawns(1 - c)))
        if st.phase == "setup":
            return [Hidden("setup")]
        if st.phase == "move" and self.has_pawns(c):
            return list(pawn_moves(self.whole.engine, self._shadow_state(st, c), c))
        if st.phase == "move":
            return [Hidden("shadow", card, sq) for card in st.pos.hands[c] for sq in (None, *mine)]
        if st.phase == "ninja":
            empty = [sq for sq in range(25) if not (st.pos.red | st.pos.blue) >> sq & 1]
            strikes = [Hidden("strike", None, sq) for sq in empty] if len(st.own) else []
            return [Hidden("ninja"), *(Hidden("capture", None, sq) for sq in mine), *strikes]
        return [*LANTERNS, Skip()]

    def _truth(self, st: HalfState) -> Answer:
        q = st.question
        assert q is not None, "an answer follows a question"
        if q.lantern is not None:
            return Answer(bool(q.lantern.squares() & set(st.own)))
        return Answer(q.square in st.own)

    # -- applying --------------------------------------------------------------------------

    def _apply(self, st: HalfState, seat: str, action: Action) -> tuple[HalfState, list[Event]]:
        c = COLORS.index(seat)
        step: Step = action
        st, step = self._travel(st, c, step)
        events: list[Event] = []
        if isinstance(step, Answer):
            st = self._answered(st, step.yes, events)
        elif isinstance(step, Place):
            st = replace(st, own=step.squares)
            st = self._placed(st, c, events)
        elif isinstance(step, Hidden) and step.kind == "setup":
            st = self._placed(replace(st, other=replace(st.other, alive=self.ninja_count)), c, events)
        elif isinstance(step, Lantern):
            st = replace(st, question=Question("lantern", None, step, action_text(step)), phase="answer")
        elif isinstance(step, Skip) and st.phase == "lantern":
            st = self._end_turn(st, events)
        elif isinstance(step, Move) and self.has_pawns(c):
            st = self._pawn(st, c, step, events)
        else:
            st = self._ninja(st, c, step, events)
        if st.result is not None and st.phase != "over":
            st = self._end_turn(st, events)
        return st, events

    def _travel(self, st: HalfState, c: int, step: Step) -> tuple[HalfState, Step]:
        """The row this step travels as: this table's hidden steps are committed to here, and
        the other table's commitments kept."""
        n, seat = len(st.rows), COLORS[c]
        hidden = c == self.here and (st.phase in ("setup", "ninja")
                                     or (st.phase == "move" and not self.has_pawns(c)))
        if not hidden:
            if isinstance(step, Hidden):
                other = st.other
                st = replace(st, other=replace(other, commitments=other.commitments + ((n, step.digest),)))
            return replace(st, rows=st.rows + ((seat, row_text(step, st)),)), step
        full = row_text(step, st)
        s = self._salts(n)
        public = self._public_form(st, c, step, commitment(self.game, seat, str(n), full, s))
        return replace(st, rows=st.rows + ((seat, public.text()),),
                       opened=st.opened + ((n, full, s),)), step

    def _public_form(self, st: HalfState, c: int, step: Step, digest: str) -> Hidden:
        if st.phase == "setup":
            return Hidden("setup", digest=digest)
        enemy = st.pos.pawns(1 - c)
        to = step.to if isinstance(step, (NinjaMove, Strike)) else None
        if st.phase == "move":
            assert isinstance(step, (Move, NinjaMove)), "the Shadow Master steps or passes"
            took = to if to is not None and enemy >> to & 1 else None
            return Hidden("shadow", step.card, took, digest)
        if isinstance(step, Strike):
            return Hidden("strike", None, step.to, digest)
        if to is not None and enemy >> to & 1:
            return Hidden("capture", None, to, digest)
        return Hidden("ninja", digest=digest)

    def _placed(self, st: HalfState, c: int, events: list[Event]) -> HalfState:
        st = replace(st, placed=set_pair(st.placed, c, True))
        events.append(Event("placed", f"{COLORS[c]} has placed their Ninja"
                            + ("s" if self.ninja_count > 1 else ""), public=True))
        return replace(st, phase="move") if all(st.placed) else st

    def _pawn(self, st: HalfState, c: int, mv: Move, events: list[Event]) -> HalfState:
        """A seat with pawns makes its main-board move; one onto a square that may hold an
        enemy Ninja (not an enemy pawn's, while one lives) asks its owner."""
        st = replace(st, full=(str(mv),), public=(str(mv),))
        if mv.is_pass:
            return self._after_move(st, c, mv.card, events)
        pos, e = st.pos, 1 - c
        f, t = mv.from_sq, mv.to_sq
        assert f is not None and t is not None, "a pawn move that is not a pass has both squares"
        ask = self.alive(st, e) > 0 and not pos.pawns(e) >> t & 1
        tb = 1 << t
        own, opp = pos.pawns(c) ^ (1 << f) ^ tb, pos.pawns(e) & ~tb
        masters = [pos.red_master, pos.blue_master]
        masters[c] = t if masters[c] == f else masters[c]
        masters[e] = NO_SQUARE if masters[e] == t else masters[e]
        red, blue = (own, opp) if c == RED else (opp, own)
        st = replace(st, pos=replace(pos, red=red, blue=blue, red_master=masters[0],
                                     blue_master=masters[1]), card=mv.card)
        if ask:
            return replace(st, phase="answer", question=Question("land", t, None, str(mv)))
        return self._after_move(st, c, mv.card, events)

    def _after_move(self, st: HalfState, c: int, card: str, events: list[Event]) -> HalfState:
        st = replace(st, result=self._winner(st), question=None, phase="move")
        if st.result is None and self.mode == SHADOW and self.alive(st, c):
            return replace(st, phase="ninja", card=card)
        if st.result is None:
            return self._exchange(st, c, card, events)
        return st

    def _ninja(self, st: HalfState, c: int, step: Step, events: list[Event]) -> HalfState:
        """A step with a hidden part: this table's own (it knows all of it) or the other's
        (only its public form). The whole game's referee logs the same public text."""
        card = st.card
        if st.phase == "move":          # Way of the Light: the Shadow Master's step or pass
            assert isinstance(step, (Move, NinjaMove, Hidden)), "the Shadow Master steps or passes"
            card = step.card
        mine = c == self.here
        form = self._public_form(st, c, step, "") if mine else step
        assert isinstance(form, Hidden) and card is not None, "a hidden step has a public form"
        full = row_text(step, st) if mine else form.public()
        if isinstance(step, (NinjaMove, Strike)):
            st = replace(st, own=tuple(sorted(step.to if s == step.frm else s for s in st.own)))
        if form.kind == "strike":
            assert form.square is not None, "a strike names its square"
            st = self._show(st, c, form.square)
            return replace(st, phase="answer", question=Question("strike", form.square, None, full))
        if form.square is not None:      # a capture of a pawn: public, and the Ninja shows
            st = self._take_pawn(self._show(st, c, form.square), c, form.square, events)
        said = form.public()
        full = "" if isinstance(step, Skip) else full
        st = replace(st, full=st.full + ((full,) if full else ()),
                     public=st.public + ((said,) if said else ()))
        return self._exchange(st, c, card, events) if st.result is None else st

    def _answered(self, st: HalfState, yes: bool, events: list[Event]) -> HalfState:
        q, c = st.question, st.pos.turn
        assert q is not None, "an answer follows a question"
        e, seat, owner = 1 - c, COLORS[c], COLORS[1 - c]
        st = replace(st, question=None)
        if q.kind == "lantern":
            assert q.lantern is not None
            events.append(Event("lantern", f"{seat} searches {q.lantern} with a Lantern", public=True,
                                data={"by": seat, "line": str(q.lantern)}))
            events.append(Event("lantern_answer", f"{owner} answers {'yes' if yes else 'no'} for "
                                f"{q.lantern}", public=True,
                                data={"by": seat, "line": str(q.lantern), "answer": yes}))
            said = q.text + ("+" if yes else "-")
            st = replace(st, lanterns=set_pair(st.lanterns, c, st.lanterns[c] - 1),
                         answers=st.answers + (LanternAnswer(st.ply, seat, q.lantern, yes),),
                         full=st.full + (said,), public=st.public + (said,))
            return self._end_turn(st, events)
        assert q.square is not None
        where = square_name(q.square)
        if yes:
            st = self._lose(st, e, q.square)
        if q.kind == "land":
            if yes:
                st = replace(st, full=st.full + ("xN",), public=st.public + ("xN",))
                events.append(Event("ninja_captured", f"{seat} captured {owner}'s Ninja on {where}",
                                    public=True, data={"owner": owner, "square": where, "by": "pawn"}))
            assert st.card is not None
            return self._after_move(st, c, st.card, events)
        mark = "+" if yes else "-"
        events.append(Event("strike", f"{seat}'s Ninja strikes at {where}: "
                            + ("a hit" if yes else "a miss"), public=True,
                            data={"by": seat, "square": where, "hit": yes}))
        st = replace(st, phase="ninja", full=st.full + (q.text + mark,),
                     public=st.public + (f"S?{where}{mark}",))
        assert st.card is not None
        return self._exchange(st, c, st.card, events)

def row_text(step: Step, st: HalfState) -> str:
    """An action's text: as it travels, and for this table's own as the whole game's
    referee logs it."""
    if isinstance(step, NinjaMove) and st.phase == "move":
        return f"{notation_name(step.card)} {action_text(step)}"
    if isinstance(step, (Answer, Hidden)):
        return step.text()
    return action_text(step)


def _squares(mask: int) -> list[int]:
    return [sq for sq in range(25) if mask >> sq & 1]


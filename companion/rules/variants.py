"""Referees of the open-information games and the fan variants (the list of the ways of
playing, and how each is dealt, is :mod:`companion.rules.ways`).

``base`` and ``wind`` are the official games; ``seven`` and ``nine`` the 3-card-hand variants
(master and student columns); ``knowledge`` the side-stack variant; ``conditional`` the base
game dealt from cards with move-only and capture-only offsets; ``simultaneous`` the
simultaneous-play variant. ``shadow`` and ``light`` live in :mod:`companion.rules.shadow`.
``docs/rules.md`` gives every reading chosen where the variant texts are vague.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from typing import Any, Sequence, TypeVar, cast

from .actions import Action, Take
from .board import Board, engine_move
from .cards import CARDS, Card, CardTable, load_card_file, notation_name
from .deal import first_player
from .engine import ANY, MASTER_ONLY, STUDENT_ONLY, Engine, EngineMove, State
from .errors import SetupError, VariantError
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, NO_SQUARE, RED, TEMPLE, Position, parse_position
from .referee import Event, Referee, Result, Turn, TurnLog
from .results import result_sentence
from .shadow import ShadowReferee

# Hand-slot roles: a played card's replacement takes its slot, so it stays in its column.
ROLES = {
    "seven": (MASTER_ONLY, ANY, ANY),                                # 1 master, 2 student cards
    "nine": (MASTER_ONLY, MASTER_ONLY, STUDENT_ONLY, STUDENT_ONLY),  # 2 master-only, 2 student-only
}
ROLE_NAMES = {ANY: "any", MASTER_ONLY: "master", STUDENT_ONLY: "student"}
EXAMPLE_CARDS = "data/example-conditional-cards.json"


def example_conditional_cards() -> list[Card]:
    """The project's own cards with move-only and capture-only offsets."""
    with resources.as_file(resources.files("companion").joinpath(EXAMPLE_CARDS)) as path:
        return load_card_file(path)


def _why_move(cards: CardTable, roles: tuple[int, ...], pos: Position, move: Action) -> str:
    if not isinstance(move, Move):
        return "this game has only main-board moves"
    return Board(pos, cards=cards, roles=roles).why_illegal(move) or "not a legal move here"


# -- turn-based games: base, wind, seven, nine, conditional, knowledge ----------------------

@dataclass(frozen=True, slots=True)
class ClassicState:
    st: State                      # the engine state; its side is the mover's side stack
    stacks: tuple[tuple[str, ...], tuple[str, ...]]   # Knowledge: each player's side stack
    deck: tuple[str, ...]          # Knowledge: the face-down cards, in the order drawn
    phase: str                     # move, or take (Knowledge: choose the replacement)
    pending: tuple[str, str] | None  # during take: (card played, notation so far)
    result: Result | None
    log: TurnLog


class ClassicReferee(Referee[ClassicState]):
    """Every seat sees everything; the referee checks moves and keeps the record.

    ``knowledge=True``: when a student is captured, its owner draws the top card of ``deck``
    onto their side stack; a player replacing a card chooses from their whole side stack."""

    def __init__(self, start: Position | str, mode: str = "base", *, roles: tuple[int, ...] = (ANY, ANY),
                 knowledge: bool = False, deck: tuple[str, ...] = (), cards: CardTable = CARDS,
                 seed: int | None = None, hidden_seed: int | None = None):
        if isinstance(start, str):
            start = parse_position(start, cards)
        if len(start.hands[RED]) != len(roles):
            raise SetupError(f"{mode}: hands of {len(roles)} cards, not {len(start.hands[RED])}")
        self.mode = mode
        self.seed = seed
        # Knowledge: what ordered the face-down deck. Never public: see companion.rules.ways.
        self.hidden_seed = hidden_seed
        self.start = start
        self.knowledge = knowledge
        self.engine = Engine(cards, roles)
        stacks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        if knowledge:
            if start.spirit != NO_SQUARE:
                raise VariantError("the Knowledge variant is not combined with the Way of the Wind here")
            stacks = ((start.side, ()) if start.turn == RED else ((), start.side))
        super().__init__(ClassicState(self.engine.state(start), stacks, tuple(deck), "move", None,
                                      self._winner(self.engine.state(start)), TurnLog()), cards)

    @staticmethod
    def _winner(st: State) -> Result | None:
        won = Engine.position(st).winner()
        return None if won is None else Result(COLORS[won[0]], won[1])

    def position(self) -> Position:
        return Engine.position(self._state.st)

    def _to_act(self, s: ClassicState) -> tuple[str, ...]:
        return (COLORS[s.st[5]],)

    def _legal(self, s: ClassicState, seat: str) -> Sequence[Action]:
        if s.phase == "take":
            return [Take(card) for card in s.stacks[s.st[5]]]
        return [engine_move(self.cards, s.st, mv) for mv in self.engine.moves(s.st)]

    def _find(self, s: ClassicState, move: Move) -> EngineMove:
        return next(mv for mv in self.engine.moves(s.st) if engine_move(self.cards, s.st, mv) == move)

    def _apply(self, s: ClassicState, seat: str, action: Action) -> tuple[ClassicState, list[Event]]:
        events: list[Event] = []
        if isinstance(action, Take):
            assert s.pending is not None, "a Take is legal only in the take phase"
            card, text = s.pending
            return self._exchange(s, card, action.card, f"{text} >{notation_name(action.card)}",
                                  events), events
        assert isinstance(action, Move), "the legal actions here are moves and Takes"
        mv = self._find(s, action)
        if not self.knowledge:
            st = self.engine.apply(s.st, mv)
            s = replace(s, st=st, result=self._winner(st))
            return self._finish(s, seat, str(action), events), events
        # Knowledge: move on the engine with the played card parked, then exchange by hand.
        c, e = s.st[5], 1 - s.st[5]
        opp, opp_master = s.st[1], s.st[3]
        moved = self.engine.apply(replace_side(s.st, (action.card,)), mv)
        own_after = moved[1]
        text = str(action)
        captured = opp & ~moved[0]
        stacks, deck = s.stacks, s.deck
        if captured and opp_master != NO_SQUARE and not captured >> opp_master & 1 and deck:
            drawn, deck = deck[0], deck[1:]
            stacks = put_seat(stacks, e, stacks[e] + (drawn,))
            text += f" +{notation_name(drawn)}"
            events.append(Event("draw", f"{COLORS[e]} lost a student and draws {drawn} onto "
                                "their side stack", public=True, data={"by": COLORS[e], "card": drawn}))
        # The board after the move, still from the mover's side, hands untouched.
        board = (own_after, moved[0], moved[3], moved[2], moved[4], c, s.st[6], s.st[7], s.st[8])
        s = replace(s, st=board, stacks=stacks, deck=deck, result=self._winner(board))
        if s.result is not None or len(stacks[c]) == 1:
            return self._exchange(s, action.card, stacks[c][0] if s.result is None else None,
                                  text, events), events
        return replace(s, phase="take", pending=(action.card, text)), events

    def _exchange(self, s: ClassicState, played: str, taken: str | None, text: str,
                  events: list[Event]) -> ClassicState:
        c, e = s.st[5], 1 - s.st[5]
        own, opp, mo, mp, sp, _, ho, hp, _ = s.st
        stacks = s.stacks
        if taken is not None:
            ho = tuple(taken if h == played else h for h in ho)
            rest = list(stacks[c])
            rest.remove(taken)
            stacks = put_seat(put_seat(stacks, c, tuple(rest)), e, stacks[e] + (played,))
        st = (opp, own, mp, mo, sp, e, hp, ho, stacks[e])
        s = replace(s, st=st if s.result is None else s.st, stacks=stacks, phase="move", pending=None)
        return self._finish(s, COLORS[c], text, events)

    def _finish(self, s: ClassicState, seat: str, text: str, events: list[Event]) -> ClassicState:
        events.append(Event("turn", text, public=True, data={"by": seat}))
        if s.result is not None:
            events.append(Event("game_over", result_sentence(s.result),
                                public=True, data=s.result.as_dict()))
        return replace(s, log=s.log + (Turn(seat, text, text),))

    def _why(self, s: ClassicState, seat: str, action: Action) -> str:
        if s.phase == "take":
            return f"choose the replacement card from {seat}'s side stack ({', '.join(s.stacks[s.st[5]])})"
        if isinstance(action, Take):
            return "a card is taken from the side stack after the move"
        return _why_move(self.cards, self.engine.roles, Engine.position(s.st), action)

    def _view(self, s: ClassicState, seat: str | None) -> JsonObject:
        out: JsonObject = {"position": str(Engine.position(s.st)), "turn": COLORS[s.st[5]],
               "phase": "over" if s.result is not None else s.phase}
        if self.engine.roles != (ANY, ANY):
            out["slots"] = [ROLE_NAMES[r] for r in self.engine.roles]
        if self.knowledge:
            out["side_stacks"] = {COLORS[k]: list(s.stacks[k]) for k in (RED, BLUE)}
            out["deck"] = len(s.deck)
        return out


def replace_side(st: State, side: tuple[str, ...]) -> State:
    return st[:8] + (side,)


T = TypeVar("T")


def put_seat(pair: tuple[T, T], i: int, value: T) -> tuple[T, T]:
    """``pair`` (Red's, Blue's) with seat ``i``'s replaced by ``value``."""
    return (value, pair[1]) if i == 0 else (pair[0], value)


# -- simultaneous play --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SimultaneousState:
    pos: Position                  # side = (Red's side card, Blue's side card); turn unused
    commits: tuple[Move | None, Move | None]
    result: Result | None
    log: TurnLog


class SimultaneousReferee(Referee[SimultaneousState]):
    """Both seats commit a move in secret; when both have, the moves resolve together."""

    mode = "simultaneous"

    def __init__(self, start: Position, *, cards: CardTable = CARDS, seed: int | None = None):
        if len(start.side) != 2:
            raise SetupError("simultaneous play has one side card per player (six cards)")
        if start.spirit != NO_SQUARE or any(cards[c].is_wind_card for c in start.cards()):
            raise VariantError("simultaneous play is not combined with the Way of the Wind here")
        self.seed = seed
        self.start = start
        self.engine = Engine(cards)
        super().__init__(SimultaneousState(start, (None, None), None, TurnLog()), cards)
        self._state = replace(self._state, result=self._stalemate(start))

    def _state_for(self, pos: Position, c: int) -> State:
        return self.engine.state(replace(pos, turn=c, side=(pos.side[c],)))

    def _moves(self, pos: Position, c: int) -> list[Move]:
        st = self._state_for(pos, c)
        return [engine_move(self.cards, st, mv) for mv in self.engine.moves(st)]

    def _stalemate(self, pos: Position) -> Result | None:
        """Neither player can move anything: a draw."""
        if all(self._moves(pos, c)[0].is_pass for c in (RED, BLUE)):
            return Result(None, "draw")
        return None

    def _to_act(self, s: SimultaneousState) -> tuple[str, ...]:
        return tuple(COLORS[c] for c in (RED, BLUE) if s.commits[c] is None)

    def _legal(self, s: SimultaneousState, seat: str) -> Sequence[Action]:
        return self._moves(s.pos, COLORS.index(seat))

    def _why(self, s: SimultaneousState, seat: str, action: Action) -> str:
        c = COLORS.index(seat)
        return _why_move(self.cards, (ANY, ANY), replace(s.pos, turn=c, side=(s.pos.side[c],)), action)

    def _apply(self, s: SimultaneousState, seat: str,
               action: Action) -> tuple[SimultaneousState, list[Event]]:
        c = COLORS.index(seat)
        assert isinstance(action, Move), "the legal actions here are moves"
        commits = put_seat(s.commits, c, action)
        if None in commits:
            return replace(s, commits=commits), [Event("committed", f"{seat} has committed",
                                                       public=True, data={"by": seat})]
        return self._resolve(s, cast("tuple[Move, Move]", commits))   # None is not in it

    def _resolve(self, s: SimultaneousState,
                 commits: tuple[Move, Move]) -> tuple[SimultaneousState, list[Event]]:
        pos = s.pos
        pawns, masters = _both_moves(pos, commits)
        red_hand, blue_hand = (tuple(pos.side[c] if h == commits[c].card else h for h in pos.hands[c])
                               for c in (RED, BLUE))
        hands = (red_hand, blue_hand)
        # Each played card goes to the player's left, which is the other player's right.
        new = replace(pos, red=pawns[RED], blue=pawns[BLUE], red_master=masters[RED],
                      blue_master=masters[BLUE], hands=hands,
                      side=(commits[BLUE].card, commits[RED].card))
        result = _race_result(masters)
        if result is None:
            result = self._stalemate(new)
        text = f"{commits[RED]} | {commits[BLUE]}"
        events = [Event("committed", f"{COLORS[c]} has committed", public=True,
                        data={"by": COLORS[c]}) for c in (RED, BLUE) if s.commits[c] is None]
        events.append(Event("turn", text, public=True, data={"red": str(commits[RED]),
                                                              "blue": str(commits[BLUE])}))
        if result is not None:
            events.append(Event("game_over", result_sentence(result), public=True,
                                data=result.as_dict()))
        return SimultaneousState(new, (None, None), result, s.log + (Turn(None, text, text),)), events

    def _view(self, s: SimultaneousState, seat: str | None) -> JsonObject:
        pos = s.pos
        out: JsonObject = {"position": str(replace(pos, turn=RED)),
               "side_cards": {"red": pos.side[RED], "blue": pos.side[BLUE]},
               "phase": "over" if s.result is not None else "commit",
               "committed": {COLORS[c]: s.commits[c] is not None for c in (RED, BLUE)}}
        if seat is not None:
            own = s.commits[COLORS.index(seat)]
            out["own_commit"] = None if own is None else str(own)
        return out

    def sealed(self, seat: str) -> str | None:
        """``seat``'s committed move of the turn in progress, if any."""
        own = self._state.commits[COLORS.index(seat)]
        return None if own is None else str(own)


# -- dealing (the ways of playing, in companion.rules.ways, deal from these) ------------

def start_position(red: list[str], blue: list[str], side: list[str], cards: CardTable) -> Position:
    """The base starting board; with one side card its stamp picks the first player."""
    turn = first_player(side[0], cards) if len(side) == 1 else RED
    return Position(red=sum(1 << s for s in range(5)), blue=sum(1 << s for s in range(20, 25)),
                    red_master=2, blue_master=22, spirit=NO_SQUARE, turn=turn,
                    hands=(tuple(red), tuple(blue)), side=tuple(side))


def _both_moves(pos: Position, commits: tuple[Move, Move]) -> tuple[list[int], list[int]]:
    """The pawns and masters of each colour once both committed moves are made at once."""
    pawns = [pos.red, pos.blue]
    masters = [pos.red_master, pos.blue_master]
    dest = [None if m.is_pass else m.to_sq for m in commits]
    for c, m in enumerate(commits):
        if not m.is_pass:
            # Simultaneous play has no Wind Spirit: a move that is not a pass steps a pawn.
            assert m.from_sq is not None and m.to_sq is not None
            pawns[c] ^= (1 << m.from_sq) | (1 << m.to_sq)
            if masters[c] == m.from_sq:
                masters[c] = m.to_sq
    lost = [0, 0]
    red_to, blue_to = dest
    if red_to is not None and red_to == blue_to:
        # Both land on the same square: both are eliminated.
        lost = [1 << red_to, 1 << red_to]
    else:
        # A piece ending the turn where an enemy lands is captured; one that moved away
        # from the square an enemy lands on has escaped.
        for c in (RED, BLUE):
            to = dest[c]
            if to is not None and pawns[1 - c] >> to & 1:
                lost[1 - c] = 1 << to
    for c in (RED, BLUE):
        pawns[c] &= ~lost[c]
        if masters[c] >= 0 and lost[c] >> masters[c] & 1:
            masters[c] = NO_SQUARE
    return pawns, masters


def _race_result(masters: list[int]) -> Result | None:
    """Who won by the masters alone: a draw when both did at once; None when neither did."""
    wins: list[tuple[int, str]] = []
    for c in (RED, BLUE):
        e = 1 - c
        if masters[e] == NO_SQUARE:
            wins.append((c, "stone"))
        elif masters[c] == TEMPLE[e]:
            wins.append((c, "stream"))
    if len(wins) == 2:
        return Result(None, "draw")
    return Result(COLORS[wins[0][0]], wins[0][1]) if wins else None

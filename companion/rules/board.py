"""A game board in the python-chess manner: push and pop moves, a lazy view of the legal
moves, the outcome, and a precise reason for every illegal move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from .cards import CARDS, CardTable
from .engine import ANY, MASTER_ONLY, STUDENT_ONLY, CardMoves, Engine, EngineMove, State
from .errors import IllegalMoveError
from .moves import Move, parse_move
from .position import COLORS, Position, describe_square, parse_position
from .squares import square_name


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str   # "red" | "blue"
    how: str      # "stone" (master captured) | "stream" (master on the Temple Arch)


def engine_move(cards: CardTable, st: State, mv: EngineMove) -> Move:
    """An engine move tuple as a :class:`Move`: the one translation from the engine's tuples
    to the values players, records and the computer read."""
    slot, f, t, sf, su, _ = mv
    name = st[6][slot]
    if f < 0 and sf < 0:
        return Move(name)
    if cards[name].is_wind_card:
        return Move(name, f if f >= 0 else None, t if f >= 0 else None,
                    sf if sf >= 0 else None, su if sf >= 0 else None, wind_card=True)
    return Move(name, f, t) if f >= 0 else Move(name, sf, su)


class LegalMoves:
    """The legal moves of a position: iterate lazily, count, or test membership."""

    def __init__(self, board: "Board"):
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        board = self._board
        if board.outcome() is not None:
            return
        st = board._st
        for mv in board.engine.moves(st):
            yield engine_move(board.cards, st, mv)

    def __len__(self) -> int:
        board = self._board
        return 0 if board.outcome() is not None else len(board.engine.moves(board._st))

    def __contains__(self, move: Move) -> bool:
        return self._board._find(move) is not None


class Board:
    def __init__(self, position: Position | str, *, cards: CardTable = CARDS,
                 roles: tuple[int, ...] = (ANY, ANY)):
        if isinstance(position, str):
            position = parse_position(position, cards)
        self.cards = cards
        self.engine = Engine(cards, roles)
        self._st = self.engine.state(position)
        self._stack: list[tuple[Move, State]] = []

    # -- state -----------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.engine.position(self._st)

    @property
    def turn(self) -> str:
        return COLORS[self._st[5]]

    @property
    def move_stack(self) -> list[Move]:
        return [move for move, _ in self._stack]

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def outcome(self) -> Outcome | None:
        result = self.position.winner()
        return None if result is None else Outcome(COLORS[result[0]], result[1])

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def copy(self) -> "Board":
        other = Board(self.position, cards=self.cards, roles=self.engine.roles)
        other._stack = list(self._stack)
        return other

    def __str__(self) -> str:
        return str(self.position)

    # -- moves -----------------------------------------------------------------------------

    def parse(self, text: str) -> Move:
        return parse_move(text, self.cards)

    def push(self, move: Move | str) -> Move:
        """Play ``move``; raises :class:`IllegalMoveError` saying why it is not allowed."""
        if isinstance(move, str):
            move = self.parse(move)
        mv = self._find(move)
        if mv is None:
            raise IllegalMoveError(str(move), self.why_illegal(move) or "not a legal move here")
        self._stack.append((move, self._st))
        self._st = self.engine.apply(self._st, mv)
        return move

    def pop(self) -> Move:
        move, self._st = self._stack.pop()
        return move

    def peek(self) -> Move:
        return self._stack[-1][0]

    def _find(self, move: Move) -> EngineMove | None:
        if self.outcome() is not None:
            return None
        st = self._st
        for mv in self.engine.moves(st):
            if engine_move(self.cards, st, mv) == move:
                return mv
        return None

    # -- why a move is illegal -------------------------------------------------------------

    def why_illegal(self, move: Move) -> str | None:
        """None for a legal move, else the rule it breaks, in words a player understands."""
        outcome = self.outcome()
        if outcome is not None:
            return f"the game is over ({outcome.winner.title()} won by {outcome.how})"
        if self._find(move) is not None:
            return None
        own, opp, mo, mp, sp, color, hand, _, _ = self._st
        who = COLORS[color].title()
        if move.card not in hand:
            return f"{move.card} is not in {who}'s hand ({who} holds {', '.join(hand)})"
        card = self.cards[move.card]
        slot = hand.index(move.card)
        if move.is_pass:
            return f"{who} has a legal move, and may pass only when no card can move anything"
        if move.wind_card != card.is_wind_card:
            return (f"{card.name} is a Wind Spirit card: give the pawn step and the Spirit step"
                    if card.is_wind_card else f"{card.name} is not a Wind Spirit card")
        masters = {s for s in (mo, mp) if s >= 0}
        if not card.is_wind_card:
            # Not a pass, so a regular card's move has both squares (parse_move gives them).
            assert move.from_sq is not None and move.to_sq is not None
            if move.from_sq == sp and self.engine.roles[slot] == MASTER_ONLY:
                return f"{card.name} is a master card: it moves only {who}'s master"
            cm = self.engine.table(card.name)[color]
            if move.from_sq == sp:
                return self._spirit_problem(self.position, card.name, cm, move.from_sq, move.to_sq, masters)
            return (self._pawn_problem(self.position, card.name, cm, slot, move.from_sq, move.to_sq)
                    or "not a legal move here")
        return self._wind_card_problem(move, card.name, slot, masters) or "not a legal move here"

    def _wind_card_problem(self, move: Move, name: str, slot: int, masters: set[int]) -> str | None:
        """What is wrong with a Wind Spirit card's move: the pawn step, then the Spirit step."""
        _, _, mo, mp, _, color, hand, _, _ = self._st
        who = COLORS[color].title()
        cm = self.engine.table(name)[color]
        pos = self.position
        if move.from_sq is None:
            tops = [f for (s, f, _, _, _, _) in self.engine.moves(self._st) if hand[s] == name and f >= 0]
            if tops:
                return f"{name}'s top step must move one of {who}'s pawns: it has a legal option"
        else:
            assert move.to_sq is not None, "a step's squares come in pairs"
            problem = self._pawn_problem(pos, name, cm, slot, move.from_sq, move.to_sq)
            if problem:
                return problem
            if move.to_sq == mp or (move.from_sq == mo and move.to_sq == (22 if color == 0 else 2)):
                return "the top step wins the game: the Spirit does not move after it (write '-')"
            if move.from_sq == mo:
                masters = (masters - {mo}) | {move.to_sq}
        if move.spirit_from is None:
            return f"the Wind Spirit must take {name}'s bottom step when it can"
        assert move.spirit_to is not None, "a step's squares come in pairs"
        return self._spirit_problem(pos, name, cm, move.spirit_from, move.spirit_to, masters, bottom=True)

    def _pawn_problem(self, pos: Position, name: str, cm: CardMoves, slot: int, frm: int,
                      to: int) -> str | None:
        color = pos.turn
        who = COLORS[color].title()
        own = pos.pawns(color)
        if not own >> frm & 1:
            return f"{who} has no pawn on {square_name(frm)} ({describe_square(pos, frm)})"
        is_master = frm == pos.master(color)
        role = self.engine.roles[slot]
        if role == MASTER_ONLY and not is_master:
            return f"{name} is a master card: only {who}'s master may use it"
        if role == STUDENT_ONLY and is_master:
            return f"{name} is a student card: {who}'s master may not use it"
        plain = cm.master[frm] if is_master else cm.student[frm]
        cond = {t: capture for t, _, capture in (cm.master_cond[frm] if is_master else cm.student_cond[frm])}
        pawn = "master" if is_master else "student"
        if to not in {t for t, _ in plain} and to not in cond:
            return f"{name} does not move {who}'s {pawn} from {square_name(frm)} to {square_name(to)}"
        if own >> to & 1:
            return f"{square_name(to)} holds {who}'s own pawn"
        if to == pos.spirit:
            return f"the Wind Spirit stands on {square_name(to)}: no pawn may land on it"
        if to in cond:
            enemy = pos.pawns(1 - color) >> to & 1
            if cond[to] and not enemy:
                return f"{name} reaches {square_name(to)} only to capture, and it holds no opposing pawn"
            if not cond[to] and enemy:
                return f"{name} reaches {square_name(to)} only onto an empty square"
        return None

    def _spirit_problem(self, pos: Position, name: str, cm: CardMoves, frm: int, to: int,
                        masters: set[int], bottom: bool = False) -> str | None:
        if pos.spirit < 0:
            return "there is no Wind Spirit in this game"
        if frm != pos.spirit:
            return f"the Wind Spirit stands on {square_name(pos.spirit)}, not {square_name(frm)}"
        if to not in {t for t, _ in cm.spirit[frm]} and not cm.spirit_empty[frm] >> to & 1:
            step = "bottom step" if bottom else "pattern"
            return f"{name}'s {step} does not move the Wind Spirit from {square_name(frm)} to {square_name(to)}"
        if to in masters:
            return f"the Wind Spirit may not land on a master ({square_name(to)})"
        if cm.spirit_empty[frm] >> to & 1 and (pos.red | pos.blue) >> to & 1:
            return f"{name} moves the Wind Spirit to {square_name(to)} only onto an empty square"
        return None

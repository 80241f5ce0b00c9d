"""Mat traces of random legal games played by realistic hands, with what the companion must
understand from each: the test corpus and the benchmark of the move recognizer.

The hands are those of players, not of a test: every switch transition comes as a bounce
burst, captures are made in any of the three orders (own pawn first, captured pawn first,
captured pawn slid away last), a Wind Spirit swap is two lifts and two placements in any
order, pawns are set down briefly on the way (hesitations), neighbours are brushed, and players
pause to think, sometimes with a pawn in hand or half-way through a Wind Spirit card.

What the mat cannot tell is computed here from the rules alone (the engine's positions, not
the recognizer's readings): a prompt is expected exactly when another legal turn leaves the
same pieces (two cards), when a Wind Spirit card could still go on from the same pieces, or
when undoing the last turn would leave them too. The trace answers each prompt with the card
played, from a phone or with the A/B buttons.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.rules.board import Board
from companion.rules.deal import deal
from companion.rules.moves import Move
from companion.rules.position import COLORS, Position
from companion.rules.squares import square_distance, square_name

SETS = ("base", "senseis-path", "wind", "promo")
# Timings of hands, in seconds. Clear of the recognizer's thresholds on purpose: a brush is
# shorter than CLEAR_S, a hesitation shorter than the 0.25 s the spec allows, a deliberate
# lift longer than CLEAR_S, and the short pause inside a Wind Spirit card shorter than the
# settle time while the long one is longer.
BOUNCE = (0.0004, 0.0025)
BRUSH = (0.004, 0.045)
HESITATE = (0.04, 0.2)
TRAVEL = (0.15, 0.7)
EXCHANGE = (0.12, 0.4)
THINK = (0.8, 3.0)
LONG_THINK = (4.0, 12.0)
HOLD = (1.0, 4.0)
STEP_PAUSE_SHORT = (0.03, 0.2)
STEP_PAUSE_LONG = (0.6, 2.5)
ANSWER = (0.7, 2.5)


@dataclass
class Turn:
    """One turn as the trace plays it and as the companion must read it."""
    move: str
    rest: float                 # the last switch transition of the turn (the mat at rest)
    prompt: dict | None = None  # the prompt due when the mat comes to rest
    answered: float | None = None
    early_prompt: dict | None = None  # due at a pause inside a Wind Spirit card
    winner: dict | None = None


@dataclass
class GeneratedGame:
    header: dict
    events: list[dict] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)

    def lines(self) -> list[dict]:
        return [self.header, *self.events]

    def expected(self) -> list[dict]:
        """The output events, without times, in order."""
        out: list[dict] = []
        for turn in self.turns:
            if turn.early_prompt:
                out.append({"prompt": turn.early_prompt})
            if turn.prompt:
                out.append({"prompt": turn.prompt})
            out.append({"move": turn.move})
            if turn.winner:
                out.append(turn.winner)
        return out


class Hands:
    """Switch transitions with times, as a player's hands make them."""

    def __init__(self, rng: random.Random, events: list[dict], occupied: set[int]):
        self.rng = rng
        self.now = 0.0
        self.events = events
        self.occupied = occupied

    def wait(self, span: tuple[float, float]) -> None:
        self.now += self.rng.uniform(*span)

    def _edge(self, sq: int, on: bool) -> None:
        # The contact chatters a few times within milliseconds before it holds.
        states = [on] + [not on, on] * self.rng.randint(0, 3)
        for i, state in enumerate(states):
            if i:
                self.wait(BOUNCE)
            self.events.append({"t": round(self.now, 4), "on" if state else "off": square_name(sq)})

    def lift(self, sq: int) -> None:
        self._edge(sq, False)
        self.occupied.discard(sq)

    def place(self, sq: int) -> None:
        self._edge(sq, True)
        self.occupied.add(sq)

    def brush(self, sq: int) -> None:
        self._edge(sq, False)
        self.wait(BRUSH)
        self._edge(sq, True)

    def chatter(self, sq: int) -> None:
        """A second magnet arriving on an occupied square: bounces, no change."""
        for _ in range(self.rng.randint(1, 3)):
            self._edge(sq, False)
            self.wait(BOUNCE)
            self._edge(sq, True)
            self.wait(BOUNCE)

    def travel(self, frm: int, to: int) -> None:
        """Carry a piece: maybe brush a neighbour, hesitate on an empty square, or hold it."""
        rng = self.rng
        if rng.random() < 0.3:
            near = [sq for sq in self.occupied if sq not in (frm, to)
                    and min(square_distance(sq, frm), square_distance(sq, to)) == 1]
            if near:
                self.wait((0.02, 0.15))
                self.brush(rng.choice(near))
        if rng.random() < 0.25:
            empty = [sq for sq in range(25) if sq not in self.occupied and sq not in (frm, to)]
            self.wait((0.05, 0.3))
            here = rng.choice(empty)
            self.place(here)
            self.wait(HESITATE)
            self.lift(here)
        self.wait(HOLD if rng.random() < 0.1 else TRAVEL)

    def step(self, frm: int, to: int, capture: bool) -> None:
        """A pawn (or the Spirit onto an empty square) moves; a capture in any order."""
        if not capture:
            self.lift(frm)
            self.travel(frm, to)
            self.place(to)
            return
        order = self.rng.choice(("own first", "captured first", "captured last"))
        if order == "own first":
            self.lift(frm)
            self.travel(frm, to)
            self.lift(to)
            self.wait(EXCHANGE)
            self.place(to)
        elif order == "captured first":
            self.lift(to)
            self.wait((0.2, 1.5))
            self.lift(frm)
            self.travel(frm, to)
            self.place(to)
        else:
            # Set down beside the captured pawn, which is then slid off while the captor is
            # pushed onto the middle of the square.
            self.lift(frm)
            self.travel(frm, to)
            self.chatter(to)
            self.wait((0.05, 0.3))
            self.lift(to)
            self.wait(EXCHANGE)
            self.place(to)

    def swap(self, a: int, b: int) -> None:
        """The Spirit and a student change places: two lifts, two placements, any order."""
        first, second = self.rng.sample((a, b), 2)
        self.lift(first)
        self.wait((0.05, 0.3))
        self.lift(second)
        self.wait((0.15, 0.5))
        first, second = self.rng.sample((a, b), 2)
        self.place(first)
        self.wait((0.05, 0.3))
        self.place(second)


def _afters(board: Board) -> dict[Move, Position]:
    """The position after each legal turn. ``legal_moves`` lists the engine's moves in the
    engine's order, so the two pair up without a search per move."""
    engine = board.engine
    st = engine.state(board.position)
    internal = engine.moves(st)
    moves = list(board.legal_moves)
    assert len(moves) == len(internal)
    return {m: engine.position(engine.apply(st, mv)) for m, mv in zip(moves, internal)}


def _after_pawn_step(pos: Position, move: Move) -> Position:
    """A Wind Spirit card's pawn step alone (its Spirit step still to come)."""
    pieces = {sq: pos.piece_at(sq) for sq in range(25)}
    pieces[move.to_sq], pieces[move.from_sq] = pieces[move.from_sq], None
    red = sum(1 << sq for sq, p in pieces.items() if p in ("R", "r"))
    blue = sum(1 << sq for sq, p in pieces.items() if p in ("B", "b"))
    red_master = next((sq for sq, p in pieces.items() if p == "R"), -1)
    blue_master = next((sq for sq, p in pieces.items() if p == "B"), -1)
    return Position(red, blue, red_master, blue_master, pos.spirit, pos.turn, pos.hands, pos.side)


def _bits(pos: Position) -> int:
    """Occupancy as a bitmask: a cheap first filter before comparing looks."""
    return pos.red | pos.blue | (1 << pos.spirit if pos.spirit >= 0 else 0)


def _changed(before: Position, after: Position) -> frozenset[int]:
    """Squares occupied on both sides whose piece differs: a hand must have emptied them."""
    return frozenset(sq for sq in before.occupied() & after.occupied()
                     if before.piece_at(sq) != after.piece_at(sq))


def _looks(pos: Position, move: Move | None, after: Position) -> tuple:
    """What a presence sensor can know of a turn from ``pos`` to ``after`` (``move`` None for
    a pawn step alone): the occupancy afterwards, and the groups of squares a hand must have
    emptied, together when one act changes them (a swap)."""
    if move is not None and move.wind_card and move.from_sq is not None and move.spirit_from is not None:
        mid = _after_pawn_step(pos, move)
        steps = [(pos, mid), (mid, after)]
    else:
        steps = [(pos, after)]
    end = steps[-1][1]
    groups = {_changed(a, b) for a, b in steps} - {frozenset()}
    covered = frozenset().union(*groups)
    groups |= {frozenset((sq,)) for sq in _changed(pos, end) - covered}
    return end.occupied(), frozenset(groups)


def _wind_pawn_steps(moves: Iterable[Move]) -> list[Move]:
    return [m for m in moves if m.wind_card and m.from_sq is not None and m.spirit_from is not None]


def _prompt(pos: Position, cards: set[str], undo: Move | None = None) -> dict:
    prompt = {"seat": COLORS[pos.turn], "choose": [c for c in pos.hands[pos.turn] if c in cards]}
    if undo is not None:
        prompt["takeback"] = str(undo)
    return prompt


def _ambiguity(board: Board, move: Move, afters: dict[Move, Position]) -> dict | None:
    """The prompt due when the mat rests after ``move``: other turns that look the same to the
    mat (or a Wind Spirit card that could still go on from there, or the takeback), or None.
    ``afters``: the position after each legal turn."""
    pos = board.position
    looks = _looks(pos, move, afters[move])
    bits = _bits(afters[move])
    alike = [m for m, after in afters.items() if m != move and _bits(after) == bits
             and _looks(pos, m, after) == looks]
    going_on = [m for m in _wind_pawn_steps(afters) if m.card != move.card
                and _looks(pos, None, _after_pawn_step(pos, m)) == looks]
    undo = None
    if board.move_stack and not board.peek().is_pass:
        last = board.pop()
        if (board.position.occupied(), _looks(board.position, last, pos)[1]) == looks:
            undo = last
        board.push(last)
    if not alike and not going_on and undo is None:
        return None
    cards = [m.card for m in alike]
    if move.card in cards or len(set(cards)) < len(cards):
        raise ValueError(f"{move}: the mat cannot tell it from {', '.join(map(str, alike))}, "
                         "not even with the card")
    return _prompt(pos, {move.card, *cards, *(m.card for m in going_on)}, undo)


def _pause_prompt(board: Board, move: Move, afters: dict[Move, Position]) -> dict | None:
    """The prompt due when a Wind Spirit card's player pauses after the pawn step: only when
    some complete turn looks the same (else the mat just waits for the Spirit)."""
    pos = board.position
    mid = _after_pawn_step(pos, move)
    looks = _looks(pos, None, mid)
    complete = {m.card for m, after in afters.items()
                if _bits(after) == _bits(mid) and _looks(pos, m, after) == looks}
    if not complete:
        return None
    going_on = {m.card for m in _wind_pawn_steps(afters)
                if _looks(pos, None, _after_pawn_step(pos, m)) == looks}
    return _prompt(pos, complete | going_on)


def random_deal(rng: random.Random, variant: str | None = None):
    variant = variant or rng.choice(("base", "wind"))
    sets = rng.sample(SETS, rng.randint(1, len(SETS)))
    if sets == ["wind"]:
        sets.append("base")  # Goat and Sheep alone are too few move cards for a deal
    wind_cards = rng.randint(0, 5) if variant == "wind" else 0
    return deal(variant, tuple(sets), wind_cards=wind_cards, seed=rng.randrange(2**31))


def generate_game(seed: int, *, variant: str | None = None, max_turns: int = 50) -> GeneratedGame:
    """A random legal game of ``variant`` (base or wind; random if None) as a mat trace."""
    rng = random.Random(seed)
    dealt = random_deal(rng, variant)
    board = Board(dealt.position)
    game = GeneratedGame({"trace": 1, "position": str(board.position), "variant": dealt.variant})
    hands = Hands(rng, game.events, set(board.position.occupied()))
    hands.wait((0.5, 2.0))
    for _ in range(max_turns):
        if board.is_game_over():
            break
        moves = list(board.legal_moves)
        move = rng.choice(moves)
        pos = board.position
        seat = COLORS[pos.turn]
        hands.wait(LONG_THINK if rng.random() < 0.1 else THINK)
        if move.is_pass:
            # The companion asked at once (nothing on the mat can show a pass).
            turn = Turn(str(move), hands.now, prompt={"seat": seat, "choose": list(pos.hands[pos.turn])})
        else:
            afters = _afters(board)
            turn = Turn(str(move), 0.0)
            _play(hands, board, move, afters, turn)
            turn.rest = hands.now
            turn.prompt = _ambiguity(board, move, afters)
        if turn.prompt:
            hands.wait(ANSWER)
            turn.answered = round(hands.now, 4)
            if rng.random() < 0.5:
                game.events.append({"t": turn.answered, "input": {"seat": seat, "card": move.card}})
            else:
                button = "AB"[pos.hands[pos.turn].index(move.card)]
                game.events.append({"t": turn.answered, "button": button})
        board.push(move)
        outcome = board.outcome()
        if outcome:
            turn.winner = {"winner": outcome.winner, "how": outcome.how}
        game.turns.append(turn)
    hands.wait((1.0, 3.0))
    game.events.append({"t": round(hands.now, 4), "end": True})
    return game


def _play(hands: Hands, board: Board, move: Move, afters: dict[Move, Position], turn: Turn) -> None:
    pos = board.position
    occupied = set(pos.occupied())
    pawn_step = move.from_sq is not None and (move.wind_card or move.from_sq != pos.spirit)
    if pawn_step:
        hands.step(move.from_sq, move.to_sq, capture=move.to_sq in occupied)
        occupied = (occupied - {move.from_sq}) | {move.to_sq}
        if move.spirit_from is None:
            return
        if hands.rng.random() < 0.3:
            hands.wait(STEP_PAUSE_LONG)
            turn.early_prompt = _pause_prompt(board, move, afters)
        else:
            hands.wait(STEP_PAUSE_SHORT)
    spirit, to = (move.spirit_from, move.spirit_to) if move.wind_card else (move.from_sq, move.to_sq)
    if to in occupied:
        hands.swap(spirit, to)
    else:
        hands.step(spirit, to, capture=False)


@dataclass
class Score:
    """What the companion understood of generated games, against what was played."""
    games: int = 0
    moves: int = 0              # turns played
    committed: int = 0          # moves committed exactly as played
    wrong: int = 0              # moves committed that were not played (or not then)
    prompts_expected: int = 0
    prompts_raised: int = 0
    delays: list[float] = field(default_factory=list)  # rest -> commit (or prompt), per turn
    problems: list[str] = field(default_factory=list)

    def merge(self, other: "Score") -> None:
        for name in ("games", "moves", "committed", "wrong", "prompts_expected", "prompts_raised"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.delays += other.delays
        self.problems += other.problems

    def add(self, seed: int, game: GeneratedGame, output: list[dict], limit: float = 0.5) -> None:
        self.games += 1
        self.moves += len(game.turns)
        expected = game.expected()
        self.prompts_expected += sum("prompt" in e for e in expected)
        self.prompts_raised += sum("prompt" in e for e in output)
        got = [{k: v for k, v in e.items() if k != "t"} for e in output]
        wanted = iter(expected)
        for i, event in enumerate(got):
            want = next(wanted, None)
            if event != want:
                self.wrong += "move" in event
                self.problems.append(f"game {seed}: event {i}: got {event}, expected {want}")
                return
        missing = list(wanted)
        if missing:
            self.problems.append(f"game {seed}: missing {missing[0]} and {len(missing) - 1} more")
        moves = [e for e in output if "move" in e]
        prompts = iter(e for e in output if "prompt" in e)
        for turn, event in zip(game.turns, moves):
            self.committed += 1
            if turn.early_prompt:
                next(prompts)
            if turn.prompt and turn.answered is not None:
                asked = next(prompts)["t"]
                delay = asked - turn.rest
                if abs(event["t"] - turn.answered) > 0.001:
                    self.problems.append(f"game {seed}: {turn.move} committed at {event['t']}, "
                                         f"answered at {turn.answered}")
                if turn.move.endswith(" pass"):
                    continue  # asked at the previous turn's commit: no rest to time from
            else:
                delay = event["t"] - turn.rest
            self.delays.append(delay)
            if not 0 <= delay <= limit:
                self.problems.append(f"game {seed}: {turn.move} decided {delay:.3f} s after rest")

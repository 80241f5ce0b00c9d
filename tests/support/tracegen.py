"""Mat traces of random legal games played by realistic hands, with what the companion must
understand from each: the test corpus and the benchmark of the move recognizer.

The hands are those of players, not of a test: every switch transition comes as a bounce
burst, captures are made in any of the three orders (own pawn first, captured pawn first,
captured pawn slid away last), a Wind Spirit swap is two lifts and two placements in any
order, pawns are set down briefly on the way (hesitations), neighbours are brushed, and players
pause to think, sometimes with a pawn in hand or half-way through a Wind Spirit card.

Each game is played by hands of one named category (``CATEGORIES``): calm hands, and hands
that are not calm the way players are not: the next player starting 50-350 ms after the mat
rests (``fast``), a pawn set down on a wrong legal square for 0.3-0.8 s and then moved on
(``wrong-square``), a captured pawn set down aside for a moment, on the captor's origin or
elsewhere (``aside``), moves taken back, captures in both hand orders (``takeback``), a
question left unanswered until the opponent has replied (``unanswered``), and slides, pawns in
the air for seconds, put-backs, two pawns lifted and knocks (``slides``).

What the mat cannot tell is computed here from the rules alone (the engine's positions, not
the recognizer's readings): a prompt is expected exactly when another legal turn leaves the
same pieces (two cards), when undoing the last turn would leave them too, or when a move the
last mover could still amend into looks like the opponent's reply (whose step was it). A turn
that one card completes and a Wind Spirit card could go on from is committed at rest; if its
player goes on with the Spirit, it is amended. The trace answers each prompt with the truth,
from a phone or with the buttons.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.rules.board import Board
from companion.rules.deal import deal
from companion.rules.moves import Move
from companion.rules.position import COLORS, Position
from companion.rules.squares import square_distance, square_name

SETS = ("base", "senseis-path", "wind", "promo")
CATEGORIES = ("calm", "fast", "wrong-square", "aside", "takeback", "unanswered", "slides")
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
FAST = (0.05, 0.35)          # the next player starts this soon after the mat rests
SET_DOWN = (0.3, 0.8)        # a pawn left on a wrong square before moving on ...
SETTLE_BAND = (0.28, 0.45)   # ... but never this close to the settle time, bounces and debounce
#                              included (either may happen): in effect 0.45-0.8 s, always
#                              long enough to be committed, then amended
ASIDE = (0.2, 0.9)           # a captured pawn set down for a moment
AIR = (1.0, 3.0)             # a pawn held in the air
KNOCK = (0.004, 0.04)        # a piece knocked off its switch by the hand
SLIDE = (0.02, 0.09)         # a pawn slid over a square on the way


@dataclass
class Turn:
    """One turn (or takeback) as the trace plays it: ``rest`` is its last switch transition (the
    mat at rest), ``answered`` the time of the answer that commits it, if one does."""
    move: str
    rest: float = 0.0
    answered: float | None = None


@dataclass
class Expect:
    """One output event the companion must decide, without its time. ``final``: the commit
    that leaves ``turn`` recorded as played (the one timed against the turn's rest)."""
    event: dict
    turn: Turn | None = None
    final: bool = False


# The events a recognizer decides that are not part of the exact comparison: they say how the
# mat looks (waiting, out of sync), and are counted apart.
SIDE_EVENTS = ("waiting", "mismatch", "synced", "prompt_cancelled")


@dataclass
class GeneratedGame:
    header: dict
    category: str = "calm"
    events: list[dict] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    expect: list[Expect] = field(default_factory=list)
    played: list[str] = field(default_factory=list)   # the record at the end

    def lines(self) -> list[dict]:
        return [self.header, *self.events]

    def expected(self) -> list[dict]:
        """The output events, without times, in order (side events left out)."""
        return [e.event for e in self.expect]


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

    def step(self, frm: int, to: int, capture: bool, order: str | None = None) -> None:
        """A pawn (or the Spirit onto an empty square) moves; a capture in any order."""
        if not capture:
            self.lift(frm)
            self.travel(frm, to)
            self.place(to)
            return
        order = order or self.rng.choice(("own first", "captured first", "captured last"))
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

    def swap(self, a: int, b: int, spirit_first: bool = False) -> None:
        """The Spirit and a student change places: two lifts, two placements, any order."""
        first, second = (a, b) if spirit_first else self.rng.sample((a, b), 2)
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


def _prompt(pos: Position, cards: set[str], undo: Move | None = None) -> dict:
    prompt = {"seat": COLORS[pos.turn], "choose": [c for c in pos.hands[pos.turn] if c in cards]}
    if undo is not None:
        prompt["takeback"] = str(undo)
    return prompt


def _ambiguity(board: Board, move: Move, afters: dict[Move, Position], *,
               undo: bool = True) -> dict | None:
    """The prompt due when the mat rests after ``move``: other turns that look the same to the
    mat (two cards), or the takeback, or None. ``afters``: the position after each legal turn.
    A Wind Spirit card that could still go on asks nothing: the turn is committed, and amended
    if its player goes on."""
    pos = board.position
    looks = _looks(pos, move, afters[move])
    bits = _bits(afters[move])
    alike = [m for m, after in afters.items() if m != move and _bits(after) == bits
             and _looks(pos, m, after) == looks]
    last = None
    if undo and board.move_stack and not board.peek().is_pass:
        prev = board.pop()
        if (board.position.occupied(), _looks(board.position, prev, pos)[1]) == looks:
            last = prev
        board.push(prev)
    if not alike and last is None:
        return None
    cards = [m.card for m in alike]
    if move.card in cards or len(set(cards)) < len(cards):
        raise ValueError(f"{move}: the mat cannot tell it from {', '.join(map(str, alike))}, "
                         "not even with the card")
    return _prompt(pos, {move.card, *cards}, last)


def _complete_cards(board: Board, move: Move, afters: dict[Move, Position]) -> list[Move]:
    """The complete turns that look like a Wind Spirit card's pawn step alone."""
    pos = board.position
    mid = _after_pawn_step(pos, move)
    looks = _looks(pos, None, mid)
    return [m for m, after in afters.items()
            if _bits(after) == _bits(mid) and _looks(pos, m, after) == looks]


def _step_looks(pos: Position, after: Position) -> tuple:
    return after.occupied(), _changed(pos, after)


def _amendments(before: Position, done: Move) -> dict[Move, Position]:
    """The turns the mover of ``done`` (played from ``before``) may still amend it into: the
    same piece, another square (or the Wind Spirit card's Spirit step added)."""
    board = Board(before)
    origin = done.from_sq if done.from_sq is not None else done.spirit_from
    return {m: after for m, after in _afters(board).items() if m != done and not m.is_pass
            and (m.from_sq if m.from_sq is not None else m.spirit_from) == origin}


def _spirit_only(pos: Position, move: Move) -> bool:
    """A turn that moves the Spirit alone (a regular card from its square, or a Wind Spirit
    card without a pawn step)."""
    if move.wind_card:
        return move.from_sq is None and move.spirit_from is not None
    return move.from_sq is not None and move.from_sq == pos.spirit


def _squares(move: Move) -> set[int]:
    return {sq for sq in (move.from_sq, move.to_sq, move.spirit_from, move.spirit_to) if sq is not None}


def _whose(window: tuple[Position, Move, Position] | None, board: Board, move: Move,
           afters: dict[Move, Position]) -> dict | None:
    """The question due when ``move`` looks like the last mover amending their turn (going on
    with a Wind Spirit card, the Spirit or the pawn put elsewhere): whose step was it? Only
    while the window is open: a pawn of the player to move lifted away from every square an
    amendment uses closes it."""
    if window is None:
        return None
    before, done, pos = window
    amends = _amendments(before, done)
    touched = _squares(done).union(*(_squares(m) for m in amends))
    if not _spirit_only(pos, move) and move.from_sq is not None and move.from_sq not in touched:
        return None
    looks = _step_looks(pos, afters[move])
    theirs = [m for m, after in amends.items() if _step_looks(pos, after) == looks]
    # The explanation that accounts for more emptied squares wins: an amendment shows the
    # squares it changes; the turn, every square its own steps emptied (captures, swaps).
    shown = frozenset().union(*_looks(pos, move, afters[move])[1])
    if not theirs or shown > looks[1]:
        return None
    ours = [m.card for m, after in afters.items() if _step_looks(pos, after) == looks]
    prompt = _prompt(before, {m.card for m in theirs})
    prompt["reply"] = {"seat": COLORS[pos.turn], "choose": [c for c in pos.hands[pos.turn] if c in ours]}
    return prompt


def _near(pos: Position, move: Move, afters: dict[Move, Position]) -> frozenset[int]:
    """Squares a turn (and a Wind Spirit card that could go on from it) touches: the next
    player's first lift ends the turn at once only elsewhere."""
    squares = {sq for sq in (move.from_sq, move.to_sq, move.spirit_from, move.spirit_to) if sq is not None}
    if move.from_sq is not None and move.spirit_from is None:
        for m in afters:
            if m.wind_card and (m.from_sq, m.to_sq) == (move.from_sq, move.to_sq):
                squares |= {m.spirit_from, m.spirit_to} - {None}
    return frozenset(squares)


def _first_lift(move: Move) -> int | None:
    return move.from_sq if move.from_sq is not None else move.spirit_from


def random_deal(rng: random.Random, variant: str | None = None):
    variant = variant or rng.choice(("base", "wind"))
    sets = rng.sample(SETS, rng.randint(1, len(SETS)))
    if sets == ["wind"]:
        sets.append("base")  # Goat and Sheep alone are too few move cards for a deal
    wind_cards = rng.randint(0, 5) if variant == "wind" else 0
    return deal(variant, tuple(sets), wind_cards=wind_cards, seed=rng.randrange(2**31))


def _draw(rng: random.Random, span: tuple[float, float], avoid: tuple[float, float]) -> float:
    while True:
        x = rng.uniform(*span)
        if not avoid[0] <= x <= avoid[1]:
            return x


class _Game:
    """One generated game while it is being played: the board, the hands, what is expected."""

    def __init__(self, seed: int, variant: str | None, category: str):
        if category not in CATEGORIES:
            raise ValueError(f"unknown hand category {category!r}: one of {', '.join(CATEGORIES)}")
        self.rng = random.Random(seed if category == "calm" else f"{category}:{seed}")
        self.category = category
        dealt = random_deal(self.rng, variant)
        self.board = Board(dealt.position)
        self.out = GeneratedGame({"trace": 1, "position": str(self.board.position),
                                  "variant": dealt.variant}, category)
        self.hands = Hands(self.rng, self.out.events, set(self.board.position.occupied()))
        # The last move committed while its mover may still amend it: (before, move, after).
        self.window: tuple[Position, Move, Position] | None = None
        self.fast_after: frozenset[int] | None = None   # the last turn's squares, if it may be
        #                                                 ended by a fast start
        self.unanswered: tuple | None = None             # a question left for after the reply

    def expect(self, turn: Turn | None = None, final: bool = False, **event) -> None:
        self.out.expect.append(Expect(event, turn, final))

    def answer(self, seat: str, card: str | None, pos_hand: tuple[str, ...], *,
               takeback: bool = False, reply: list[str] | None = None) -> float:
        """The asked player answers (phone or buttons); returns the time."""
        hands, rng = self.hands, self.rng
        t = round(hands.now, 4)
        if takeback:
            hands.events.append({"t": t, "input": {"seat": seat, "takeback": True}} if rng.random() < 0.5
                                else {"t": t, "button": "C"})
        elif reply is not None:
            # The replying seat answers for its own step: on its phone, or C for its one card.
            hands.events.append({"t": t, "button": "C"} if len(reply) == 1 and rng.random() < 0.5
                                else {"t": t, "input": {"seat": seat, "card": card}})
        elif card in pos_hand[:2] and rng.random() < 0.5:
            hands.events.append({"t": t, "button": "AB"[pos_hand.index(card)]})
        else:
            hands.events.append({"t": t, "input": {"seat": seat, "card": card}})
        return t

    def play(self, max_turns: int) -> GeneratedGame:
        hands, board = self.hands, self.board
        hands.wait((0.5, 2.0))
        for _ in range(max_turns):
            if board.is_game_over():
                break
            self.turn()
        if self.unanswered is not None:
            self.settle_unanswered(None)
        hands.wait((1.0, 3.0))
        self.out.events.append({"t": round(hands.now, 4), "end": True})
        self.out.played = [str(m) for m in board.move_stack]
        return self.out

    def think(self, move: Move) -> bool:
        """The player to move thinks; returns whether they start fast (their first lift then
        ends the last turn, and its window)."""
        hands = self.hands
        first = _first_lift(move)
        if (self.fast_after is not None and first is not None and first not in self.fast_after
                and self.unanswered is None):
            hands.wait(FAST)
            return True
        hands.wait(LONG_THINK if self.rng.random() < 0.1 else THINK)
        return False

    def turn(self) -> None:
        hands, board, rng = self.hands, self.board, self.rng
        moves = list(board.legal_moves)
        move = rng.choice(moves)
        pos = board.position
        seat = COLORS[pos.turn]
        if self.unanswered is not None and (move.is_pass or move.wind_card
                                            or move.from_sq == pos.spirit):
            # Only a plain pawn reply is made before the answer (a Spirit step could also
            # be the asked player's own): the question is answered first.
            self.settle_unanswered(None)
        if move.is_pass:
            hands.wait(THINK)
            # The companion asked at once (nothing on the mat can show a pass).
            turn = Turn(str(move), hands.now)
            self.expect(prompt={"seat": seat, "choose": list(pos.hands[pos.turn])})
            hands.wait(ANSWER)
            turn.answered = self.answer(seat, move.card, pos.hands[pos.turn])
            board.push(move)
            self.expect(turn, True, move=str(move))
            self.after_commit(turn, None, None)
            return
        afters = _afters(board)
        if self.think(move):
            self.window = None
        turn = Turn(str(move))
        if self.category == "slides":
            self.fidget(move)
        whose = _whose(self.window, board, move, afters)
        provisional = self.perform(move, afters, turn)
        turn.rest = hands.now
        if whose is not None:
            # The mat cannot tell the opponent's Spirit step from the last mover going on.
            self.expect(prompt=whose)
            hands.wait(ANSWER)
            turn.answered = self.answer(seat, move.card, pos.hands[pos.turn],
                                        reply=whose["reply"]["choose"])
        if provisional is not None:
            self.amended(provisional, move, afters, turn)
        else:
            prompt = None if whose else _ambiguity(board, move, afters)
            if self.unanswered is not None:
                self.settle_unanswered((move, afters, turn, prompt))
                return
            if prompt:
                if not (self.out.expect and self.out.expect[-1].event == {"prompt": prompt}):
                    # (A question still standing from a set-down on the way is not asked again.)
                    self.expect(prompt=prompt)
                leave = (self.category == "unanswered" and "takeback" not in prompt
                         and self.replies_for_later(move))
                if leave:
                    board.push(move)
                    self.unanswered = (turn, prompt)
                    self.fast_after = None
                    self.window = None
                    return
                hands.wait(ANSWER)
                turn.answered = self.answer(seat, move.card, pos.hands[pos.turn])
            board.push(move)
            self.expect(turn, True, move=str(move))
        self.after_commit(turn, move, (pos, afters))
        if self.category == "takeback" and not board.is_game_over() and not move.wind_card \
                and rng.random() < 0.35:
            self.take_back(move, pos)

    def replies_for_later(self, move: Move) -> bool:
        """May this question be left for after the opponent's reply? Only when there is a reply
        to make, and it is a plain pawn move (a Spirit step could also be the asked player's)."""
        board = self.board
        board.push(move)
        try:
            if board.is_game_over():
                return False
            replies = list(board.legal_moves)
            return bool(replies) and not any(m.is_pass for m in replies)
        finally:
            board.pop()

    def settle_unanswered(self, reply: tuple | None) -> None:
        """The question left open: the reply (if any) was made; now the asked player answers,
        and both turns are committed (the reply may need its own question)."""
        hands, board = self.hands, self.board
        asked, prompt = self.unanswered
        self.unanswered = None
        pending = board.pop()
        before = board.position
        board.push(pending)
        hands.wait(ANSWER)
        asked.answered = self.answer(prompt["seat"], pending.card, before.hands[before.turn])
        self.expect(asked, True, move=str(pending))
        self.out.turns.append(asked)
        if board.is_game_over():
            self.expect(**{"winner": board.outcome().winner, "how": board.outcome().how})
        if reply is None:
            if not board.is_game_over():
                self.window = (before, pending, board.position)
            return
        move, afters, turn, _ = reply
        # The reply's own question (two cards) comes once the first is answered.
        own = _ambiguity(board, move, afters, undo=False)
        if own:
            self.expect(prompt=own)
            hands.wait(ANSWER)
            pos = board.position
            turn.answered = self.answer(own["seat"], move.card, pos.hands[pos.turn])
        else:
            turn.answered = asked.answered
        pos = board.position
        board.push(move)
        self.expect(turn, True, move=str(move))
        self.after_commit(turn, move, (pos, afters))

    def after_commit(self, turn: Turn, move: Move | None, played: tuple | None) -> None:
        board = self.board
        self.out.turns.append(turn)
        outcome = board.outcome()
        if outcome:
            self.expect(winner=outcome.winner, how=outcome.how)
        if move is None or board.is_game_over():
            self.window = None
            self.fast_after = None
            return
        pos, afters = played
        self.window = (pos, move, board.position)
        self.fast_after = (_near(pos, move, afters) if self.category == "fast"
                           and turn.answered is None else None)

    def amended(self, provisional: Move, move: Move, afters: dict[Move, Position], turn: Turn) -> None:
        """The mat rested on ``provisional`` (committed), then the mover went on to ``move``."""
        board = self.board
        pos = board.position
        board.push(provisional)
        now = board.position
        looks = _step_looks(now, afters[move])
        alike = [m for m, after in _amendments(pos, provisional).items() if m != move
                 and _step_looks(now, after) == looks]
        theirs = [m.card for m, after in _afters(board).items() if _step_looks(now, after) == looks]
        board.pop()
        prompt = None
        if alike or theirs:
            prompt = _prompt(pos, {move.card, *(m.card for m in alike)})
            if theirs:
                prompt["reply"] = {"seat": COLORS[now.turn],
                                   "choose": [c for c in now.hands[now.turn] if c in theirs]}
        if turn.answered is None and prompt:
            self.expect(prompt=prompt)
            self.hands.wait(ANSWER)
            turn.answered = self.answer(prompt["seat"], move.card, pos.hands[pos.turn])
        board.push(move)
        self.expect(takeback=str(provisional), amend=True)
        self.expect(turn, True, move=str(move), amended=True)

    def perform(self, move: Move, afters: dict[Move, Position], turn: Turn) -> Move | None:
        """Play ``move`` on the mat with this category's hands; returns the move the mat was
        committed to on the way (a long set-down, a Wind Spirit card's long pause), if any."""
        hands, board, rng = self.hands, self.board, self.rng
        pos = board.position
        occupied = set(pos.occupied())
        pawn_step = move.from_sq is not None and (move.wind_card or move.from_sq != pos.spirit)
        provisional = None
        if pawn_step:
            wrong = self.wrong_square(move, afters) if self.category == "wrong-square" else None
            capture = move.to_sq in occupied
            if wrong is not None:
                provisional = self.set_down_wrong(move, wrong, afters)
            elif capture and self.category == "aside":
                provisional = self.capture_aside(move, afters)
            elif capture and self.category == "fast" and self.fast_after is not None:
                hands.step(move.from_sq, move.to_sq, capture=True, order="own first")
            else:
                self.carry(move.from_sq, move.to_sq, capture)
            occupied = (occupied - {move.from_sq}) | {move.to_sq}
            if move.spirit_from is None:
                self.knock(move.to_sq)
                return provisional
            if rng.random() < 0.3:
                hands.wait(STEP_PAUSE_LONG)
                complete = _complete_cards(board, move, afters)
                if len(complete) == 1 and provisional is None:
                    provisional = complete[0]
                    self.expect(move=str(provisional))
                elif len(complete) > 1 and provisional is None:
                    self.expect(prompt=_prompt(pos, {m.card for m in complete}))
            else:
                hands.wait(STEP_PAUSE_SHORT)
        spirit, to = (move.spirit_from, move.spirit_to) if move.wind_card else (move.from_sq, move.to_sq)
        if to in occupied:
            hands.swap(spirit, to, spirit_first=self.fast_after is not None and not pawn_step)
        else:
            self.carry(spirit, to, False)
        return provisional

    def carry(self, frm: int, to: int, capture: bool) -> None:
        hands, rng = self.hands, self.rng
        if self.category == "slides" and not capture and rng.random() < 0.4:
            # Slid along the mat: the magnet passes over empty squares on the way.
            hands.lift(frm)
            path = [sq for sq in range(25) if sq not in hands.occupied and sq not in (frm, to)
                    and square_distance(sq, frm) + square_distance(sq, to) <= square_distance(frm, to) + 1]
            for sq in rng.sample(path, min(len(path), rng.randint(1, 2))):
                hands.wait(SLIDE)
                hands.place(sq)
                hands.wait(SLIDE)
                hands.lift(sq)
            hands.wait(SLIDE)
            hands.place(to)
            return
        if self.category == "slides" and not capture and rng.random() < 0.3:
            hands.lift(frm)
            hands.wait(AIR)
            hands.place(to)
            return
        hands.step(frm, to, capture)

    def fidget(self, move: Move) -> None:
        """Slides category, before the turn: a pawn lifted and put back, or two lifted."""
        hands, rng, pos = self.hands, self.rng, self.board.position
        own = [sq for sq in range(25) if pos.piece_at(sq) in (("R", "r") if pos.turn == 0 else ("B", "b"))
               and sq not in (move.from_sq, move.to_sq, move.spirit_from, move.spirit_to)]
        if not own or rng.random() < 0.6:
            return
        sq = rng.choice(own)
        self.window = None   # the player has started: the last move stands
        hands.lift(sq)
        hands.wait((0.2, 1.0))
        hands.place(sq)
        hands.wait(THINK)

    def knock(self, to: int) -> None:
        """Slides category: the hand leaving the pawn knocks a neighbour off its switch."""
        hands, rng = self.hands, self.rng
        if self.category != "slides" or rng.random() < 0.6:
            return
        near = [sq for sq in hands.occupied if square_distance(sq, to) == 1]
        if near:
            hands.wait((0.02, 0.2))
            sq = rng.choice(near)
            hands._edge(sq, False)
            hands.wait(KNOCK)
            hands._edge(sq, True)

    def wrong_square(self, move: Move, afters: dict[Move, Position]) -> Move | None:
        """A legal square for the same pawn, empty, not winning, where the mover may set it
        down on the way (only for plain pawn moves)."""
        pos = self.board.position
        if move.wind_card or move.spirit_from is not None or self.rng.random() < 0.5:
            return None
        occupied = pos.occupied()
        options = [m for m, after in afters.items() if m.from_sq == move.from_sq and not m.wind_card
                   and m.to_sq != move.to_sq and m.to_sq not in occupied and m.spirit_from is None
                   and after.winner() is None]
        return self.rng.choice(options) if options else None

    def set_down_wrong(self, move: Move, wrong: Move, afters: dict[Move, Position]) -> Move | None:
        hands, board = self.hands, self.board
        hands.lift(move.from_sq)
        hands.travel(move.from_sq, wrong.to_sq)
        hands.place(wrong.to_sq)
        stay = _draw(self.rng, SET_DOWN, SETTLE_BAND)
        hands.now += stay
        provisional = None
        if stay > SETTLE_BAND[1]:
            prompt = _ambiguity(board, wrong, afters)
            if prompt:
                self.expect(prompt=prompt)
            else:
                self.expect(move=str(wrong))
                provisional = wrong
        hands.lift(wrong.to_sq)
        hands.travel(wrong.to_sq, move.to_sq)
        if move.to_sq in hands.occupied:
            hands.lift(move.to_sq)
            hands.wait(EXCHANGE)
        hands.place(move.to_sq)
        return provisional

    def capture_aside(self, move: Move, afters: dict[Move, Position]) -> Move | None:
        """The captor replaces the captured pawn, which is set down for a moment on the
        captor's origin or another empty square before it leaves the mat. Set down long enough
        where another move of the captor could have gone, it is that move, until the mover
        lifts it: then the turn is amended into the capture. Returns that move, if any."""
        hands, rng, board = self.hands, self.rng, self.board
        frm, to = move.from_sq, move.to_sq
        hands.lift(frm)
        hands.travel(frm, to)
        hands.lift(to)
        hands.wait(EXCHANGE)
        hands.place(to)
        hands.wait((0.05, 0.3))
        empty = [sq for sq in range(25) if sq not in hands.occupied]
        aside = frm if rng.random() < 0.5 else rng.choice(empty)
        hands.place(aside)
        stay = _draw(rng, ASIDE, SETTLE_BAND)
        hands.now += stay
        provisional = None
        if aside != frm and stay > SETTLE_BAND[1]:
            pos = board.position
            mat = frozenset(hands.occupied)
            alike = [m for m, after in afters.items() if after.occupied() == mat
                     and _looks(pos, m, after)[1] <= {frozenset((to,))}]
            if len(alike) == 1:
                provisional = alike[0]
                self.expect(move=str(provisional))
            elif alike:
                self.expect(prompt=_prompt(pos, {m.card for m in alike}))
        hands.lift(aside)
        return provisional

    def take_back(self, move: Move, before: Position) -> None:
        """The mover takes ``move`` back by hand, a capture in either order."""
        hands, board, rng = self.hands, self.board, self.rng
        after = board.position
        hands.wait(THINK)
        turn = Turn(f"takeback {move}")
        spirit_move = move.from_sq == before.spirit
        if spirit_move:
            if move.to_sq in before.occupied():
                hands.swap(move.from_sq, move.to_sq)
            else:
                hands.step(move.to_sq, move.from_sq, capture=False)
        elif move.to_sq in before.occupied():
            if rng.random() < 0.5:
                # Captor first: back to its square, then the captured pawn back on the mat.
                hands.lift(move.to_sq)
                hands.travel(move.to_sq, move.from_sq)
                hands.place(move.from_sq)
                hands.wait(EXCHANGE)
                hands.place(move.to_sq)
            else:
                # Captured pawn first: the captor in one hand, the captured pawn put back.
                hands.lift(move.to_sq)
                hands.wait(EXCHANGE)
                hands.place(move.to_sq)
                hands.wait(TRAVEL)
                hands.place(move.from_sq)
        else:
            hands.step(move.to_sq, move.from_sq, capture=False)
        turn.rest = hands.now
        afters = _afters(board)
        looks = (before.occupied(), _looks(before, move, after)[1])
        alike = [m.card for m, a in afters.items() if (a.occupied(), _looks(after, m, a)[1]) == looks]
        if alike:
            prompt = _prompt(after, set(alike), move)
            self.expect(prompt=prompt)
            hands.wait(ANSWER)
            turn.answered = self.answer(prompt["seat"], None, after.hands[after.turn], takeback=True)
        board.pop()
        self.expect(turn, True, takeback=str(move))
        self.out.turns.append(turn)
        self.window = None
        self.fast_after = None


def generate_game(seed: int, *, variant: str | None = None, max_turns: int = 50,
                  category: str = "calm") -> GeneratedGame:
    """A random legal game of ``variant`` (base or wind; random if None) as a mat trace, played
    by hands of ``category``."""
    return _Game(seed, variant, category).play(max_turns)


@dataclass
class Score:
    """What the companion understood of generated games, against what was played."""
    games: int = 0
    exact: int = 0              # games understood exactly (every decision as expected)
    moves: int = 0              # turns played
    committed: int = 0          # turns committed as played
    wrong: int = 0              # moves committed that were not played (or not then)
    wrong_games: int = 0
    derailed: int = 0           # games not exact, without a wrong commit
    prompts_expected: int = 0
    prompts_raised: int = 0
    amended: int = 0
    side: dict[str, int] = field(default_factory=dict)   # waiting, mismatch, ... counts
    delays: list[float] = field(default_factory=list)  # rest -> commit (or prompt), per turn
    problems: list[str] = field(default_factory=list)

    COUNTS = ("games", "exact", "moves", "committed", "wrong", "wrong_games", "derailed",
              "prompts_expected", "prompts_raised", "amended")

    def merge(self, other: "Score") -> None:
        for name in self.COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for k, v in other.side.items():
            self.side[k] = self.side.get(k, 0) + v
        self.delays += other.delays
        self.problems += other.problems

    def add(self, seed: int, game: GeneratedGame, output: list[dict], limit: float = 0.5) -> None:
        self.games += 1
        self.moves += len(game.turns)
        expect = game.expect
        self.prompts_expected += sum("prompt" in e.event for e in expect)
        kept = []
        for event in output:
            side = next((k for k in SIDE_EVENTS if k in event), None)
            if side:
                self.side[side] = self.side.get(side, 0) + 1
            else:
                kept.append(event)
        self.prompts_raised += sum("prompt" in e for e in kept)
        self.amended += sum(bool(e.get("amended")) for e in kept)
        problems = len(self.problems)
        wrong = 0
        for i, event in enumerate(kept):
            got = {k: v for k, v in event.items() if k != "t"}
            want = expect[i] if i < len(expect) else None
            if want is None or got != want.event:
                if "move" in got or ("takeback" in got and not got.get("amend")):
                    wrong += 1
                self.problems.append(f"{game.category} game {seed}: event {i}: got {got}, "
                                     f"expected {want.event if want else None}")
                break
            if want.final:
                self.committed += 1
                turn = want.turn
                if turn.answered is not None:
                    if abs(event["t"] - turn.answered) > 0.001:
                        self.problems.append(f"{game.category} game {seed}: {turn.move} committed "
                                             f"at {event['t']}, answered at {turn.answered}")
                    continue
                delay = event["t"] - turn.rest
                self.delays.append(delay)
                if not 0 <= delay <= limit:
                    self.problems.append(f"{game.category} game {seed}: {turn.move} decided "
                                         f"{delay:.3f} s after rest")
        else:
            if len(kept) < len(expect):
                self.problems.append(f"{game.category} game {seed}: missing {expect[len(kept)].event} "
                                     f"and {len(expect) - len(kept) - 1} more")
        self.wrong += wrong
        if len(self.problems) == problems:
            self.exact += 1
        elif wrong:
            self.wrong_games += 1
        else:
            self.derailed += 1

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
the air for seconds, put-backs, two pawns lifted and knocks (``slides``). The categories of
issue 21 (``habits.HABITS``: hurried starts, snatched replies, set-downs, captured pawns set down
aside, Wind Spirit takebacks, knocked neighbours, the Spirit moved straight back, questions
answered late or never, and more) are played by habits.py and questions.py.

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
from companion.rules.squares import parse_square, square_distance
from companion.tracetool import SETTLE_S

from glimpsing import Glimpses, lifted_since, stops
from habits import (FAST_STARTS, HABITS, QUESTIONS, ROBOTS, WIND_ONLY, after_landing, choose,
                    pawn_step, piece_step, rearrange, start)
from hands import (AIR, ANSWER, ASIDE, EXCHANGE, FAST, HOLD, KNOCK, LONG_THINK, SET_DOWN,
                   SETTLE_BAND, SLIDE, STEP_PAUSE_LONG, STEP_PAUSE_SHORT, THINK, TRAVEL, Hands)
from questions import Questions
from robothands import ROBOT_SETTLE, robot_turn
from tracelooks import (ambiguity, amendments, changed_squares, complete_cards, first_lift,
                        mat_looks, move_squares, near_squares, prompt_for, spirit_moved_back,
                        step_looks, turn_afters, whose_step)
from tracescore import SIDE_EVENTS, Score

__all__ = ["CATEGORIES", "SIDE_EVENTS", "GeneratedGame", "Score", "Turn", "generate_game",
           "variant_for"]

SETS = ("base", "senseis-path", "wind", "promo")
TIMELY = 0.5   # the longest a turn may take to commit after its rest (the spec)
CATEGORIES = ("calm", "fast", "wrong-square", "aside", "takeback", "unanswered", "slides",
              *HABITS)
# Timings of hands, in seconds. Clear of the recognizer's thresholds on purpose: a brush is


@dataclass
class Turn:
    """One turn (or takeback) as the trace plays it: ``start`` is the first switch transition
    its hands make (noise aside; None for a pass), ``rest`` its last (the mat at rest),
    ``answered`` the time of the answer that commits it, if one does at once. ``untimed``: its
    commit may rightly wait for something later than its rest (a question left open).
    ``decided_by``: the next player's hands started on a square this turn used or could still
    amend into before it could be committed at rest, so it is only certain once that reply
    rests (a snatched reply)."""
    move: str
    rest: float = 0.0
    answered: float | None = None
    start: float | None = None
    untimed: bool = False
    decided_by: float | None = None   # a later time the next hands settle it by (see below)


@dataclass
class Expect:
    """One output event the companion must decide, without its time. ``final``: the commit
    that leaves ``turn`` recorded as played (the one timed against the turn's rest)."""
    event: dict
    turn: Turn | None = None
    final: bool = False


@dataclass
class GeneratedGame:
    header: dict
    category: str = "calm"
    events: list[dict] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    expect: list[Expect] = field(default_factory=list)
    played: list[str] = field(default_factory=list)   # the record at the end
    noise: list[float] = field(default_factory=list)  # times of transitions that are noise

    def record_turns(self) -> list[Turn]:
        """The turns that stand at the end, in the record's order (takebacks applied)."""
        stack: list[Turn] = []
        for turn in self.turns:
            if turn.move.startswith("takeback "):
                stack.pop()
            else:
                stack.append(turn)
        return stack

    def lines(self) -> list[dict]:
        return [self.header, *self.events]

    def expected(self) -> list[dict]:
        """The output events, without times, in order (side events left out)."""
        return [e.event for e in self.expect]


def variant_for(category: str, seed: int) -> str:
    """The way of playing the bench and the tests give game ``seed`` of ``category``: half
    base, half Wind, or always Wind where the habit needs the Spirit."""
    return "wind" if category in WIND_ONLY or seed % 2 == 0 else "base"


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
                                  "variant": dealt.variant,
                                  **({"settle": ROBOT_SETTLE} if category in ROBOTS else {})},
                                 category)
        self.hands = Hands(self.rng, self.out.events, set(self.board.position.occupied()))
        # The last move committed while its mover may still amend it: (before, move, after).
        self.window: tuple[Position, Move, Position] | None = None
        self.fast_after: frozenset[int] | None = None   # the last turn's squares, if it may be
        #                                                 ended by a fast start
        self.unanswered: tuple | None = None             # a question left for after the reply
        self.questions = Questions(self, QUESTIONS.get(category, "now"))
        self.on_the_way: Move | None = None   # the turn the mat rested on during this one
        self.air_read: set[Move] = set()   # captures the mat showed while this turn's piece was held
        self.snatching = False   # this turn starts on a piece the last turn placed (snatch)
        # Chains of Spirit glimpses the mat cannot tell from fewer turns (glimpsing.py).
        self.glimpses = Glimpses(self.out.header.get("settle", SETTLE_S))
        self.mark = 0   # the hands' first event of the turn being played

    def expect(self, turn: Turn | None = None, final: bool = False, **event) -> None:
        self.out.expect.append(Expect(event, turn, final))

    def answer(self, seat: str, card: str | None, pos_hand: tuple[str, ...], *,
               takeback: bool = False, reply: list[str] | None = None) -> float:
        """The asked player answers (phone or buttons); returns the time. A button press is the
        one the shown prompt labels with the card meant (or the takeback): a player reads the
        OLED's map (``press``, resolved by the replay), whatever question it shows; the place
        of the card in ``pos_hand`` (the hand of the turn meant) only says whether the card
        has a button (A or B) when the expected question is shown."""
        hands, rng = self.hands, self.rng
        t = round(hands.now, 4)
        if takeback:
            hands.events.append({"t": t, "input": {"seat": seat, "takeback": True}} if rng.random() < 0.5
                                else {"t": t, "press": {"seat": seat, "takeback": True}})
        elif reply is not None:
            # The replying seat answers for its own step: on its phone, or C for its one card.
            hands.events.append({"t": t, "press": {"seat": seat, "card": card}}
                                if len(reply) == 1 and rng.random() < 0.5
                                else {"t": t, "input": {"seat": seat, "card": card}})
        elif card in pos_hand[:2] and rng.random() < 0.5:
            hands.events.append({"t": t, "press": {"seat": seat, "card": card}})
        else:
            hands.events.append({"t": t, "input": {"seat": seat, "card": card}})
        return t

    def answer_after(self, answer: dict) -> None:
        """A question left open at the game's end is answered on the phone, after a moment."""
        hands = self.hands
        hands.wait(ANSWER)
        hands.events.append({"t": round(hands.now, 4), "input": answer})

    def play(self, max_turns: int) -> GeneratedGame:
        hands, board = self.hands, self.board
        hands.wait((0.5, 2.0))
        for _ in range(max_turns):
            if board.is_game_over():
                break
            self.turn()
        if self.unanswered is not None:
            self.settle_unanswered(None)
        self.questions.answer_open()
        self.glimpses.finish(self.answer_after)
        hands.wait((1.0, 3.0))
        self.out.events.append({"t": round(hands.now, 4), "end": True})
        self.out.played = [str(m) for m in board.move_stack]
        self.out.noise = hands.noise
        return self.out

    def think(self, move: Move) -> bool:
        """The player to move thinks; returns whether they start fast (their first lift then
        ends the last turn, and its window)."""
        hands = self.hands
        first = first_lift(move)
        habit = start(self, move)
        if habit is not None:
            return habit
        if (self.category == "fast" and self.fast_after is not None and first is not None
                and first not in self.fast_after and self.unanswered is None):
            hands.wait(FAST)
            return True
        hands.wait(LONG_THINK if self.rng.random() < 0.1 else THINK)
        return False

    def turn(self) -> None:
        hands, board, rng = self.hands, self.board, self.rng
        self.questions.before_turn()
        window = self.window
        moves = list(board.legal_moves)
        move = choose(self, moves)
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
            others = [after for m, after in turn_afters(board).items() if m.is_pass and m != move]
            self.ask(turn, seat, move.card, pos.hands[pos.turn], alternatives=others,
                     number=len(board.move_stack) + 1)
            board.push(move)
            self.expect(turn, True, move=str(move))
            self.questions.after_turn(turn, pos, move, board.position)
            self.after_commit(turn, None, None)
            return
        afters = turn_afters(board)
        mark = self.mark = len(hands.events)
        if self.think(move):
            self.window = None
        turn = Turn(str(move))
        if self.category == "slides":
            self.fidget(move)
        whose = whose_step(self.window, board, move, afters, carried=self.category in ROBOTS)
        self.air_read = set()
        provisional = self.perform(move, afters, turn)
        after_landing(self, move)
        hands.finish()
        turn.rest = hands.now
        turn.start = self.first_edge(mark)
        self.reply_decides(window, turn, mark)
        if whose is not None:
            # The mat cannot tell the opponent's Spirit step from the last mover going on.
            self.expect(prompt=whose)
            before, done, _ = self.window
            shown = step_looks(pos, afters[move])
            theirs = [after for m, after in amendments(before, done).items()
                      if step_looks(pos, after) == shown]
            # The answer names the reply's card too: the reply's other cards that make the
            # same step (the prompt's reply choice) are answers the later turns must rule out.
            ours = [after for m, after in afters.items() if m != move and step_looks(pos, after) == shown]
            self.ask(turn, seat, move.card, pos.hands[pos.turn], reply=whose["reply"]["choose"],
                     alternatives=theirs + ours, number=len(board.move_stack) + 1)
            if turn.untimed and self.out.turns:
                self.out.turns[-1].untimed = True   # the last mover's turn is in question too
        if provisional is not None:
            self.amended(provisional, move, afters, turn)
        else:
            prompt = None if whose else (ambiguity(board, move, afters,
                                                   carried=self.category in ROBOTS)
                                         or self.air_read_as(move, turn))
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
                self.ask(turn, seat, move.card, pos.hands[pos.turn],
                         alternatives=self.alike(move, afters, prompt.get("takeback")),
                         number=len(board.move_stack) + 1)
            board.push(move)
            self.expect(turn, True, move=str(move))
        self.after_commit(turn, move, (pos, afters))
        odds = self.takeback_odds(pos, move)
        if odds and not board.is_game_over() and rng.random() < odds:
            self.take_back(move, pos)

    def takeback_odds(self, pos: Position, move: Move) -> float:
        """How likely the mover takes ``move`` back at once."""
        if self.category == "takeback":
            return 0.0 if move.wind_card else 0.35
        if self.category == "takeback-wind":
            return 0.35
        if self.category in ("late-answer", "no-answer"):
            # Mostly the Spirit's moves: taking one back may look like the opponent's reply.
            return 0.4 if move.from_sq == pos.spirit or move.wind_card else 0.05
        return 0.0

    def reply_decides(self, window: tuple | None, turn: Turn, mark: int) -> None:
        """Is the last turn settled only by this one's hands (see ``Turn.decided_by``)?"""
        if window is None or not self.out.turns or turn.start is None:
            return
        last = self.out.turns[-1]
        if turn.start - last.rest >= TIMELY:
            return
        noise = set(self.hands.noise)
        first = next(e["off"] for e in self.hands.events[mark:] if "off" in e and e["t"] not in noise)
        before, done, _ = window
        touched = move_squares(done).union(*(move_squares(m) for m in amendments(before, done)))
        if parse_square(first) in touched | self.taken_back_squares(before, done):
            last.decided_by = turn.rest

    def taken_back_squares(self, before: Position, done: Move) -> set[int]:
        """The squares of the Wind Spirit card turn before ``done`` (played from ``before``),
        if ``done`` moved the Spirit straight back along its Spirit step: the mat is also that
        turn being taken back, Spirit first (rule 5, as ``tracelooks.taken_back`` asks), and a
        lift of its pawn may be that takeback going on until the pawn lands elsewhere (fast 74:
        Red's Mouse c4b3 takes the Spirit back along Blue's Octopus c5d4 b3c4, and Blue's hand
        lifts d4 0.32 s later for Serow d4c4)."""
        stack = self.board.move_stack
        if len(stack) < 2 or stack[-1] != done or not spirit_moved_back(before, done, stack[-2]):
            return set()
        return move_squares(stack[-2])

    def first_edge(self, mark: int) -> float | None:
        """The first switch transition since event ``mark`` that is not noise."""
        noise = set(self.hands.noise)
        return next((e["t"] for e in self.hands.events[mark:]
                     if ("on" in e or "off" in e) and e["t"] not in noise), None)

    def ask(self, turn: Turn, seat: str, card: str | None, hand: tuple[str, ...], *,
            takeback: bool = False, reply: list[str] | None = None,
            alternatives: list[Position], number: int) -> None:
        """A question the mat cannot settle is due on ``turn``: answered now (``card`` or the
        takeback, from a phone or with the buttons), or left open by the category's hands.
        ``alternatives``: the positions every other answer leads to; ``number``: the turn the
        answer says something of (1: the game's first; the turn played with ``card``, or the
        one taken back), which a late answer names."""
        answer = {"seat": seat, "takeback": True} if takeback else {"seat": seat, "card": card}
        answer["turn"] = number
        if self.questions.ask(turn, answer, alternatives):
            return
        self.hands.wait(ANSWER)
        turn.answered = self.answer(seat, card, hand, takeback=takeback, reply=reply)

    def air_read_as(self, move: Move, turn: Turn) -> dict | None:
        """The held piece lands capturing after the other player re-seated a piece it could
        have taken (air-touch): the mat has shown that capture, and the two now look the same
        (the same squares emptied, each with one piece lifted and put back), so which card is
        asked; when one card makes both, no question can name the turn, and only the next
        turn's hands tell them apart (air-touch 39: Whale b3b4, the win, or Whale b3d3), so
        the turn is not timed."""
        cards = {m.card for m in self.air_read if m.to_sq != move.to_sq}
        if move.card in cards:
            turn.untimed = True
        if not cards or move.card in cards:
            return None
        return prompt_for(self.board.position, {move.card, *cards})

    def alike(self, move: Move, afters: dict[Move, Position], undo: str | None) -> list[Position]:
        """The positions of the other turns the mat cannot tell from ``move`` (and, with
        ``undo``, the turn the question offers to take back, the position before it: the last
        turn, or the one before it, tracelooks.taken_back)."""
        board = self.board
        pos = board.position
        shown = mat_looks(pos, move, afters[move])
        out = [after for m, after in afters.items() if m != move and mat_looks(pos, m, after) == shown]
        if undo is not None:
            undone = [board.pop()]
            if str(undone[0]) != undo:
                undone.append(board.pop())
            out.append(board.position)
            for last in reversed(undone):
                board.push(last)
        return out

    def calls_for_question(self, move: Move, afters: dict[Move, Position]) -> bool:
        """Does ``move``, played now, call for a question (the late-answer and no-answer
        hands prefer such turns)? ``afters``: the position after each legal turn."""
        board = self.board
        if move.is_pass:
            return True
        try:
            return bool(whose_step(self.window, board, move, afters) or ambiguity(board, move, afters))
        except ValueError:
            return False

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
        own = ambiguity(board, move, afters, undo=False)
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
        first, lifted = lifted_since(self.hands.events, self.hands.noise, self.mark)
        self.glimpses.after_turn(turn, move, played[0] if played else None, board.position,
                                 first, lifted)
        if move is not None and played is not None:
            vacated = move.from_sq if move.wind_card else None
            self.glimpses.hesitated(turn, move, played[0], board.position,
                                    stops(self.hands.events, self.hands.noise, self.mark,
                                          played[0], board.position, self.glimpses.settle,
                                          vacated))
        outcome = board.outcome()
        if outcome:
            self.expect(winner=outcome.winner, how=outcome.how)
        if move is None or board.is_game_over():
            question = self.questions.open
            if move is not None and question is not None and question.turn is not turn:
                # The game's last turn, played while a question is open: its commit waits
                # for the answer (given after the game), as any turn played meanwhile does.
                turn.untimed = True
            self.window = None
            self.fast_after = None
            return
        pos, afters = played
        self.questions.after_turn(turn, pos, move, board.position)
        self.window = (pos, move, board.position)
        self.fast_after = (near_squares(pos, move, afters) if self.category in FAST_STARTS
                           and turn.answered is None else None)

    def amended(self, provisional: Move, move: Move, afters: dict[Move, Position], turn: Turn) -> None:
        """The mat rested on ``provisional`` (committed), then the mover went on to ``move``."""
        board = self.board
        pos = board.position
        board.push(provisional)
        now = board.position
        looks = step_looks(now, afters[move])
        alike = [m for m, after in amendments(pos, provisional).items() if m != move
                 and step_looks(now, after) == looks]
        theirs = [m.card for m, after in turn_afters(board).items() if step_looks(now, after) == looks]
        board.pop()
        prompt = None
        if alike or theirs:
            prompt = prompt_for(pos, {move.card, *(m.card for m in alike)})
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
        if self.category in ROBOTS:
            return robot_turn(self, move, afters)
        pos = board.position
        occupied = set(pos.occupied())
        stepped = move.from_sq is not None and (move.wind_card or move.from_sq != pos.spirit)
        provisional = None
        if stepped:
            wrong = self.wrong_square(move, afters) if self.category == "wrong-square" else None
            capture = move.to_sq in occupied
            if wrong is not None:
                provisional = self.set_down_wrong(move, wrong, afters)
            elif capture and self.category == "aside":
                provisional = self.capture_aside(move, afters)
            elif capture and self.category == "fast" and self.fast_after is not None:
                hands.step(move.from_sq, move.to_sq, capture=True, order="own first")
            elif not pawn_step(self, move, capture):
                self.carry(move.from_sq, move.to_sq, capture)
            occupied = (occupied - {move.from_sq}) | {move.to_sq}
            if move.spirit_from is None:
                self.knock(move.to_sq)
                return provisional
            if rng.random() < 0.3:
                hands.wait(STEP_PAUSE_LONG)
                if provisional is None:
                    provisional = self.rested_on_pawn_step(move, afters)
            else:
                hands.wait(STEP_PAUSE_SHORT)
        spirit, to = (move.spirit_from, move.spirit_to) if move.wind_card else (move.from_sq, move.to_sq)
        self.on_the_way = provisional
        if to in occupied:
            hands.swap(spirit, to, spirit_first=self.fast_after is not None and not stepped)
        elif not piece_step(self, spirit, to, False):
            self.carry(spirit, to, False)
        return self.on_the_way

    def rested_on_pawn_step(self, move: Move, afters: dict[Move, Position]) -> Move | None:
        """The mat rests on a Wind Spirit card's pawn step alone: the one complete turn that
        looks like it is committed (returned), or the cards that do are asked."""
        board = self.board
        complete = complete_cards(board, move, afters)
        if len(complete) == 1:
            self.expect(move=str(complete[0]))
            return complete[0]
        if complete:
            self.expect(prompt=prompt_for(board.position, {m.card for m in complete}))
        return None

    def rested_on_the_way(self) -> None:
        """The mover's Spirit rests on an empty square on its way (set down a while): the one
        complete turn the mat then shows is committed (``on_the_way``, amended when the Spirit
        goes on: the next player may have a card for that step, a question), or the cards that
        show it are asked."""
        if self.on_the_way is not None:
            return
        board, shown = self.board, frozenset(self.hands.occupied)
        pos = board.position
        complete = [m for m, after in turn_afters(board).items()
                    if after.occupied() == shown and not changed_squares(pos, after)]
        if len(complete) == 1:
            self.on_the_way = complete[0]
            self.expect(move=str(complete[0]))
        elif complete:
            self.expect(prompt=prompt_for(pos, {m.card for m in complete}))

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
            hands.brush(rng.choice(near), KNOCK)

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
            prompt = ambiguity(board, wrong, afters)
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
                     and mat_looks(pos, m, after)[1] <= {frozenset((to,))}]
            if len(alike) == 1:
                provisional = alike[0]
                self.expect(move=str(provisional))
            elif alike:
                self.expect(prompt=prompt_for(pos, {m.card for m in alike}))
        hands.lift(aside)
        return provisional

    def take_back(self, move: Move, before: Position) -> None:
        """The mover takes ``move`` back by hand, a capture in either order."""
        hands, board, rng = self.hands, self.board, self.rng
        after = board.position
        self.questions.answer_open()
        hands.wait(THINK)
        mark = len(hands.events)
        turn = Turn(f"takeback {move}")
        spirit_move = move.from_sq == before.spirit
        if self.category != "takeback" and (move.wind_card or spirit_move or rng.random() < 0.5):
            rearrange(self, after, before, spirit_first=rng.random() < 0.5)
        elif spirit_move:
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
        turn.start = self.first_edge(mark)
        afters = turn_afters(board)
        looks = (before.occupied(), mat_looks(before, move, after)[1])
        alike = {m: a for m, a in afters.items() if (a.occupied(), mat_looks(after, m, a)[1]) == looks}
        if alike:
            prompt = prompt_for(after, {m.card for m in alike}, move)
            self.expect(prompt=prompt)
            self.ask(turn, prompt["seat"], None, after.hands[after.turn], takeback=True,
                     alternatives=list(alike.values()), number=len(board.move_stack))
        board.pop()
        self.expect(turn, True, takeback=str(move))
        self.out.turns.append(turn)
        self.glimpses.after_turn(turn, None, None, None, None, set())
        self.window = None
        self.fast_after = None


def generate_game(seed: int, *, variant: str | None = None, max_turns: int = 50,
                  category: str = "calm") -> GeneratedGame:
    """A random legal game of ``variant`` (base or wind; random if None) as a mat trace, played
    by hands of ``category``."""
    return _Game(seed, variant, category).play(max_turns)


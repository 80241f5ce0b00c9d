"""Questions answered late, or never: the hands of the ``late-answer`` and ``no-answer``
categories (and half of ``spirit-back``'s) leave a question the mat cannot settle open while
play goes on.

A question left open is answered on the asked seat's phone (a button names a card by its place
in a hand that has changed since), the answer naming the turn it is about (``"turn"``: the turn
played with its card, or the one taken back, as the phone would show it), after one or two
further turns (``late``), or never when the
turns played after it leave only the true history (``never``). Whether they do is worked out
from the rules alone: every other answer is a position (the other card's turn, the turn taken
back, the last mover's amendment instead of the reply, the other card given up), and each later
turn keeps only the positions from which a legal turn leaves the same mat as the turn played
(the occupancy, and the squares a hand must have emptied). When none is left, the question is
settled by the hands. A question the hands never settle, one still open when another is due, or
one open when a turn is taken back is answered then (late): the record could not be exact
otherwise, and the trace must stay a game the mat can follow.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.board import Board
from companion.rules.moves import Move
from companion.rules.position import Position

from hands import ANSWER
from tracelooks import mat_looks, turn_afters


@dataclass
class OpenQuestion:
    """A question left open: the answer to give (a phone input), the turn it is about, the
    positions every other answer leads to, and when to answer (after ``due`` further turns, or
    None: only if the hands do not settle it)."""
    answer: dict
    turn: object
    alternatives: list[Position]
    due: int | None
    turns_since: int = 0

    def observe(self, before: Position, move: Move, after: Position) -> None:
        """A further turn ``move`` was played from ``before``: keep the other answers' positions
        from which a legal turn leaves the same mat."""
        self.turns_since += 1
        shown = mat_looks(before, move, after)
        kept: dict[str, Position] = {}
        for pos in self.alternatives:
            board = Board(pos)
            if board.is_game_over():
                continue
            for other, nxt in turn_afters(board).items():
                if mat_looks(pos, other, nxt) == shown:
                    kept.setdefault(str(nxt), nxt)
        self.alternatives = list(kept.values())

    @property
    def settled(self) -> bool:
        return not self.alternatives


class Questions:
    """The one question a game's hands may leave open at a time."""

    def __init__(self, game, policy: str):
        self.game = game
        self.policy = policy
        self.open: OpenQuestion | None = None

    def ask(self, turn, answer: dict, alternatives: list[Position]) -> bool:
        """A question the mat cannot settle is due on ``turn`` (``answer``: the true answer as
        a phone input). Returns True if it is left open (the caller then does not answer)."""
        game = self.game
        self.answer_open()
        policy = self.policy
        if policy == "mixed":
            policy = game.rng.choice(("now", "never"))
        if policy == "now" or not alternatives:
            return False
        due = game.rng.randint(1, 2) if policy == "late" else None
        self.open = OpenQuestion(answer, turn, alternatives, due)
        turn.untimed = True
        return True

    def before_turn(self) -> None:
        """A late answer falls due before the next turn's hands start."""
        if self.open is not None and self.open.due is not None and self.open.turns_since >= self.open.due:
            self.answer_open()

    def after_turn(self, turn, before: Position, move: Move, after: Position) -> None:
        """A further turn was played: it may settle the question; until then, what it commits
        may wait for the answer (untimed)."""
        question = self.open
        if question is None or question.turn is turn:
            return
        question.observe(before, move, after)
        if question.settled and question.due is None:
            self.open = None
        elif not question.settled:
            turn.untimed = True

    def answer_open(self) -> None:
        """Answer the open question now, on the phone (a button names a card by its place in
        a hand that may have changed since)."""
        question, self.open = self.open, None
        if question is None:
            return
        hands = self.game.hands
        hands.wait(ANSWER)
        hands.events.append({"t": round(hands.now, 4), "input": question.answer})

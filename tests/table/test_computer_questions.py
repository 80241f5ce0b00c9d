"""Whose step was it, when it was the move made for the computer: the table answers with the
card of the move it asked for (issue 23, found by the Chromium robot in a Wind game: the mat
asked "Blue: which card? B: Rabbit or Red: Ox, Crab" after the hands made the computer's
"Ox b1b2", and waited for Red's phone; the computer has none, and no button offers two cards).

The recognizer is a stand-in holding the question, so the question is exactly the one seen.
"""

from __future__ import annotations

from types import SimpleNamespace

from companion.rules.actions import parse_action
from companion.table.computer import Expected
from companion.table.opponent import Opponent


class Asking:
    """A recognizer with a question waiting; it records the answers it is given."""

    def __init__(self, prompt: dict):
        self.prompt, self.answers = prompt, []

    def answer(self, t: float, seat: str, card: str, takeback: bool = False) -> list[dict]:
        self.answers.append((seat, card))
        return [{"move": "answered", "card": card}]


def game_asking(prompt: dict, text: str = "Ox b1b2") -> SimpleNamespace:
    return SimpleNamespace(recognizer=Asking(prompt), status="playing",
                           expected=Expected("red", text, parse_action(text), "computer"))


def test_the_computers_step_is_answered_by_the_table_as_the_reply():
    game = game_asking({"seat": "blue", "choose": ["Rabbit"],
                        "reply": {"seat": "red", "choose": ["Ox", "Crab"]}})
    events: list[dict] = []
    Opponent.answer_for_expected(game, events.extend)
    assert game.recognizer.answers == [("red", "Ox")]
    assert events == [{"move": "answered", "card": "Ox"}]


def test_the_computers_card_is_answered_when_it_is_asked_which_card():
    game = game_asking({"seat": "red", "choose": ["Ox", "Crab"]})
    Opponent.answer_for_expected(game, lambda events: None)
    assert game.recognizer.answers == [("red", "Ox")]


def test_a_question_the_expected_move_does_not_answer_is_left_to_the_players():
    # Neither the asked seat nor the reply is the computer's with its card: people answer.
    for prompt in ({"seat": "blue", "choose": ["Rabbit", "Eel"]},
                   {"seat": "blue", "choose": ["Rabbit"], "reply": {"seat": "red", "choose": ["Crab"]}}):
        game = game_asking(prompt)
        Opponent.answer_for_expected(game, lambda events: None)
        assert game.recognizer.answers == [], prompt

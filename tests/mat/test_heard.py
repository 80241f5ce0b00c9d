"""A kept phone answer is about one turn: the turn its number names after the turns the
question that offered it was asked after (session 40's spirit-back 9: a history that took a
turn back numbers another seat's turn the same)."""

from companion.mat.asking import LAST, Question
from companion.mat.heard import Heard
from companion.mat.record import Record
from companion.rules.board import Board

TWO_CARDS = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"


def _reply_question(first: str) -> Question:
    """Blue asked which card its reply to Red's ``first`` (turn 1) was played with (turn 2)."""
    board = Board(TWO_CARDS)
    red = board.push(first)
    horse = board.copy()
    elephant = board.copy()
    prefixes = {"Horse": frozenset({(red, horse.push("Horse b5b4"))}),
                "Elephant": frozenset({(red, elephant.push("Elephant b5c4"))})}
    return Question(0, LAST, {"seat": "blue", "choose": ["Horse", "Elephant"]},
                    {"Horse": 1, "Elephant": 1}, frozenset(), prefixes)


def test_a_kept_answer_is_taken_only_after_the_turns_it_was_offered_after():
    heard = Heard(1, Record(Board(TWO_CARDS), 0.6))
    shown = heard.asked(_reply_question("Ox a1a2"))
    assert shown.turns_of("Horse") == {2}
    # The phone's answer comes once the question is gone: it answers that question (asked
    # from the anchor the mat is still at), and is kept for turn 2.
    assert heard.hear(None, 2, "blue", "Horse", False) == ("Horse", shown)
    # Turn 2 asked about again, after another turn 1 (Boar, not Ox): not what Blue said.
    assert heard.take(heard.asked(_reply_question("Boar a1a2"))) is None
    assert heard.take(heard.asked(_reply_question("Ox a1a2"))) == "Horse"


def test_a_late_answer_offered_after_two_histories_answers_no_question_at_once():
    heard = Heard(1, Record(Board(TWO_CARDS), 0.6))
    heard.asked(_reply_question("Ox a1a2"))
    heard.asked(_reply_question("Boar a1a2"))
    # Which question the phone showed is not known: kept, for either.
    assert heard.hear(None, 2, "blue", "Horse", False) == (None, None)
    assert heard.take(heard.asked(_reply_question("Boar a1a2"))) == "Horse"


def test_an_answer_no_question_offered_is_kept_by_its_number_alone():
    heard = Heard(1, Record(Board(TWO_CARDS), 0.6))
    assert heard.hear(None, 2, "blue", "Horse", False) == (None, None)
    assert heard.take(heard.asked(_reply_question("Boar a1a2"))) == "Horse"


def _horse_or_elephant() -> Question:
    """Blue asked "Horse or Elephant?": the Horse option's history ends with Blue's Horse b5b4
    (turn 2); the Elephant option's plays Horse b5b4 too, then Red's Boar c1c2 (turn 3) and
    Blue's Elephant b4c3 (turn 4)."""
    board = Board(TWO_CARDS)
    ox = board.push("Ox a1a2")
    horse = board.push("Horse b5b4")
    boar = board.push("Boar c1c2")
    elephant = board.push("Elephant b4c3")
    prefixes = {"Horse": frozenset({(ox, horse)}),
                "Elephant": frozenset({(ox, horse, boar, elephant)})}
    return Question(0, LAST, {"seat": "blue", "choose": ["Horse", "Elephant"]},
                    {"Horse": 1, "Elephant": 1}, frozenset(), prefixes)


def test_an_answer_true_of_two_options_tells_none_apart():
    heard = Heard(1, Record(Board(TWO_CARDS), 0.6))
    shown = heard.asked(_horse_or_elephant())
    assert shown.turns_of("Horse") == {2} and shown.turns_of("Elephant") == {4}
    # Blue played Horse on turn 2 in both options' histories: the answer keeps both.
    assert heard.hear(shown, 2, "blue", "Horse", False) == (None, None)
    assert heard.hear(shown, 4, "blue", "Elephant", False) == ("Elephant", None)


def test_what_was_said_of_a_turn_taken_back_is_forgotten():
    heard = Heard(1, Record(Board(TWO_CARDS), 0.6))
    assert heard.hear(None, 2, "blue", "Horse", False) == (None, None)
    heard.taken_back(1, 2)   # of the two turns published from the anchor, turn 2 taken back
    assert heard.take(heard.asked(_reply_question("Ox a1a2"))) is None

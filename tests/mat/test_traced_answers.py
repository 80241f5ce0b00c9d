"""A trace's phone input is what the player tapped; the replay passes it on to the recognizer
as the table does (companion/table/answers.py): one naming a turn that no question raised
offered that seat is refused, as a phone never sends it."""

from companion.mat.recognizer import Recognizer
from companion.tracetool import replay

CALM = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"


def _heard(monkeypatch, answer: dict) -> list[tuple]:
    heard: list[tuple] = []
    real = Recognizer.answer

    def answer_spy(self, t, seat, card=None, *, takeback=False, turn=None):
        heard.append((seat, card, takeback, turn))
        return real(self, t, seat, card, takeback=takeback, turn=turn)

    monkeypatch.setattr(Recognizer, "answer", answer_spy)
    events = [{"t": 1.0, "off": "a1"}, {"t": 1.5, "on": "a2"}, {"t": 4.0, "input": answer},
              {"t": 6.0, "end": True}]
    list(replay({"position": CALM}, events))
    return heard


def test_an_answer_naming_a_turn_no_question_offered_is_refused(monkeypatch):
    # Ox a1a2 is read without a question: no phone was shown one about turn 2 or any other.
    assert _heard(monkeypatch, {"seat": "blue", "card": "Horse", "turn": 2}) == []
    assert _heard(monkeypatch, {"seat": "red", "takeback": True, "turn": 1}) == []


def test_an_answer_naming_no_turn_is_passed_on(monkeypatch):
    # (A button-like answer with no turn is checked against the open question by the recognizer.)
    assert _heard(monkeypatch, {"seat": "blue", "card": "Horse"}) == [("blue", "Horse", False, None)]

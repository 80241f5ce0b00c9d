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


def _pressed(monkeypatch, press: dict, at: float) -> tuple[list[str], list[tuple], list[dict]]:
    pressed: list[str] = []
    real = Recognizer.button

    def button_spy(self, t, name):
        pressed.append(name)
        return real(self, t, name)

    monkeypatch.setattr(Recognizer, "button", button_spy)
    heard = []
    events = [{"t": 1.0, "off": "a1"}, {"t": 1.5, "on": "a2"}, {"t": at, "press": press},
              {"t": 6.0, "end": True}]
    real_answer = Recognizer.answer

    def answer_spy(self, t, seat, card=None, *, takeback=False, turn=None):
        heard.append((seat, card, takeback, turn))
        return real_answer(self, t, seat, card, takeback=takeback, turn=turn)

    monkeypatch.setattr(Recognizer, "answer", answer_spy)
    out = list(replay({"position": CALM}, events))
    return pressed, heard, out


def test_a_press_is_the_button_the_shown_prompt_labels_with_the_card_meant(monkeypatch):
    # "Red: Ox or Boar?" shows A:Ox B:Boar. A generated player cannot see the OLED, but a real
    # one presses the button labelled with the card they mean, whatever hand they think of.
    for card, button in (("Boar", "B"), ("Ox", "A")):
        pressed, heard, out = _pressed(monkeypatch, {"seat": "red", "card": card}, 3.0)
        assert {"seat": "red", "choose": ["Ox", "Boar"], "buttons": {"Ox": "A", "Boar": "B"}} in [
            e.get("prompt") for e in out]
        assert (pressed, heard) == ([button], [])
        assert [e["move"] for e in out if "move" in e] == [f"{card} a1a2"]


def test_a_press_with_no_button_shown_is_a_phone_answer(monkeypatch):
    # Before the prompt (the pawn just set down) nothing is labelled: the player taps the phone,
    # which the table passes on as any answer naming no turn.
    pressed, heard, _ = _pressed(monkeypatch, {"seat": "red", "card": "Boar"}, 1.6)
    assert (pressed, heard) == ([], [("red", "Boar", False, None)])

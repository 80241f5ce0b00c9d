"""A phone's answer names the turn its question was about (the view's ``turns``): the page
sends it, and an answer for the turn asked about is taken. One naming another turn is kept
for that turn only if a question offered it to that seat (the recognizer's tests); else it is
refused, and no audience's view changes."""

from __future__ import annotations

from pathlib import Path

from companion.rules.squares import parse_square

from phone_helpers import act, everything, join, shadow_game, step, wait_for, table  # noqa: F401 (fixture)

SEAT_JS = Path(__file__).resolve().parents[3] / "companion" / "web" / "static" / "seat.js"


def blues_question(table):
    """Blue's phone asked "Ox or Crab?" for its master's step c5c4 (seed 23's first turn)."""
    c, sim = table.companion, table.hardware.sim
    red, blue = table.phone(), table.phone()
    join(red, c, "red")
    join(blue, c, "blue")
    shadow_game(table)
    act(red, c, "red", "Nd1")
    act(blue, c, "blue", "Nb5")
    sim.lift(parse_square("c5"))
    sim.place(parse_square("c4"))
    prompt = wait_for(lambda: c.view("blue")["mat"]["prompt"])
    return red, blue, prompt


def test_the_question_shows_the_turn_each_answer_names_and_the_page_sends_it(table):
    c = table.companion
    _, blue, prompt = blues_question(table)
    assert sorted(prompt["turns"]) == ["Crab", "Ox"] and len(set(prompt["turns"].values())) == 1
    assert all(isinstance(t, int) and t >= 1 for t in prompt["turns"].values())
    # The page's answer buttons send the turn shown with their card (or the takeback).
    script = SEAT_JS.read_text(encoding="utf-8")
    assert "answer(withTurn({ card }, turns, card))" in script
    assert "answer(withTurn({ takeback: true }, prompt.turns, 'takeback'))" in script
    answer = {"card": "Ox", "turn": prompt["turns"]["Ox"], "step": step(c.view("blue"))}
    assert blue.post("/seat/answer", json=answer).status_code == 200
    wait_for(lambda: c.view(None)["table"]["phase"] == "ninja")
    assert c.view(None)["table"]["card"] == "Ox"


def test_an_answer_naming_a_turn_never_asked_is_refused_and_changes_nothing(table):
    c = table.companion
    red, blue, prompt = blues_question(table)
    turn = prompt["turns"]["Ox"]
    before = everything(c)
    stale = {"card": "Ox", "turn": turn + 2, "step": step(c.view("blue"))}
    reply = blue.post("/seat/answer", json=stale)
    assert reply.status_code == 409 and "no longer asked" in reply.get_json()["error"]
    assert everything(c) == before and c.view("blue")["mat"]["prompt"] == prompt
    # The other seat cannot answer for Blue, whatever turn it names.
    forged = {"card": "Ox", "turn": turn, "step": step(c.view("red"))}
    assert red.post("/seat/answer", json=forged).status_code == 409
    assert everything(c) == before
    for bad in (0, -1, "1", True, 1.5):
        body = {"card": "Ox", "turn": bad, "step": step(c.view("blue"))}
        assert blue.post("/seat/answer", json=body).status_code == 400
    assert everything(c) == before

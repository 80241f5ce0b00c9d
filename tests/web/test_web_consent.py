"""Consent that cannot be mistaken, and requests that cannot land late.

A phone asking to take a held seat is answered on the companion's buttons A (allow) and B
(refuse); while the mat asks which card was played, A and B answer that question. The two
never share the buttons: the takeover waits until no question is pending, and a press always
answers what the OLED shows at that moment.

An action whose phone gave up waiting (the companion answered 503, busy) is never applied
afterwards: the phone was told it did not happen."""

from __future__ import annotations

import threading

import pytest

from companion.table.errors import Busy
from companion.web import create_app

from sim_table import sim_companion
from waiting import wait_for

START = frozenset(list(range(5)) + list(range(20, 25)))
# Red's Ox and Horse both take c1 to c2: the mat must ask which card (A: Ox, B: Horse).
CARDS = {"red": ["Ox", "Horse"], "blue": ["Monkey", "Crane"], "side": "Dragon"}


@pytest.fixture
def table(tmp_path):
    with sim_companion(tmp_path / "games.db") as sim:
        yield sim.companion, sim.hardware, create_app(sim.companion, secret_key=b"consent")


def token(companion, seat: str) -> str:
    return "/J/" + companion.join_url(seat).rsplit("/J/", 1)[1]


def asking_which_card(companion, hardware) -> None:
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": CARDS})
    hardware.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    hardware.sim.lift(2)
    hardware.sim.place(7)
    wait_for(lambda: companion.view(None)["mat"]["prompt"])


def test_a_takeover_asked_during_a_card_question_waits_for_the_answer(table):
    companion, hardware, app = table
    red, newcomer = app.test_client(), app.test_client()
    assert red.get(token(companion, "red")).status_code == 303
    asking_which_card(companion, hardware)
    assert newcomer.get(token(companion, "red")).status_code == 202
    # The OLED goes on asking the question: the takeover is not what A and B answer now.
    assert companion.view(None)["mat"]["prompt"] is not None
    assert "New phone for" not in companion.view(None)["oled"]
    hardware.sim.tap("A", 0.1)                       # Red answers "Ox"
    assert wait_for(lambda: companion.view(None)["table"]["log"]) == ["Ox c1c2"]
    # The press answered the card question, and only it.
    assert newcomer.get("/join/pending").get_json()["state"] == "waiting"
    assert red.get("/seat/view").status_code == 200
    assert newcomer.get("/seat/view").status_code == 403
    # Now the OLED asks about the takeover, and B refuses it.
    wait_for(lambda: companion.view(None)["oled"][:1] == ["New phone for"])
    hardware.sim.tap("B", 0.1)
    wait_for(lambda: newcomer.get("/join/pending").get_json()["state"] == "refused")
    assert red.get("/seat/view").status_code == 200


def test_a_card_question_comes_before_a_waiting_takeover(table):
    companion, hardware, app = table
    red, newcomer = app.test_client(), app.test_client()
    assert red.get(token(companion, "red")).status_code == 303
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": CARDS})
    hardware.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    assert newcomer.get(token(companion, "red")).status_code == 202
    wait_for(lambda: companion.view(None)["oled"][:1] == ["New phone for"])
    hardware.sim.lift(2)
    hardware.sim.place(7)                            # the mat now asks which card
    wait_for(lambda: companion.view(None)["mat"]["prompt"])
    wait_for(lambda: "New phone for" not in companion.view(None)["oled"])
    hardware.sim.tap("B", 0.1)                       # Red answers "Horse"
    assert wait_for(lambda: companion.view(None)["table"]["log"]) == ["Horse c1c2"]
    assert newcomer.get("/join/pending").get_json()["state"] == "waiting"


def test_an_action_the_phone_gave_up_on_is_never_applied(table, monkeypatch):
    companion, hardware, app = table
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 11})
    hardware.sim.set_pawns(frozenset((0, 2, 4, 20, 22, 24)))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    assert "red" in companion.view(None)["table"]["to_act"]      # Red places its Ninja
    # Hold the game thread on a long piece of work, as a slow save file would.
    release, held = threading.Event(), threading.Event()
    original = companion._request

    def slow(seat, request):
        if request.get("type") == "_stall":
            held.set()
            release.wait(10)
            return {"ok": True}
        return original(seat, request)
    monkeypatch.setattr(companion, "_request", slow)
    stall = threading.Thread(target=lambda: companion.submit(None, {"type": "_stall"}, timeout=30),
                             daemon=True)
    stall.start()
    assert held.wait(5)
    with pytest.raises(Busy):
        companion.submit("red", {"type": "action", "text": "Nb1"}, timeout=0.2)
    release.set()
    stall.join(5)
    monkeypatch.undo()
    wait_for(lambda: companion.submit("blue", {"type": "action", "text": "Nd5"}) is not None)
    # Everything queued before Blue's placement has run: Red's was dropped, not applied late.
    assert companion.view("red")["table"]["own_ninjas"] == []
    assert companion.view(None)["table"]["to_act"] == ["red"]

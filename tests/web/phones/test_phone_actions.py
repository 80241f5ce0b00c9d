"""A seat's actions and answers: what its own view offers is accepted; another seat's turn, a
replay, an illegal square or a malformed, oversized or cross-site request is refused with a
4xx JSON error, and no audience's view changes."""

from __future__ import annotations

import json
import threading

import pytest

from companion.rules.squares import parse_square
from companion.table.store import GameStore

from phone_helpers import JSON, act, everything, join, shadow_game, step, token_path, wait_for, table  # noqa: F401 (fixture)


@pytest.fixture
def seats(table):
    """Red's and Blue's phones in a Way of the Shadow game waiting for the Ninjas."""
    red, blue = table.phone(), table.phone()
    join(red, table.companion, "red")
    join(blue, table.companion, "blue")
    shadow_game(table)
    return red, blue


def test_ninjas_are_placed_from_the_phones_and_stay_secret(table, seats):
    c = table.companion
    red, blue = seats
    response = act(red, c, "red", "Nd1")
    assert response.status_code == 200
    shown = red.get("/seat/view").get_json()
    assert shown["table"]["own_ninjas"] == ["d1"]
    # The answer names the view that shows the step, and does not carry it (it grows with
    # the game: the page's stream brings it).
    assert response.get_json()["version"] == shown["version"] and "view" not in response.get_json()
    assert act(blue, c, "blue", "Nb5").status_code == 200
    assert c.view("red")["table"]["own_ninjas"] == ["d1"]
    assert "d1" not in json.dumps(blue.get("/seat/view").get_json()["table"]["ninjas"])
    assert "own_ninjas" not in c.view(None)["table"]


def test_refusals_change_nothing(table, seats):
    c = table.companion
    red, blue = seats
    act(red, c, "red", "Nd1")
    before = everything(c)
    refused = [
        (act(red, c, "red", "Nb1"), 409),                       # Red has placed already
        (act(blue, c, "blue", "Nc3"), 409),                     # not a square beside the master
        (act(blue, c, "blue", "Tiger a1a2"), 409),              # not a set-up step
        (blue.post("/seat/action", json={"text": "Nb5", "step": "3:ninja"}), 409),  # stale
        (blue.post("/seat/action", json={"text": "Nb5"}), 400),  # no step
        (blue.post("/seat/action", json={"text": 5, "step": "0:setup"}), 400),
        (blue.post("/seat/action", json={"text": "x" * 65, "step": "0:setup"}), 400),
        (blue.post("/seat/action", json={"text": "Nb5", "step": "0:setup", "seat": "red"}), 400),
        (blue.post("/seat/action", json=["Nb5"]), 400),
        (blue.post("/seat/action", data="{\"text\": ", headers=JSON), 400),
        (blue.post("/seat/action", data="[" * 2000 + "]" * 2000, headers=JSON), 400),
        (blue.post("/seat/action", data=b"\xff\xfe", headers=JSON), 400),
        (blue.post("/seat/action", data=" " * 5000, headers=JSON), 413),
        (blue.post("/seat/action", data="text=Nb5&step=0:setup"), 415),
        (blue.post("/seat/action", json={"text": "Nb5", "step": "0:setup"},
                   headers={"Origin": "http://evil.example"}), 403),
        (blue.post("/seat/action", json={"text": "Nb5", "step": "0:setup"},
                   headers={"Origin": "null"}), 403),
        (blue.post("/seat/answer", json={"card": "Tiger", "step": "0:setup"}), 409),
        (blue.post("/seat/answer", json={"card": "Tiger", "takeback": True, "step": "0:setup"}), 400),
        (blue.post("/seat/answer", json={"takeback": False, "step": "0:setup"}), 400),
        (blue.post("/seat/answer", json={"card": ["Tiger"], "step": "0:setup"}), 400),
        (blue.post("/seat/answer", json={}), 400),
        (blue.get("/seat/action"), 405),
    ]
    for response, status in refused:
        assert response.status_code == status, (response.request.path, response.get_json())
        assert response.is_json and response.get_json()["error"]
    assert everything(c) == before
    # Blue's own placement, sent properly, is still welcome; sent again, it is a replay.
    body = {"text": "Nb5", "step": step(c.view("blue"))}
    assert blue.post("/seat/action", json=body).status_code == 200
    after = everything(c)
    assert blue.post("/seat/action", json=body).status_code == 409
    assert everything(c) == after


def reds_ninja_step(table, seats) -> None:
    """Both Ninjas placed, Blue's first turn played; Red has moved on the mat and may now
    step its Ninja or skip (then comes its Lantern, which "skip" also declines)."""
    c, sim = table.companion, table.hardware.sim
    red, blue = seats
    act(red, c, "red", "Nd1")
    act(blue, c, "blue", "Nb5")
    # Blue starts (seed 23): a step of the master on the mat, which Ox and Crab both allow, so
    # the companion asks Blue's phone; then the Ninja step on the phone.
    sim.lift(parse_square("c5"))
    sim.place(parse_square("c4"))
    prompt = wait_for(lambda: c.view("blue")["mat"]["prompt"])
    assert prompt["seat"] == "blue" and sorted(prompt["choose"]) == ["Crab", "Ox"]
    assert red.post("/seat/answer", json={"card": "Ox", "step": step(c.view("red"))}).status_code == 409
    answer = {"card": "Ox", "step": step(c.view("blue"))}
    assert blue.post("/seat/answer", json=answer).status_code == 200
    wait_for(lambda: c.view(None)["table"]["phase"] == "ninja")
    assert c.view(None)["table"]["card"] == "Ox"
    assert blue.post("/seat/answer", json=answer).status_code == 409   # a replayed answer
    assert act(blue, c, "blue", "skip").status_code == 200        # Blue's first turn: no Lantern
    # Red's turn: a move on the mat that only one card allows, then two taps on "skip".
    moves = [a for a in c.view("red")["table"]["legal"] if a["kind"] == "move"]
    move = next(a for a in moves if sum((m["from"], m["to"]) == (a["from"], a["to"]) for m in moves) == 1
                and parse_square(a["to"]) not in sim.pawns)
    sim.lift(parse_square(move["from"]))
    sim.place(parse_square(move["to"]))
    wait_for(lambda: c.view(None)["table"]["phase"] == "ninja")


def test_a_double_tapped_skip_does_not_skip_the_lantern_too(table, seats):
    c = table.companion
    red, blue = seats
    reds_ninja_step(table, seats)
    tap = {"text": "skip", "step": step(c.view("red"))}
    assert red.post("/seat/action", json=tap).status_code == 200
    assert c.view(None)["table"]["phase"] == "lantern"
    assert red.post("/seat/action", json=tap).status_code == 409   # the second tap
    assert c.view(None)["table"]["phase"] == "lantern"
    # Blue cannot act on Red's turn, whatever it sends.
    assert act(blue, c, "blue", "skip").status_code == 409
    assert act(blue, c, "blue", "L3").status_code == 409
    assert act(red, c, "red", "L3").status_code == 200


def test_two_identical_step_guarded_actions_sent_together_land_once(table, seats, monkeypatch):
    """Two taps on "skip" sent at once: the first is being saved when the second arrives.
    The step guard runs with the action it guards, so exactly one is accepted (before the
    fix it was checked on the web thread against a view that did not show the first yet, and
    the second tap skipped the Lantern too)."""
    c = table.companion
    red, _ = seats
    reds_ninja_step(table, seats)
    tap = {"text": "skip", "step": step(c.view("red"))}
    assert tap["step"].endswith(":ninja")
    saving, release, second = threading.Event(), threading.Event(), threading.Event()
    append = GameStore.append

    def slow_append(store, *args, **kwargs):
        saving.set()                 # the first tap is being saved: hold it there ...
        release.wait(5)              # ... until the second tap has been handed on
        return append(store, *args, **kwargs)

    submit = c.submit

    def watched_submit(*args, **kwargs):
        if saving.is_set():
            second.set()
        return submit(*args, **kwargs)

    monkeypatch.setattr(GameStore, "append", slow_append)
    monkeypatch.setattr(c, "submit", watched_submit)
    statuses: list[int] = []
    start = threading.Barrier(2)

    def tap_once(wait_for_first: bool) -> None:
        start.wait()
        if wait_for_first:
            saving.wait(5)
        statuses.append(red.post("/seat/action", json=tap).status_code)

    phones = [threading.Thread(target=tap_once, args=(i == 1,)) for i in range(2)]
    for phone in phones:
        phone.start()
    second.wait(5)
    release.set()
    for phone in phones:
        phone.join(10)
    assert sorted(statuses) == [200, 409]
    table_ = c.view(None)["table"]
    assert table_["phase"] == "lantern" and table_["turn"] == "red"


def test_the_record_downloads_from_the_seat(table, seats):
    c = table.companion
    red, _ = seats
    response = red.get("/seat/record")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment")
    record = json.loads(response.get_data())
    assert record["kind"] == "public" and record["header"]["mode"] == "shadow"
    game = c.view("red")["game"]["id"]
    assert record == table.app.test_client().get(f"/games/{game}/record.json").get_json()


def test_no_record_before_a_game(table):
    phone = table.phone()
    join(phone, table.companion, "red")
    assert phone.get("/seat/record").status_code == 404


def test_an_action_from_a_phone_whose_seat_is_taken_over_on_the_way_is_refused(table, seats, monkeypatch):
    """The phone's seat is checked where the action runs, on the game thread: a takeover
    allowed after the web thread saw the seat held, before the action's turn, refuses it
    (before, the old phone still placed Red's Ninja)."""
    c, hw = table.companion, table.hardware
    red, _ = seats
    newcomer = table.phone()
    submit = c.submit

    def taken_over_first(*args, **kwargs):
        assert newcomer.get(token_path(c, "red")).status_code == 202
        hw.sim.tap("A", 0.1)
        wait_for(lambda: newcomer.get("/join/pending").get_json()["state"] == "allowed")
        return submit(*args, **kwargs)

    monkeypatch.setattr(c, "submit", taken_over_first)
    response = act(red, c, "red", "Nd1")
    assert response.status_code == 403 and "no longer holds" in response.get_json()["error"]
    monkeypatch.setattr(c, "submit", submit)
    assert c.view("red")["table"]["own_ninjas"] == []
    assert act(newcomer, c, "red", "Nd1").status_code == 200

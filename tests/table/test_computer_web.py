"""The computer, remote seats and hints through the web layer: the new-game form's options,
the seat page's hint request and a remote seat's move, as HTTP."""

from __future__ import annotations

import pytest

from companion.table.opponent import Thinking
from companion.web import create_app

from computer_helpers import set_up
from sim_table import sim_companion
from waiting import wait_for


@pytest.fixture
def site(tmp_path):
    with sim_companion(tmp_path / "games.db", computer=Thinking(nodes=300, hint_nodes=300),
                       settle=0.05) as t:
        yield t.companion, t.hardware, create_app(t.companion, secret_key=b"computer-test")


def joined(app, companion, seat):
    phone = app.test_client()
    token = companion.join_url(seat).rsplit("/J/", 1)[1]
    assert phone.get(f"/J/{token}").status_code == 303
    return phone


def step(companion, seat):
    t = companion.view(seat)["table"]
    return f"{len(t['log'])}:{t.get('phase', 'move')}"


def test_the_new_game_form_seats_the_computer_and_a_remote_player(site):
    companion, hw, app = site
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    assert 'id="ng-blue-player"' in page and 'value="computer:medium"' in page
    body = {"variant": "base", "seed": 3, "computer": {"blue": "hard"}, "remote": ["red"], "hints": 5}
    assert client.post("/api/new-game", json=body).status_code == 200
    game = client.get("/api/view").get_json()["game"]
    assert (game["computer"], game["remote"], game["hints"]) == ({"blue": "hard"}, ["red"], 5)
    for bad, message in (({"computer": {"green": "easy"}}, "unknown field 'green'"),
                         ({"computer": {"blue": "godlike"}}, "godlike"),
                         ({"remote": "red"}, "'remote'"), ({"hints": 100}, "'hints'")):
        response = client.post("/api/new-game", json={"variant": "base", **bad})
        assert response.status_code == 400 and message in response.get_json()["error"]
    assert client.get("/api/view").get_json()["game"]["id"] == 1


def test_a_remote_seat_sends_its_move_and_a_seat_asks_for_a_hint(site):
    companion, hw, app = site
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 3, "remote": ["red"],
                            "hints": 1})
    red, blue = joined(app, companion, "red"), joined(app, companion, "blue")
    set_up(companion, hw)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    # Red plays from afar: its page offers the legal moves; the mat waits for hands.
    text = companion.view("red")["table"]["legal"][0]["text"]
    answer = red.post("/seat/action", json={"text": text, "step": step(companion, "red")})
    assert answer.status_code == 200 and answer.get_json()["on_mat"] is True
    shown = red.get("/seat/view").get_json()
    assert answer.get_json()["version"] == shown["version"]
    expected = shown["game"]["expected"]
    assert {k: expected[k] for k in ("seat", "by", "text")} == {"seat": "red", "by": "remote", "text": text}
    assert " to " in expected["words"]           # the same move in players' words
    assert companion.view(None)["table"]["log"] == []
    # Blue, at the mat, may not ask for a hint on Red's turn; Red's hint is for the mat only.
    refused = blue.post("/seat/hint", json={"step": step(companion, "blue")})
    assert refused.status_code == 409
    assert red.post("/seat/hint", json={"step": step(companion, "red")}).status_code == 409
    assert red.post("/seat/hint", json={}).status_code == 400          # no step
    assert app.test_client().post("/seat/hint", json={"step": "0:move"}).status_code == 403

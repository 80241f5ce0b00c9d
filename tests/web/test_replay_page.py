"""The replay page's data: a saved game's steps with boards, hidden steps only once it is over."""

from __future__ import annotations

import pytest

from companion.rules.position import board_pieces
from companion.web import create_app
from sim_table import sim_companion
from waiting import wait_for

# Way of the Shadow, seed 23, to Blue's win (tests/browser/test_phone_games.py).
SHADOW = [("red", "Nd1"), ("blue", "Nb5"), ("blue", "Ox c5c4"), ("blue", "Sb5b4"),
          ("red", "Eel a1b1"), ("red", "Nd1c2"), ("red", "skip"),
          ("blue", "Tiger c4c2"), ("blue", "Nb4b5"), ("red", "Ox c1d1"), ("red", "Le"),
          ("blue", "Eel c2d1")]


@pytest.fixture
def site(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None) as table:
        yield table.companion, create_app(table.companion).test_client()


def lay_out(companion):
    companion._hw.sim.set_pawns(frozenset(board_pieces(companion.view(None)["table"]["position"])))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")


def test_hidden_steps_show_in_the_replay_only_once_the_game_is_over(site):
    companion, client = site
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 23})
    lay_out(companion)
    for n, (seat, text) in enumerate(SHADOW):
        companion.submit(seat, {"type": "action", "text": text})
        if n == 8:
            during = client.get("/games/1/replay.json").get_json()
        if companion.view(None)["table"]["result"] is None:
            lay_out(companion)
    # While it is played: the public turns, no boards, no Ninja squares.
    assert during["complete"] is False
    assert all(s["position"] is None and s["ninjas"] is None for s in during["steps"])
    assert "d1c2" not in str(during) and "b5b4" not in str(during)
    after = client.get("/games/1/replay.json").get_json()
    assert after["complete"] is True and after["result"] == {"winner": "blue", "how": "stone"}
    # Worded by the server (companion/rules/results.py), as the view words it: the page keeps no copy.
    assert after["result_words"] == companion.view(None)["result_words"] == {
        "head": "Blue wins", "line": "Way of the Stone", "sentence": "Blue wins by capturing the master"}
    assert during["result_words"] is None
    assert len(after["steps"]) == len(companion.view(None)["table"]["log"])
    red_turn = after["steps"][1]
    assert red_turn["words"] == "Red: Eel, a1 → b1; Ninja d1 → c2"
    assert red_turn["ninjas"] == {"red": ["c2"], "blue": ["b4"]}
    assert after["steps"][-1]["position"] == companion.view(None)["table"]["position"]
    page = client.get("/games/1/replay")
    assert page.status_code == 200 and b"replay.js" in page.data


def test_an_open_game_replays_with_its_boards(site):
    companion, client = site
    companion.submit(None, {"type": "new_game", "variant": "seven", "seed": 4})
    view = companion.view("red")
    companion.submit("red", {"type": "action", "text": view["table"]["legal"][0]["text"]})
    steps = client.get("/games/1/replay.json").get_json()
    assert steps["complete"] is True and steps["steps"][0]["position"] == companion.view(None)["table"]["position"]
    assert client.get("/games/9/replay.json").status_code == 404

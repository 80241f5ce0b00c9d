"""A computer seat that cannot choose a move says so: the OLED and both phones tell it, the
seat goes back to a person, and the game is not left "thinking" for ever."""

from __future__ import annotations

import random

import pytest

from companion.ai.agent import CannotMove
from companion.rules.actions import parse_action
from companion.table.opponent import Thinking

from computer_helpers import make_on_mat, set_up
from sim_table import sim_companion
from waiting import wait_for


class Stuck:
    """A computer that fails: the search's own refusal, or an error nobody foresaw."""

    def __init__(self, error: Exception):
        self.error = error
        self.asked = 0

    def choose(self, view):
        self.asked += 1
        raise self.error


@pytest.mark.parametrize("error", [CannotMove("the computer finds no move for red here"),
                                   RuntimeError("a bug in the search")])
def test_a_computer_that_cannot_move_hands_its_seat_back(tmp_path, error):
    stuck = Stuck(error)
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(players=lambda *_: stuck)) as t:
        companion, hw = t.companion, t.hardware
        # Fixed cards with a red stamp beside the mat: Red, the computer, moves first.
        companion.submit(None, {"type": "new_game", "variant": "base", "computer": {"red": "easy"},
                                "cards": {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"],
                                          "side": "Dragon"}})
        set_up(companion, hw)
        game = wait_for(lambda: (g := companion.view(None)["game"]).get("handed_back") and g, timeout=10,
                        message=lambda: f"still {companion.view(None)['game']}")
        assert stuck.asked == 1
        assert game["computer"] == {} and game["thinking"] is False and game["handed_back"] == "red"
        assert companion.view(None)["oled"][:2] == ["Computer stuck", "No move for Red:"]
        red, blue = companion.view("red"), companion.view("blue")
        assert red["headline"]["title"] == "The computer cannot move"
        assert blue["headline"] == {"title": "Red's turn", "detail": "The computer found no move "
                                    "for Red: a person plays Red now."}
        # Nothing of the error reaches the table or a phone (it may rest on the seat's secrets).
        assert str(error) not in str([companion.view(s) for s in (None, "red", "blue")])
        # A person makes Red's move on the mat, and it is played like any person's move.
        table = red["table"]
        move = parse_action(random.Random(1).choice(table["legal"])["text"])
        make_on_mat(hw, table["position"], move)
        wait_for(lambda: companion.view(None)["table"]["log"] == [str(move)])
        after = companion.view(None)["game"]
        assert after["handed_back"] is None and after["thinking"] is False and stuck.asked == 1


def test_the_hand_back_is_saved_a_restart_seats_a_person(tmp_path):
    """The seat handed back stays a person's after a restart: the computer is not seated again
    (it would be stuck again, or play a seat a person has taken over), and the game list says
    who plays it."""
    stuck = Stuck(CannotMove("the computer finds no move for red here"))
    db = tmp_path / "games.db"
    options = {"settle": 0.05, "computer": Thinking(players=lambda *_: stuck)}
    with sim_companion(db, public_url=None, **options) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "computer": {"red": "easy"},
                                "cards": {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"],
                                          "side": "Dragon"}})
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["handed_back"] == "red", timeout=10)
        game_id = companion.view(None)["game"]["id"]
    with sim_companion(db, public_url=None, **options) as t:
        companion, hw = t.companion, t.hardware
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        game = companion.view(None)["game"]
        assert game["id"] == game_id and game["computer"] == {} and game["thinking"] is False
        saved = next(g for g in companion.games() if g["id"] == game_id)
        assert saved["header"]["computer"] == {}
        # A person makes Red's move on the mat, and nobody asked the computer again.
        table = companion.view("red")["table"]
        move = parse_action(random.Random(2).choice(table["legal"])["text"])
        make_on_mat(hw, table["position"], move)
        wait_for(lambda: companion.view(None)["table"]["log"] == [str(move)], message=lambda: f"{move}: {companion.view(None)}")
        assert stuck.asked == 1

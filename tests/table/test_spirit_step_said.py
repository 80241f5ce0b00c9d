"""A pawn step that is both a regular card's whole turn and a Wind Spirit card's first step
(issue 23, Wind): the table announced the regular card's turn as over, "Blue to move" on the
OLED and the pages, while Red still had the Spirit's step to make. Until Blue starts, every
screen at the table (the OLED, the table and /sim pages, both phones) says the Spirit step
may follow, in the same words."""

from __future__ import annotations

import time

from companion.rules.squares import parse_square
from companion.table.opponent import Thinking

from computer_helpers import LIFTED_S, set_up
from sim_table import sim_companion
from waiting import wait_for

# Eagle's pawn steps are Elephant's too; its Spirit then steps from c3.
CARDS = {"red": ["Eagle", "Elephant"], "blue": ["Tiger", "Crab"], "side": "Dragon"}


def test_the_turn_is_not_said_to_be_over_while_its_spirit_step_may_follow(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05) as t:
        c, hw = t.companion, t.hardware
        c.submit(None, {"type": "new_game", "variant": "wind", "cards": CARDS})
        set_up(c, hw)
        wait_for(lambda: c.view(None)["game"]["status"] == "playing")
        hw.sim.lift(parse_square("e1"))
        time.sleep(LIFTED_S)
        hw.sim.place(parse_square("d2"))                  # Elephant e1d2, or Eagle's first step
        wait_for(lambda: c.view(None)["table"]["log"] == ["Elephant e1d2"])
        view = c.view(None)
        assert view["oled"][:4] == ["Red: Spirit step?", "Red may still move",
                                    "the Spirit (Eagle);", "else Blue to move"], view["oled"]
        assert view["instruction"] == {
            "title": "Red: Spirit step?",
            "detail": "Red may still move the Spirit (Eagle); if not, Blue makes a move on the mat."}
        assert c.view("red")["headline"] == {
            "title": "Spirit step?",
            "detail": "You may still move the Spirit (Eagle) on the mat; if not, Blue moves next."}
        assert c.view("blue")["headline"] == {                 # it said "Your turn" before
            "title": "Red: Spirit step?",
            "detail": "Red may still move the Spirit (Eagle); if not, it is your move."}
        hw.sim.lift(parse_square("b5"))                   # Blue starts: Red's turn is over
        wait_for(lambda: c.view(None)["oled"][0] == "Blue to move")
        assert c.view(None)["instruction"]["title"] == "Blue to move"
        assert c.view("red")["headline"]["title"] == "Blue's turn"


class Scripted:
    """The computer's choice: Elephant's whole move, whose pawn step is also Eagle's."""
    def choose(self, view) -> str:
        assert "Elephant e1d2" in view.legal
        return "Elephant e1d2"


def test_a_move_made_for_the_computer_is_not_said_to_have_a_spirit_step_to_come(tmp_path):
    # The move asked for was the whole move: nobody at the table is to go on with a Spirit.
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(players=lambda *_: Scripted(), hint_nodes=50)) as t:
        c, hw = t.companion, t.hardware
        c.submit(None, {"type": "new_game", "variant": "wind", "cards": CARDS,
                        "computer": {"red": "easy"}})
        set_up(c, hw)
        wait_for(lambda: (c.view(None)["game"]["expected"] or {}).get("text") == "Elephant e1d2")
        hw.sim.lift(parse_square("e1"))
        time.sleep(LIFTED_S)
        hw.sim.place(parse_square("d2"))
        wait_for(lambda: c.view(None)["table"]["log"] == ["Elephant e1d2"])
        assert c._game.recognizer.spirit_may_follow == ("red", ("Eagle",))    # the mat's view
        view = c.view(None)
        assert view["oled"][0] == "Blue to move", view["oled"]
        assert view["instruction"]["title"] == "Blue to move"
        assert "spirit" not in view["mat"]

"""News about a turn ends with it (issue 23, "every seat knows what to do"): the OLED said
"Red hint, 2 left / Lift a pawn, then: ..." on Blue's turn, for up to 4 s after Red had
moved (Chromium, a Wind game with a computer seat: over "Make Blue's move for the
computer"); and "Move taken back / ... / Play again" once the move was played again."""

from __future__ import annotations

import time

from companion.rules.squares import parse_square
from companion.table.opponent import Thinking

from service_helpers import playing
from sim_table import sim_companion
from waiting import wait_for

LIFTED_S = 0.12


def step(hw, frm: str, to: str) -> None:
    hw.sim.lift(parse_square(frm))
    time.sleep(LIFTED_S)
    hw.sim.place(parse_square(to))


def test_a_hint_and_a_takeback_are_not_announced_once_the_turn_is_played(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(hint_nodes=50)) as t:
        c, hw = t.companion, t.hardware
        playing(c, hw)                                          # Red: Tiger, Crab
        c.submit("red", {"type": "hint"})
        wait_for(lambda: c.view(None)["oled"][0] == "Red hint, 2 left")
        step(hw, "a1", "a2")                                    # Crab a1a2
        wait_for(lambda: c.view(None)["table"]["log"] == ["Crab a1a2"])
        assert c.view(None)["oled"][0] == "Blue to move", c.view(None)["oled"]
        step(hw, "a2", "a1")                                    # taken back
        wait_for(lambda: c.view(None)["table"]["log"] == [])
        assert c.view(None)["oled"][0] == "Move taken back", c.view(None)["oled"]
        step(hw, "e1", "e2")                                    # Crab e1e2, played again
        wait_for(lambda: c.view(None)["table"]["log"] == ["Crab e1e2"])
        assert c.view(None)["oled"][0] == "Blue to move", c.view(None)["oled"]

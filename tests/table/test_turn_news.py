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


def test_a_takeback_and_the_turn_made_instead_read_at_once_leave_no_takeback_on_the_next_turn(tmp_path):
    """The mat reads a takeback and the mover's other turn in one go (a hand quicker than the
    settle time, or a turn finished while the takeback was being read): the takeback's news
    was stamped with the game as it was first drawn, after the new turn, so "Move taken back /
    Crab, a1 to a2 / Red plays again" held the OLED on Blue's turn (issue 23, Wind)."""
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05) as t:
        c, hw = t.companion, t.hardware
        playing(c, hw)                                          # Red: Tiger, Crab
        step(hw, "a1", "a2")                                    # Crab a1a2
        wait_for(lambda: c.view(None)["table"]["log"] == ["Crab a1a2"])

        def quick_hands() -> list:
            # The recognizer reads hands at the times it is given (it never reads a clock):
            # Crab a1a2 taken back, then Crab e1e2, the mat never at rest in between.
            rec = c._game.recognizer
            t0, occ = time.monotonic(), set(rec.occupancy)
            events = []
            for dt, square, on in ((0.0, "a2", False), (0.1, "a1", True), (0.12, "e1", False),
                                   (0.25, "e2", True)):
                (occ.add if on else occ.discard)(parse_square(square))
                events += rec.update(t0 + dt, frozenset(occ))
            events += rec.advance(t0 + 0.4)
            c._recognized(events)
            return events

        events = c._thread.call(quick_hands)
        assert [e.get("takeback") or e["move"] for e in events if "takeback" in e or "move" in e] == [
            "Crab a1a2", "Crab e1e2"]
        assert c.view(None)["table"]["log"] == ["Crab e1e2"]
        assert c.view(None)["oled"][0] == "Blue to move", c.view(None)["oled"]

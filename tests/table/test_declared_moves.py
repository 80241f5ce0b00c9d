"""A move a seat away from the mat declared (its phone, the computer) is that seat's: the mat
may not take it back or amend it (the table robot, wind2 remote seed 112: red's phone sent
``Cobra d4c4``, the hands made it; blue's Wind card then moved the swapped pawn d4->e3 and
the Spirit c4->b4, the Spirit lifted as the pawn landed and put back on c4 for 0.13 s; the mat
read that as red's turn amended into ``Cobra d4e3`` and the log lost red's declared turn)."""

from __future__ import annotations

import time

from companion.rules.actions import parse_action
from companion.rules.squares import parse_square

from mat_moves import make_on_mat, set_up
from sim_table import sim_companion
from waiting import wait_for

DEAL = "bbBbb/5/2W2/5/rrRrr blue Octopus,Cobra Rhinoceros,Ox Goose"


def _log(companion) -> list[str]:
    return companion.view(None)["table"]["log"]


def _declared(companion, hw, text: str) -> None:
    """Red's phone sends ``text``; the hands at the table make it on the mat."""
    n = len(_log(companion))
    assert companion.submit("red", {"type": "action", "text": text}) == {"ok": True, "on_mat": True}
    make_on_mat(hw, companion.view(None)["table"]["position"], parse_action(text))
    wait_for(lambda: len(_log(companion)) > n)


def _from_blues_phone(companion, hw, text: str) -> None:
    companion.submit("blue", {"type": "action", "text": text})
    set_up(companion, hw)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")


def test_the_mat_does_not_amend_a_move_a_remote_seat_declared(tmp_path):
    # The robot's settle (tests/robot/table_robot.py SETTLE_S), under which the mat amended.
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.06) as t:
        companion, hw = t.companion, t.hardware
        sim = hw.sim
        companion.submit(None, {"type": "new_game", "variant": "wind", "wind_cards": 2,
                                "seed": 112, "remote": ["red"]})
        assert companion.view(None)["table"]["position"] == DEAL
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        _from_blues_phone(companion, hw, "Rhinoceros b5c4 c3e3")
        _declared(companion, hw, "Octopus d1c2 e3e4")
        _from_blues_phone(companion, hw, "Goose e4d4")
        _declared(companion, hw, "Cobra d4c4")          # the Spirit swaps with blue's pawn
        played = ["Rhinoceros b5c4 c3e3", "Octopus d1c2 e3e4", "Goose e4d4", "Cobra d4c4"]
        assert _log(companion) == played
        # Blue's Octopus d4e3 c4b4 as the robot's hands made it: the pawn lands as the Spirit
        # is lifted, and the Spirit is put back on c4 for a moment before it goes on.
        sq = parse_square
        sim.lift(sq("d4"))
        time.sleep(0.04)
        sim.lift(sq("c4"))
        sim.place(sq("e3"))
        time.sleep(0.21)
        sim.place(sq("c4"))
        time.sleep(0.13)
        sim.lift(sq("c4"))
        time.sleep(0.03)
        sim.place(sq("b4"))
        # The mat reads blue's move, or guides the pawns back to the position after red's
        # turn; either way red's declared turn stays played.
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            assert _log(companion)[:4] == played, _log(companion)
            time.sleep(0.02)
        if companion.view(None)["game"]["status"] == "sync":
            set_up(companion, hw)                         # the hands follow the lights
            wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
            make_on_mat(hw, companion.view(None)["table"]["position"],
                        parse_action("Octopus d4e3 c4b4"), lifted=0.3)
        wait_for(lambda: len(_log(companion)) == 5)
        assert _log(companion) == [*played, "Octopus d4e3 c4b4"]

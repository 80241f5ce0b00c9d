"""The computer's Wind Spirit card made on the mat, its Spirit put back on its square for a
moment (the table robot, wind4 computer seed 122): red, the computer, plays ``Octopus e1d2
c3b3``; the hands lift the Spirit in the scan its pawn lands on d2 and set it back on c3 for
0.13 s before it goes on to b3. At the robot's settle (0.06 s) the mat first reads the Spirit's
step onto d2, a swap (``Octopus e1d2 c3d2``: the same pieces on the same squares), then amends
it into the move made. The table refused the first reading at once, not the move asked for,
and put the mat out of sync: the amend never came, the turn was never played."""

from __future__ import annotations

import time

from companion.rules.squares import parse_square
from companion.table.opponent import Thinking

from mat_moves import set_up
from sim_table import sim_companion
from waiting import wait_for

DEAL = "bbBbb/5/2W2/5/rrRrr red Octopus,Bat Rhinoceros,Hawk Mantis"


class Plays:
    def __init__(self, text: str):
        self.text = text

    def choose(self, view) -> str:
        return self.text


def test_the_computers_spirit_put_back_for_a_moment_is_its_move_amended(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.06,
                       computer=Thinking(players=lambda *_: Plays("Octopus e1d2 c3b3"))) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "wind", "wind_cards": 4,
                                "seed": 122, "computer": {"red": "easy"}})
        assert companion.view(None)["table"]["position"] == DEAL
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["expected"])
        sq, sim = parse_square, hw.sim
        sim.lift(sq("e1"))
        time.sleep(0.03)
        sim.lift(sq("c3"))                 # the Spirit lifted as the pawn lands
        sim.place(sq("d2"))
        time.sleep(0.21)
        sim.place(sq("c3"))                # put back for a moment
        time.sleep(0.13)
        sim.lift(sq("c3"))
        time.sleep(0.04)
        sim.place(sq("b3"))
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            view = companion.view(None)
            assert view["game"]["status"] == "playing", (view["table"]["log"], view["mat"])
            if view["table"]["log"]:
                break
            time.sleep(0.01)
        wait_for(lambda: companion.view(None)["table"]["log"] == ["Octopus e1d2 c3b3"],
                 message=lambda: companion.view(None)["table"]["log"])
        assert companion.view(None)["game"]["status"] == "playing"

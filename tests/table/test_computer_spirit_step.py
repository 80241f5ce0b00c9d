"""A Wind Spirit card's move made for the computer step by step, as hands make it: the pawn's
step first, then the Spirit's (issue 23, found by the Chromium robot's wind2 game with a
computer seat: 4 games of 10 stuck).

The pawn's step alone is often another card's whole move ("Elephant e1d2" for the computer's
"Eagle e1d2 c3e5"): the mat reads it as such once it rests, and the table refused it at once
as a wrong move, guiding the pawn back while the hands went on with the Spirit. It is now
held, neither played nor refused, while its mover may finish it: the Spirit's step completes
the computer's move; the opponent starting instead makes it a wrong move after all.
"""

from __future__ import annotations

import time

import pytest

from companion.rules.squares import parse_square
from companion.table.opponent import Thinking

from computer_helpers import LIFTED_S, set_up
from sim_table import sim_companion
from waiting import wait_for

# Red (the computer) starts with Eagle, a Wind Spirit card, and Elephant: Eagle's pawn steps
# are Elephant's too. Eagle's Spirit step c3e5 swaps the Spirit with Blue's student on e5.
CARDS = {"red": ["Eagle", "Elephant"], "blue": ["Tiger", "Crab"], "side": "Dragon"}
MOVE = "Eagle e1d2 c3e5"


class Scripted:
    def choose(self, view) -> str:
        assert MOVE in view.legal
        return MOVE


@pytest.fixture
def table(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(players=lambda *_: Scripted(), hint_nodes=50)) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "wind", "cards": CARDS,
                                "computer": {"red": "easy"}})
        set_up(companion, hw)
        wait_for(lambda: (companion.view(None)["game"]["expected"] or {}).get("text") == MOVE)
        yield companion, hw


def lit(companion) -> set[int]:
    """The squares the LED scene lights (blinking or not)."""
    return {sq for sq, _ in companion._display._scene or ()}


def pawn_step(companion, hw) -> None:
    """The pawn's step, left at rest until the mat has read it."""
    hw.sim.lift(parse_square("e1"))
    time.sleep(LIFTED_S)
    hw.sim.place(parse_square("d2"))
    # Only the Spirit's step is left lit: c3 to e5.
    wait_for(lambda: lit(companion) == {parse_square("c3"), parse_square("e5")},
             message=lambda: f"{companion.view(None)['game']} lit {sorted(lit(companion))}")


def test_the_pawns_step_then_the_spirits_make_the_computers_move(table):
    companion, hw = table
    pawn_step(companion, hw)
    view = companion.view(None)
    assert view["game"]["status"] == "playing" and view["table"]["log"] == []
    assert view["oled"][:2] == ["Make Red's move", "for the computer:"]
    hw.sim.lift(parse_square("c3"), parse_square("e5"))
    time.sleep(LIFTED_S)
    hw.sim.place(parse_square("c3"), parse_square("e5"))
    wait_for(lambda: companion.view(None)["table"]["log"] == [MOVE])
    view = companion.view(None)
    assert view["game"]["status"] == "playing"
    # Nothing was played before it: the OLED does not call it amended.
    assert not any("amended" in line for line in view["oled"]), view["oled"]


def test_the_pawns_step_alone_is_a_wrong_move_once_the_opponent_starts(table):
    companion, hw = table
    pawn_step(companion, hw)
    hw.sim.lift(parse_square("b5"))          # Blue lifts a pawn of their own (no Spirit swap: not a5, e5)
    wait_for(lambda: companion.view(None)["game"]["status"] == "sync")
    assert companion.view(None)["table"]["log"] == []

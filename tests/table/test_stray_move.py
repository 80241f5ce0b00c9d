"""A pawn moved on the mat where no turn allows: the mat is out of sync and the LEDs guide it
back, and the table says which rule the step breaks (issue 11), on every page and, in short,
on the OLED. The reason is read from the public position alone: in Light & Shadow it never
depends on where the hidden Ninjas stand."""

from __future__ import annotations

import json
from contextlib import ExitStack

from companion.rules.squares import parse_square

from service_helpers import playing
from sim_table import sim_companion, sim_table  # noqa: F401 (fixture)
from test_table_ready import shadow
from waiting import wait_for

AUDIENCES = (None, "red", "blue")


def move(sim, frm: str, to: str) -> None:
    sim.lift(parse_square(frm))
    sim.place(parse_square(to))


def mismatched(companion) -> bool:
    return companion.view(None)["mat"]["state"] == "mismatch"


def test_a_pawn_moved_where_no_card_allows_says_why(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    playing(c, sim_table.hardware)                    # Red: Tiger, Crab
    move(sim, "a1", "b3")
    wait_for(lambda: mismatched(c))
    wait_for(lambda: c.view(None)["oled"][0] == "Not allowed")
    for who in AUDIENCES:
        assert c.view(who)["mat"]["reason"] == "Neither Tiger nor Crab moves a student from a1 to b3."
    assert c.view(None)["oled"] == ["Not allowed", "No card moves that", "move b3 back to a1",
                                    "or make a legal move"]
    move(sim, "b3", "a1")
    wait_for(lambda: c.view(None)["mat"]["state"] == "ok")
    assert "reason" not in c.view(None)["mat"] and c.view(None)["oled"][0] == "Red to move"


def test_a_pawn_of_the_player_not_to_move_says_whose_turn_it_is(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    playing(c, sim_table.hardware)
    move(sim, "b5", "b4")                             # Blue's pawn, on Red's turn
    wait_for(lambda: mismatched(c))
    assert c.view(None)["mat"]["reason"] == "It is Red's turn: Blue's pawn on b5 waits."
    wait_for(lambda: c.view(None)["oled"][:2] == ["Not allowed", "Red's turn"])


def test_two_pawns_out_of_place_keep_todays_words(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    playing(c, sim_table.hardware)
    move(sim, "a1", "b3")
    move(sim, "e1", "d3")
    wait_for(lambda: mismatched(c) and len(c.view(None)["mat"]["wrong"]) == 4)
    assert "reason" not in c.view(None)["mat"]
    wait_for(lambda: c.view(None)["oled"][0] == "Mat out of sync")


def public(companion) -> str:
    """Everything Blue and the public receive, and the OLED (the version counts updates)."""
    views = [{k: v for k, v in companion.view(who).items() if k != "version"}
             for who in (None, "blue")]
    return json.dumps(views, sort_keys=True)


def test_the_reason_is_the_same_wherever_the_hidden_ninja_stands(tmp_path):
    with ExitStack() as stack:
        twins = [stack.enter_context(sim_companion(tmp_path / f"twin-{i}.db")) for i in range(2)]
        for table, ninja in zip(twins, ("d1", "b1")):
            shadow(table, red_ninja=ninja)
            # Onto d1, where one twin's Red Ninja hides: no card moves e1 there, and that is
            # all anyone but Red may hear.
            move(table.hardware.sim, "e1", "d1")
        for table in twins:
            wait_for(lambda: mismatched(table.companion)
                     and table.companion.view(None)["oled"][0] == "Not allowed")
        assert public(twins[0].companion) == public(twins[1].companion)
        for table in twins:
            view = table.companion.view(None)
            assert view["mat"]["reason"] == "Neither Rabbit nor Eel moves a student from e1 to d1."
            assert view["oled"][1] == "No card moves that"
            assert "Ninja" not in json.dumps(view["mat"]) + " ".join(view["oled"])

"""Way of the Light at the table: the Shadow Master places from the phone, then the mat reads
the Light Master's move (a side without a master is not a side whose master was captured)."""

from __future__ import annotations

import pytest

from companion.rules.squares import parse_square

from phone_helpers import act, join, table, wait_for  # noqa: F401 (fixture)


def test_the_mat_reads_the_light_masters_move(table):
    c, sim = table.companion, table.hardware.sim
    blue = table.phone()
    join(blue, c, "blue")
    c.submit(None, {"type": "new_game", "variant": "light", "seed": 12})
    sim.set_pawns(frozenset(parse_square(s) for s in ("a1", "b1", "c1", "d1", "e1")))
    wait_for(lambda: c.view(None)["game"]["status"] == "playing")
    assert act(blue, c, "blue", "Na5 Nb5").status_code == 200
    sim.lift(parse_square("c1"))
    sim.place(parse_square("e2"))
    wait_for(lambda: c.view(None)["table"]["log"] == ["Dragon c1e2"], timeout=3)

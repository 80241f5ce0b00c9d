"""An amended move is announced as amended, never as a move taken back (issue 23: the OLED
said "Move taken back" for seconds on the opponent's turn after a turn was amended)."""

from __future__ import annotations

import time

from companion.rules.squares import parse_square

from service_helpers import playing
from sim_table import sim_table  # noqa: F401 (fixture)
from waiting import wait_for


def test_an_amendment_is_not_announced_as_a_takeback(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    playing(c, sim_table.hardware)                    # Red: Tiger, Crab
    sim.lift(parse_square("a1"))
    sim.place(parse_square("a2"))                     # Crab a1a2
    wait_for(lambda: len(c.view(None)["table"]["log"]) == 1)
    sim.lift(parse_square("a2"))
    sim.place(parse_square("a3"))                     # the same turn, amended: Tiger a1a3
    seen: list[list[str]] = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        seen.append(c.view(None)["oled"])
        time.sleep(0.02)
    assert c.view(None)["table"]["log"] == ["Tiger a1a3"], \
        c.view(None)["table"]["log"]
    assert any(lines[0] == "Red amended:" for lines in seen), sorted(set(map(tuple, seen)))
    assert not any(lines[0] == "Move taken back" for lines in seen), seen

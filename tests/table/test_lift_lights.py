"""A lifted piece lights every square it may go to, whatever the table announces meanwhile.

Issue 23, found by the robot's instruction checker in Shadow and Light: a piece lifted while
an announcement held its squares (a Lantern's sweep along a rank, a Strike's blink) showed
all but one of its destinations, and the announcement's square instead (light remote seed
100: b2 lifted, the sweep along rank 2 lit b2 and hid a2). The announcement held the mat
for seconds over the lights the player needs now. Here the announcement is held as long as
the test needs (no timing), and the scene the animator is given is read on the game thread.
"""

from __future__ import annotations

from dataclasses import replace

from companion.rules.referee import Event
from companion.rules.squares import parse_square
from companion.table import outputs

from computer_helpers import set_up
from sim_table import sim_companion
from waiting import wait_for


def scene(companion) -> dict:
    return companion._thread.call(lambda: dict(companion._display._scene or ()))


def test_a_lifted_pieces_destinations_show_through_an_announcement(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": 3})
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        seat = companion.view(None)["table"]["to_act"][0]
        legal = companion.view(seat)["table"]["legal"]
        frm = legal[0]["from"]
        dests = {parse_square(a["to"]) for a in legal if a["from"] == frm}
        # A Lantern searching the rank of one destination, and a Strike's blink on another:
        # announcements over the mat at rest, held for the whole test.
        rank = f"rank {min(dests) // 5 + 1}"
        shows = outputs.announcements([
            Event("lantern", "", True, data={"by": "blue", "line": rank}),
            Event("strike", "", True, data={"by": "blue", "hit": False, "square": frm[0] + rank[-1]})])
        held = [replace(show, seconds=600.0) for show in shows]
        companion._thread.call(lambda: companion._display.announce(held))
        wait_for(lambda: all(scene(companion).get(sq) == held[0].scene[sq] for sq in held[0].scene))
        # The piece is lifted: every destination steady in its card's colour, over the sweep.
        hw.sim.lift(parse_square(frm))
        wait_for(lambda: companion.view(None)["mat"]["state"] == "moving")
        wait_for(lambda: all(getattr(scene(companion).get(sq), "kind", None) == "steady" for sq in dests),
                 timeout=3.0, message=lambda: f"{frm} lifted, its destinations "
                 f"{sorted(dests)} under the announcement: {scene(companion)}")
        # The squares the lift does not need still show the announcement.
        rest = set(held[0].scene) - dests - {parse_square(frm)}
        assert rest and all(scene(companion)[sq] == held[0].scene[sq] for sq in rest)
        # Put back: the announcement has the squares again.
        hw.sim.place(parse_square(frm))
        wait_for(lambda: all(scene(companion).get(sq) == held[0].scene[sq] for sq in held[0].scene))

"""Issue 22, rows 2 and 3: in a way with secrets a hint is the asking seat's own.

It is graded from that seat's view, its own hidden Ninja included, so it shows on that seat's
phone board alone: never on the mat's LEDs nor the OLED, and twin games that differ only in
that Ninja show the table, the public and the opponent the same things. And it is spent only
when the seat asks from its phone: holding A at the table (anyone may) spends none."""

from __future__ import annotations

import time
from contextlib import ExitStack

from companion.rules.squares import parse_square
from companion.table import outputs
from companion.table.opponent import Thinking

from sim_table import sim_companion
from test_shadow_table import SHADOW_START
from waiting import wait_for

FAST = {"computer": Thinking(nodes=300, hint_nodes=300), "settle": 0.05, "public_url": None}


def shadow_game(stack: ExitStack, db, red_ninja: str):
    table = stack.enter_context(sim_companion(db, **FAST))
    companion, hw = table.companion, table.hardware
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 11})
    hw.sim.set_pawns(SHADOW_START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    companion.submit("red", {"type": "action", "text": red_ninja})
    companion.submit("blue", {"type": "action", "text": "Nd5"})
    wait_for(lambda: companion.view(None)["table"]["to_act"] == ["red"]
             and companion.view(None)["mat"]["state"] == "ok")
    return companion, hw


def seen_by_others(companion) -> tuple:
    companion._thread.call(lambda: None)
    return (companion.view(None), companion.view("blue"), tuple(companion.view(None)["oled"]),
            repr(companion._display._scene))


def test_a_hint_in_the_shadow_shows_on_the_askers_phone_only(tmp_path):
    with ExitStack() as stack:
        worlds = [shadow_game(stack, tmp_path / f"{n}.db", ninja) for n, ninja in (("a", "Nb1"), ("b", "Nd1"))]
        for companion, _ in worlds:
            assert companion.submit("red", {"type": "hint"})["left"] == 2
            hints = wait_for(lambda: companion.view("red")["hints"]["on"] and companion.view("red")["hints"])
            assert hints["grades"]               # on the phone: graded destinations
        oleds = [set(), set()]
        for square in ("a1", "c1", "e1"):        # each of Red's pawns lifted, in both worlds
            for (companion, hw), seen in zip(worlds, oleds):
                hw.sim.lift(parse_square(square))
            time.sleep(0.3)
            for (companion, hw), seen in zip(worlds, oleds):
                leds = companion.sim_state()["leds"]
                assert not any(tuple(round(c * 255 / max(rgb)) for c in rgb) in outputs.HINT_COLOURS.values()
                               for rgb in leds.values() if max(rgb)), leds
                seen.add(tuple(companion.view(None)["oled"]))
            a, b = (seen_by_others(c) for c, _ in worlds)
            assert a == b, f"the twins differ with {square} lifted"
            for companion, hw in worlds:
                hw.sim.place(parse_square(square))
            time.sleep(0.2)
        for seen in oleds:
            assert not any(lines[0].startswith("Hint") for lines in seen), seen


def test_holding_a_at_the_table_spends_no_hint_in_a_way_with_secrets(tmp_path):
    with ExitStack() as stack:
        companion, hw = shadow_game(stack, tmp_path / "a.db", "Nb1")
        companion.sim_button("A", long=True)
        said = wait_for(lambda: companion.view(None)["oled"][0].startswith(("Hint", "No hint"))
                        and companion.view(None)["oled"], timeout=5)
        hints = companion.view("red")["hints"]
        assert hints["left"] == 3 and not hints["on"] and not hints["asking"], said
        # (then what comes next, when it fits: outputs.with_next)
        assert said[1:3] == ["ask for one on", "your phone"]
        # The seat asks from its phone: then it is spent.
        assert companion.submit("red", {"type": "hint"})["left"] == 2


def test_the_same_announcement_shows_again(tmp_path):
    """Found by the table robot: a second "No hint" (a constant Show) never showed, since the
    first had kept the time it ended."""
    show = outputs.Show(0.2, ("Once more", "and again"), {})
    with sim_companion(tmp_path / "a.db", **FAST) as t:
        companion = t.companion
        for _ in range(2):
            companion._thread.call(lambda: companion._display.announce([show]))
            shown = lambda: companion.view(None)["oled"][:2] == list(show.lines)  # noqa: E731
            wait_for(shown, timeout=2)
            wait_for(lambda: not shown(), timeout=2)

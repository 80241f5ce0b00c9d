"""What players meet at the table, service side: a refusal only the mover may hear, the end of
the game on the LEDs, a takeback said aloud, a takeover question withdrawn with its phone, the
mat while a pawn is in the hand, the phone's headline, and turns counted as players count."""

from __future__ import annotations

import time


from companion.mat.recognizer import CLEAR_S

from companion.mat.feedback import PALETTE, pulse
from companion.rules.position import board_pieces
from companion.rules.squares import parse_square
from companion.table import seats as seats_module

from sim_table import sim_table  # noqa: F401 (fixture)
from waiting import wait_for

HAND_S = CLEAR_S + 0.07
SHADOW_START = [("red", "Nd1"), ("blue", "Nb5"), ("blue", "Ox c5c4"), ("blue", "Sb5b4")]
SHADOW_REST = [("red", "Eel a1b1"), ("red", "Nd1c2"), ("red", "skip"), ("blue", "Tiger c4c2"),
               ("blue", "Nb4b5"), ("red", "Ox c1d1"), ("red", "Le"), ("blue", "Eel c2d1")]


def lay_out(table) -> None:
    c = table.companion
    table.hardware.sim.set_pawns(frozenset(board_pieces(c.view(None)["table"]["position"])))
    wait_for(lambda: c.view(None)["game"]["status"] == "playing")


def play(table, script) -> None:
    c = table.companion
    for seat, text in script:
        c.submit(seat, {"type": "action", "text": text})
        if c.view(None)["table"]["result"] is None:
            lay_out(table)


def shadow(table, red_ninja="d1"):
    table.companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 23})
    lay_out(table)
    play(table, [("red", "N" + red_ninja), *SHADOW_START[1:]])


def test_a_pawn_onto_ones_own_hidden_ninja_is_refused_to_the_mover_alone(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    shadow(sim_table, red_ninja="b1")
    before = {who: c.view(who)["table"] for who in (None, "blue")}
    sim.lift(parse_square("a1"))
    sim.place(parse_square("b1"))                     # Eel a1b1: Red's own Ninja stands on b1
    wait_for(lambda: "notice" in c.view("red"))
    assert c.view("red")["headline"]["title"] == "Not allowed"
    assert "red's own Ninja stands on b1" in c.view("red")["notice"]
    for who in (None, "blue"):
        view = c.view(who)
        text = str({k: v for k, v in view.items() if k != "version"})
        # Nothing refused, nothing said: Red is still making the move.
        assert "Ninja stands" not in text and "Not allowed" not in text and "notice" not in view
        assert view["table"] == before[who] and view["game"]["status"] == "playing"
        assert view["mat"]["state"] == "moving"
    # The pawn goes back: the word to Red is gone, and Red plays another move.
    sim.lift(parse_square("b1"))
    sim.place(parse_square("a1"))
    wait_for(lambda: "notice" not in c.view("red") and c.view(None)["mat"]["state"] == "ok")


def test_the_winners_master_pulses_in_the_winners_colour(sim_table):
    c = sim_table.companion
    shadow(sim_table)
    play(sim_table, SHADOW_REST)
    assert c.view(None)["table"]["result"] == {"winner": "blue", "how": "stone"}
    wait_for(lambda: c._display._scene is not None and dict(c._display._scene)
             .get(parse_square("d1")) == pulse(PALETTE["blue"]))
    assert c.view("blue")["headline"]["title"] == "You win!"


def test_a_takeback_is_announced(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    c.submit(None, {"type": "new_game", "variant": "base", "seed": 5,
                    "cards": {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}})
    sim.set_pawns(frozenset(board_pieces(c.view(None)["setup"]["board"])))
    wait_for(lambda: c.view(None)["game"]["status"] == "playing")
    sim.lift(parse_square("c1"))
    wait_for(lambda: c.view(None)["mat"]["state"] == "moving")   # not "the mat matches"
    sim.place(parse_square("c3"))
    wait_for(lambda: c.view(None)["table"]["log"] == ["Tiger c1c3"])
    sim.lift(parse_square("c3"))
    sim.place(parse_square("c1"))
    wait_for(lambda: c.view(None)["table"]["log"] == [])
    # In players' words, not notation ("Tiger c1c3").
    wait_for(lambda: c.view(None)["oled"] == ["Move taken back", "Tiger, c1 to c3", "Red to move"])


def test_a_takeover_question_is_withdrawn_when_its_phone_goes_away(sim_table, monkeypatch):
    monkeypatch.setattr(seats_module, "GONE_S", 2.5)
    c = sim_table.companion
    c.redeem(c.join_url("red").rsplit("/J/", 1)[1])
    asking = c.redeem(c.join_url("red").rsplit("/J/", 1)[1])
    wait_for(lambda: c.view(None)["oled"][:1] == ["New phone for"])
    c.pending(asking["pending"])                    # the waiting page asks how it stands
    wait_for(lambda: c.view(None)["oled"][:1] != ["New phone for"], timeout=5)
    assert c.pending(asking["pending"])["state"] == "waiting"   # back again: asked again
    wait_for(lambda: c.view(None)["oled"][:1] == ["New phone for"])


def test_saved_games_count_turns(sim_table):
    c = sim_table.companion
    shadow(sim_table)
    game = c.games()[0]
    assert game["turns"] == len(c.view(None)["table"]["log"]) == 1 and game["actions"] == 4


def test_a_winning_move_both_cards_make_asks_no_card(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    c.submit(None, {"type": "new_game", "variant": "base", "seed": 5,
                    "cards": {"red": ["Tiger", "Crab"], "blue": ["Boar", "Ox"], "side": "Goose"}})
    sim.set_pawns(frozenset(board_pieces(c.view(None)["setup"]["board"])))
    wait_for(lambda: c.view(None)["game"]["status"] == "playing")
    play(sim_table, [("blue", "Boar a5a4"), ("red", "Tiger c1c3"), ("blue", "Ox c5c4")])
    # Red's master takes Blue's on c4: Boar and Crab both make that step, and both win.
    sim.lift(parse_square("c4"))
    wait_for(lambda: c.view(None)["mat"]["state"] == "moving")
    time.sleep(HAND_S)                              # the captured master is seen gone
    sim.lift(parse_square("c3"))
    sim.place(parse_square("c4"))
    wait_for(lambda: c.view(None)["table"]["result"] is not None, timeout=4)
    assert c.view(None)["table"]["result"] == {"winner": "red", "how": "stone"}
    assert c.view(None)["table"]["log"][-1] in ("Boar c3c4", "Crab c3c4")


def test_a_shadow_masters_win_lights_no_master():
    from companion.rules.referee import Result
    from companion.table.outputs import winner_scene
    # Way of the Light: the Shadow Master has no pawns, and the Light Master was taken.
    assert winner_scene("5/5/5/1r3/r3r", Result("blue", "stone")) == {}
    assert winner_scene("5/5/2R2/5/5", Result("red", "stream")) == {parse_square("c3"): pulse(PALETTE["red"])}

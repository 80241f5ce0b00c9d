"""Way of the Shadow, rule by rule, on hand-made positions."""

import pytest

from companion.rules.actions import NinjaMove, Place, Skip, Strike
from companion.rules.cards import CARDS, card_from_dict
from companion.rules.errors import (GameOverError, IllegalActionError, NotationError, NotYourTurnError,
                              RefereeError, VariantError)
from companion.rules.moves import Move
from companion.rules.shadow import ShadowReferee
from companion.rules.squares import parse_square as sq


def shadow(position, red="b1", blue="d5", cards=CARDS):
    ref = ShadowReferee(position, "shadow", cards=cards)
    ref.act("red", "N" + red)
    ref.act("blue", "N" + blue)
    return ref


START = "b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger"


def test_setup_beside_the_master_and_in_secret():
    ref = ShadowReferee(START, "shadow")
    assert ref.to_act() == ("red", "blue")
    assert ref.legal_actions("red") == [Place((sq("b1"),)), Place((sq("d1"),))]
    with pytest.raises(IllegalActionError, match="Nb1, Nd1"):
        ref.act("red", "Nc2")
    with pytest.raises(IllegalActionError, match="place"):
        ref.act("red", "Boar a1a2")
    ref.act("blue", "Nb5")
    assert ref.to_act() == ("red",)
    assert "b5" not in str(ref.view("red")["ninjas"]) and ref.view("red")["own_ninjas"] == []
    assert ref.view("blue")["own_ninjas"] == ["b5"]
    ref.act("red", "Nd1")
    assert ref.view("red")["phase"] == "move" and ref.to_act() == ("red",)


def test_turn_walks_move_ninja_exchange_lantern():
    ref = shadow(START)
    ref.act("red", "Boar a1a2")
    view = ref.view("red")
    assert view["phase"] == "ninja" and view["card"] == "Boar"
    assert {a["text"] for a in view["legal"]} >= {"Nb1b2", "Nb1a1", "skip"}
    assert "Nb1c1" not in {a["text"] for a in view["legal"]}   # its own master stands there
    ref.act("red", "Nb1b2")
    # The very first turn of the game has no Lantern step: Blue moves next.
    assert ref.view(None)["turn"] == "blue" and ref.view(None)["phase"] == "move"
    assert ref.log[-1].full == "Boar a1a2 Nb1b2" and ref.log[-1].public == "Boar a1a2"
    assert ref.view(None)["position"] == "b1B1b/5/5/r4/2R1r blue Tiger,Crab Monkey,Crane Boar"
    ref.act("blue", "Monkey a5b4")
    ref.act("blue", Skip())
    assert ref.view("blue")["phase"] == "lantern"          # the second player may search
    assert ref.legal_actions("blue")[-1] == Skip() and len(ref.legal_actions("blue")) == 11


def test_first_player_cannot_search_on_the_first_turn():
    ref = shadow(START)
    ref.act("red", "Boar a1a2")
    with pytest.raises(IllegalActionError, match="end of the turn"):
        ref.act("red", "L3")
    ref.act("red", Skip())
    assert ref.to_act() == ("blue",) and ref.state.lanterns == (2, 2)


def test_two_lanterns_one_per_turn_yes_or_no_announced_to_the_table():
    ref = shadow(START)
    ref.act("red", "Boar a1a2"); ref.act("red", Skip())
    ref.act("blue", "Monkey a5b4"); ref.act("blue", Skip())
    events = ref.act("blue", "L1")                           # Red's Ninja is on b1: rank 1
    answer = next(e for e in events if e.kind == "lantern_answer")
    # The owner announces it aloud, as the rulebook says: the whole table hears it.
    assert answer.data["answer"] is True and answer.public
    assert ref.to_act() == ("red",)                          # one Lantern, then the turn ends
    assert [e.kind for e in ref.events(None)].count("lantern_answer") == 1
    ref.act("red", "Tiger a2a4"); ref.act("red", Skip())
    ref.act("red", "Lc")                                     # Blue's Ninja is on d5: no
    search = {"ply": 2, "by": "red", "line": "file c", "answer": False}
    assert ref.view("red")["searches"][-1] == ref.view(None)["searches"][-1] == search
    assert ref.log[-1].public.endswith("Lc-")
    ref.act("blue", "Crane e5e4"); ref.act("blue", Skip()); ref.act("blue", "Ld")
    ref.act("red", "Crab e1e2"); ref.act("red", Skip()); ref.act("red", "L5")
    assert ref.state.lanterns == (0, 0)
    # No Lanterns left: the turn ends after the exchange.
    ref.act("blue", "Boar e4e3"); ref.act("blue", Skip())
    assert ref.to_act() == ("red",) and ref.view(None)["phase"] == "move"


def test_ninja_captures_a_pawn_and_is_revealed_until_its_next_turn():
    ref = shadow("b1B2/5/5/1b3/r1R1r red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Boar e1e2")
    events = ref.act("red", "Nb1b2")
    assert [e.kind for e in events if e.kind == "ninja_capture"] == ["ninja_capture"]
    assert all(e.public for e in events)
    assert ref.log[-1].public == "Boar e1e2 N?b2" and ref.log[-1].full == "Boar e1e2 Nb1b2"
    assert ref.view("blue")["ninjas"]["red"]["revealed"] == ["b2"]
    assert "1b3" not in ref.view(None)["position"]          # the student is gone
    ref.act("blue", "Monkey a5b4"); ref.act("blue", Skip()); ref.act("blue", Skip())
    assert ref.view(None)["ninjas"]["red"]["revealed"] == []  # back behind the screen


def test_a_revealed_ninja_can_be_captured_by_a_pawn():
    ref = shadow("2B2/5/b4/1b3/r1R1r red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Boar e1e2"); ref.act("red", "Nb1b2")
    events = ref.act("blue", "Monkey a3b2")
    assert any(e.kind == "ninja_captured" and e.public for e in events)
    ref.act("blue", Skip())      # Blue's Ninja stays; Red has no Ninja left: no Lantern step
    assert ref.state.ninjas[0] == () and ref.log[-1].public == "Monkey a3b2 xN"
    assert ref.to_act() == ("red",)


def test_a_pawn_landing_on_a_hidden_ninja_captures_it_then_one_move_per_turn():
    ref = shadow("b1B1b/5/3r1/5/2R1r red Tiger,Crab Monkey,Crane Boar")
    events = ref.act("red", "Tiger d3d5")
    captured = [e for e in events if e.kind == "ninja_captured"]
    assert captured and captured[0].public and captured[0].data["owner"] == "blue"
    ref.act("red", Skip())
    assert ref.log[-1].public == ref.log[-1].full == "Tiger d3d5 xN"
    assert ref.view(None)["ninjas"]["blue"] == {"alive": 0, "captured": 1, "revealed": []}
    ref.act("blue", "Monkey a5b4")
    # Blue's Ninja is gone: no Ninja step, straight to the Lantern step.
    assert ref.view("blue")["phase"] == "lantern"
    ref.act("blue", Skip())
    ref.act("red", "Boar e1e2")
    assert NinjaMove("Boar", sq("b1"), sq("b2")) in ref.legal_actions("red")
    assert not any(isinstance(a, Strike) for a in ref.legal_actions("red"))  # nothing to strike


def test_strike_that_hits_and_strike_that_misses():
    pos = "5/b1B1b/5/r1R1r/5 red Tiger,Crab Monkey,Crane Boar"
    ref = shadow(pos, red="b2", blue="b4")
    ref.act("red", "Tiger e2e4")
    events = ref.act("red", "Sb2b4")
    strike = next(e for e in events if e.kind == "strike")
    assert strike.public and strike.data["hit"] is True
    assert ref.state.ninjas == ((sq("b4"),), ())
    assert ref.log[-1].public == "Tiger e2e4 S?b4+" and ref.log[-1].full == "Tiger e2e4 Sb2b4+"
    assert ref.view("blue")["ninjas"]["red"]["revealed"] == ["b4"]

    ref = shadow(pos, red="b2", blue="d4")
    ref.act("red", "Tiger e2e4")
    events = ref.act("red", "Sb2b4")
    assert next(e for e in events if e.kind == "strike").data["hit"] is False
    assert ref.state.ninjas == ((sq("b4"),), (sq("d4"),))
    assert ref.view(None)["ninjas"]["red"]["revealed"] == ["b4"]   # revealed either way
    assert ref.log[-1].public == "Tiger e2e4 S?b4-"


def test_strike_only_onto_a_square_without_pawns():
    ref = shadow("5/b1Bb1/5/r1R1r/5 red Tiger,Crab Monkey,Crane Boar", red="d2", blue="b4")
    ref.act("red", "Tiger a2a4")
    with pytest.raises(IllegalActionError, match="without pawns"):
        ref.act("red", "Sd2d4")
    ref.act("red", "Nd2d4")
    assert ref.view(None)["position"].startswith("5/r1B2/")


def test_ninja_never_lands_on_its_own_pawns_and_pawns_never_on_their_ninja():
    ref = shadow(START, red="d1")
    assert Move("Boar", sq("e1"), sq("d1")) not in ref.legal_actions("red")
    with pytest.raises(IllegalActionError, match="own Ninja stands on d1"):
        ref.act("red", "Boar e1d1")
    ref.act("red", "Boar c1c2")
    with pytest.raises(IllegalActionError, match="own piece"):
        ref.act("red", "Nd1e1")
    assert NinjaMove("Boar", sq("d1"), sq("c1")) in ref.legal_actions("red")  # the master left


def test_two_ninjas_may_share_a_square():
    ref = shadow("5/b1B1b/5/r1R1r/5 red Tiger,Crab Monkey,Crane Boar", red="b2", blue="b4")
    ref.act("red", "Tiger e2e4")
    ref.act("red", "Nb2b4")
    assert ref.state.ninjas == ((sq("b4"),), (sq("b4"),))
    assert not [e for e in ref.events(None) if e.kind in ("strike", "ninja_captured")]


def test_no_main_board_move_pass_then_the_ninja_may_move():
    table = CARDS.with_cards([card_from_dict({"name": "West", "moves": [[-1, 0]]}),
                              card_from_dict({"name": "Up", "moves": [[0, 1]]})])
    ref = shadow("4R/5/5/5/B4 red West,Up Tiger,Crab Ox", red="d5", blue="b1", cards=table)
    # The master's only step lands on its own Ninja; Up leaves the board.
    assert ref.legal_actions("red") == [Move.pass_turn("West"), Move.pass_turn("Up")]
    ref.act("red", "West pass")
    assert ref.legal_actions("red") == [NinjaMove("West", sq("d5"), sq("c5")), Strike("West", sq("d5"), sq("c5")), Skip()]
    ref.act("red", "Nd5c5")
    assert ref.log[-1].full == "West pass Nd5c5" and ref.log[-1].public == "West pass"
    assert ref.view("red")["own_ninjas"] == ["c5"]
    assert ref.view(None)["position"].endswith("blue Ox,Up Tiger,Crab West")


def test_ninja_captures_the_master_and_wins():
    ref = shadow("b1B1b/5/5/5/r1R1r red Tiger,Crab Monkey,Crane Boar", red="b1", blue="d5")
    ref.act("red", "Crab a1a2"); ref.act("red", "Nb1b2")
    ref.act("blue", "Monkey e5d4"); ref.act("blue", Skip()); ref.act("blue", Skip())
    ref.act("red", "Tiger a2a4"); ref.act("red", "Nb2b4"); ref.act("red", Skip())
    # Red's Ninja steps from b4 to c5 with Monkey (diagonal) and takes the master.
    ref.act("blue", "Crane d4d3"); ref.act("blue", Skip()); ref.act("blue", Skip())
    ref.act("red", "Monkey a4b5")
    events = ref.act("red", "Nb4c5")
    assert ref.result.winner == "red" and ref.result.how == "stone"
    assert events[-1].kind == "game_over"
    assert ref.view("blue")["all_ninjas"] == {"red": ["c5"], "blue": ["d5"]}
    with pytest.raises(GameOverError):
        ref.act("blue", "skip")


def test_errors_name_the_rule_and_change_nothing():
    ref = shadow(START)
    before = ref.view("red"), ref.view("blue"), ref.view(None)
    with pytest.raises(NotYourTurnError, match="waiting for red"):
        ref.act("blue", "Monkey a5b4")
    with pytest.raises(IllegalActionError, match="not in red's hand"):
        ref.act("red", "Tiger a1a3")
    with pytest.raises(IllegalActionError, match="main-board move is mandatory"):
        ref.act("red", Skip())
    with pytest.raises(NotationError, match="no card has been played yet"):
        ref.act("red", "Nb1b2")
    with pytest.raises(IllegalActionError, match="after the main-board move"):
        ref.act("red", NinjaMove("Boar", sq("b1"), sq("b2")))
    with pytest.raises(IllegalActionError, match="must make it"):
        ref.act("red", "Boar pass")
    with pytest.raises(RefereeError):
        ref.act("green", "Boar a1a2")
    assert (ref.view("red"), ref.view("blue"), ref.view(None)) == before
    ref.act("red", "Boar a1a2")
    with pytest.raises(IllegalActionError, match="this turn's card, Boar"):
        ref.act("red", NinjaMove("Crab", sq("b1"), sq("b2")))


def test_undo_takes_back_the_last_action():
    ref = shadow(START)
    before = ref.view("red")
    ref.act("red", "Boar a1a2")
    ref.undo()
    assert ref.view("red") == before
    with pytest.raises(RefereeError, match="nothing to undo"):
        ShadowReferee(START).undo()


def test_not_combined_with_the_wind_or_conditional_cards():
    with pytest.raises(VariantError, match="Wind"):
        ShadowReferee("b1B1b/5/2W2/5/r1R1r red Tiger,Crab Monkey,Crane Boar")
    table = CARDS.with_cards([card_from_dict({"name": "Hop", "moves": [[0, 1]], "capture_only": [[1, 1]]})])
    with pytest.raises(VariantError, match="conditional"):
        ShadowReferee("b1B1b/5/5/5/r1R1r red Hop,Crab Monkey,Crane Boar", cards=table)


def test_the_stamp_picks_the_first_player():
    ref = ShadowReferee.deal("shadow", seed=3)
    assert ref.view(None)["position"].startswith("b1B1b/5/5/5/r1R1r")
    side = ref.state.pos.side[0]
    assert ref.view(None)["turn"] == ("blue" if CARDS[side].stamp == "blue" else "red")

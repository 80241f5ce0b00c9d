"""Way of the Light, rule by rule, on hand-made positions."""

import pytest

from companion.rules.actions import NinjaMove, Place, Skip
from companion.rules.cards import CARDS, card_from_dict
from companion.rules.errors import IllegalActionError, SetupError
from companion.rules.moves import Move
from companion.rules.shadow import ShadowReferee
from companion.rules.squares import parse_square as sq


def light(position, ninjas=("a5", "e5"), cards=CARDS):
    ref = ShadowReferee(position, "light", cards=cards)
    ref.act("blue", " ".join("N" + s for s in ninjas))
    return ref


def test_setup_two_ninjas_on_the_shadow_back_row_light_moves_first():
    ref = ShadowReferee("5/5/5/5/rrRrr blue Tiger,Crab Monkey,Crane Boar", "light")
    assert ref.to_act() == ("blue",)                 # only the Shadow Master places
    assert len(ref.legal_actions("blue")) == 10      # two of the five back-row squares
    with pytest.raises(IllegalActionError):
        ref.act("blue", "Na4 Nb5")
    ref.act("blue", "Nb5 Nd5")
    assert ref.view(None)["turn"] == "red"           # the Light Master starts, whatever the stamp
    assert ref.view("blue")["own_ninjas"] == ["b5", "d5"]
    assert "own_ninjas" not in ref.view(None) and ref.view("red")["own_ninjas"] == []
    assert ref.view(None)["lanterns"] == {"red": 2, "blue": 0}
    with pytest.raises(SetupError, match="no pawns"):
        ShadowReferee("b4/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Boar", "light")


def test_one_piece_per_turn_and_the_light_master_cannot_search_first():
    ref = light("5/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Boar a1a2")
    assert ref.to_act() == ("blue",) and ref.view(None)["phase"] == "move"   # no Lantern yet
    ref.act("blue", "Monkey Na5b4")
    assert ref.log[-1].public == "Monkey N?" and ref.log[-1].full == "Monkey Na5b4"
    assert ref.to_act() == ("red",)                  # one Ninja moved, and no Lanterns
    ref.act("red", "Tiger a2a4")
    assert ref.view("red")["phase"] == "lantern"


def test_the_shadow_master_must_move_a_ninja_when_possible():
    ref = light("5/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Boar a1a2")
    assert not any(isinstance(a, Move) for a in ref.legal_actions("blue"))
    with pytest.raises(IllegalActionError, match="no pawns: move a Ninja"):
        ref.act("blue", "Monkey pass")


def test_the_shadow_master_passes_when_no_ninja_can_move_and_nobody_can_tell():
    back = CARDS.with_cards([card_from_dict({"name": "Back", "moves": [[0, -1]]}),
                             card_from_dict({"name": "Far Back", "moves": [[0, -2]]})])
    ref = light("5/5/5/5/rrRrr red Boar,Crab Back,Far-Back Tiger", cards=back)
    ref.act("red", "Boar a1a2")
    assert ref.legal_actions("blue") == [Move.pass_turn("Back"), Move.pass_turn("Far Back")]
    ref.act("blue", "Back pass")
    assert ref.log[-1].public == "Back N?" and ref.log[-1].full == "Back pass"


def test_a_lantern_answers_yes_never_how_many():
    ref = light("5/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger", ninjas=("b5", "d5"))
    ref.act("red", "Boar a1a2")
    ref.act("blue", "Monkey Nb5c4")
    ref.act("red", "Tiger a2a4")
    events = ref.act("red", "L5")                     # only d5 is on rank 5 now
    answer = next(e for e in events if e.kind == "lantern_answer")
    assert answer.data["answer"] is True
    ref.act("blue", "Boar Nd5d4")
    ref.act("red", "Monkey a4b5")
    events = ref.act("red", "L4")                     # both Ninjas: still just "yes"
    answer = next(e for e in events if e.kind == "lantern_answer")
    assert answer.data == {"by": "red", "line": "rank 4", "answer": True}
    assert ref.log[-1].full.endswith("L4+") and ref.log[-1].public.endswith("L4+")


def test_the_light_master_wins_by_capturing_the_second_ninja():
    ref = light("5/r3r/5/5/2R2 red Boar,Elephant Monkey,Crane Tiger")
    events = ref.act("red", "Boar a4a5")
    assert any(e.kind == "ninja_captured" for e in events) and ref.result is None
    assert ref.view(None)["ninjas"]["blue"]["alive"] == 1
    ref.act("blue", "Monkey Ne5d4")
    events = ref.act("red", "Elephant e4d4")
    assert ref.result.winner == "red" and ref.result.how == "ninjas"
    assert events[-1].kind == "game_over"


def test_a_ninja_captures_a_light_student_and_stays_revealed_until_its_next_turn():
    ref = light("5/4r/5/5/2R2 red Boar,Elephant Monkey,Crane Tiger")
    ref.act("red", "Boar c1c2")
    ref.act("blue", "Crane Ne5e4")
    assert ref.log[-1].public == "Crane N?e4"
    assert ref.view("red")["ninjas"]["blue"]["revealed"] == ["e4"]
    ref.act("red", "Elephant c2d2")
    assert ref.view(None)["ninjas"]["blue"]["revealed"] == ["e4"]   # all through Red's turn
    ref.act("red", Skip())
    assert ref.view(None)["ninjas"]["blue"]["revealed"] == []       # Blue's turn begins


def test_the_shadow_master_wins_only_by_capturing_the_master():
    ref = light("5/5/5/2R2/5 red Boar,Elephant Monkey,Crane Tiger", ninjas=("b5", "d5"))
    ref.act("red", "Elephant c2b3")
    ref.act("blue", "Crane Nb5b4")
    ref.act("red", "Boar b3a3"); ref.act("red", Skip())
    ref.act("blue", "Monkey Nb4a3")
    assert ref.result.winner == "blue" and ref.result.how == "stone"


def test_the_light_master_wins_by_the_temple_arch():
    ref = light("5/2R2/5/5/5 red Boar,Elephant Monkey,Crane Tiger", ninjas=("a5", "b5"))
    ref.act("red", "Boar c4c5")
    assert ref.result.winner == "red" and ref.result.how == "stream"


def test_strikes_do_not_exist_in_the_way_of_the_light():
    ref = light("5/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Boar a1a2")
    with pytest.raises(IllegalActionError):
        ref.act("blue", "Monkey Sa5b4")
    ref.act("blue", NinjaMove("Monkey", sq("a5"), sq("b4")))
    assert Place((sq("a5"), sq("e5"))) not in ref.legal_actions("red")
    with pytest.raises(IllegalActionError, match="Light Master has no Ninja"):
        ref.act("red", NinjaMove("Boar", sq("a2"), sq("a3")))


def test_a_two_word_cards_step_and_pass_look_alike_and_replay():
    # The Shadow Master's step and its pass are told apart by nothing public, Sea Snake's
    # too (the public text once wrote "Sea Snake N?" for a step, "Sea-Snake N?" for a pass),
    # and its step's full text is one the notation reads back (a record replays).
    ref = light("5/5/5/5/rrRrr red Boar,Crab Sea-Snake,Crane Tiger")
    ref.act("red", "Boar c1c2")
    step = next(a for a in ref.legal_actions("blue") if getattr(a, "card", None) == "Sea Snake")
    ref.act("blue", step)
    turn = ref.log[-1]
    assert turn.public == "Sea-Snake N?"
    assert ref.parse("blue", turn.full) == step

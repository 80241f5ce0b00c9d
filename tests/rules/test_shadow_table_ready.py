"""Way of the Shadow: the steps a seat is offered, and who learns why an action is refused."""

import pytest

from companion.rules.errors import IllegalActionError
from companion.rules.shadow import ShadowReferee

# Blue moves first; Red's student on a4 can take b5 with Monkey.
START = "b1B1b/r4/5/5/2R1r blue Monkey,Crab Boar,Crane Tiger"


def game(red="d1", blue="b5"):
    ref = ShadowReferee(START, "shadow")
    ref.act("red", "N" + red)
    ref.act("blue", "N" + blue)
    ref.act("blue", "Boar e5e4")
    ref.act("blue", "skip")
    return ref


def test_no_lantern_once_the_enemy_has_no_ninja_left():
    ref = game()
    ref.act("red", "Monkey a4b5")                 # onto Blue's hidden Ninja: captured
    assert ref.view(None)["ninjas"]["blue"]["alive"] == 0
    ref.act("red", "skip")                         # Red's own Ninja stays
    # Nothing to find: the turn ends without a Lantern step, for everyone to see.
    assert ref.view(None)["phase"] == "move" and ref.to_act() == ("blue",)
    assert ref.state.lanterns[0] == 2


def test_a_lantern_while_the_enemy_ninja_lives():
    ref = game()
    ref.act("red", "Monkey a4b5")
    ref.act("red", "skip")
    ref.act("blue", "Tiger e4e2")                 # no Ninja step: Blue's is gone
    # Red's Ninja still lives: Blue may search for it.
    assert ref.view("blue")["phase"] == "lantern"


def test_a_pawn_onto_ones_own_hidden_ninja_is_refused_in_private():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    ref.act("red", "Nb1")
    ref.act("blue", "Nd5")
    before = (ref.view(None), ref.view("blue"), ref.view("red"))
    with pytest.raises(IllegalActionError) as refused:
        ref.act("red", "Boar a1b1")
    # Red's phone may say why; to everyone else nothing was refused.
    assert refused.value.private_reason == "red's own Ninja stands on b1"
    assert refused.value.public_reason is None
    assert (ref.view(None), ref.view("blue"), ref.view("red")) == before


def test_a_public_rule_has_the_same_reason_for_everyone():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    ref.act("red", "Nb1")
    ref.act("blue", "Nd5")
    with pytest.raises(IllegalActionError) as refused:
        ref.act("red", "Boar c1c3")
    assert refused.value.public_reason == refused.value.private_reason
    assert "Boar" in refused.value.public_reason

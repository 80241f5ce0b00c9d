"""Views: plain data, each seat told only what it may know; the opponent's and the public
view do not change when a hidden Ninja moves instead of staying."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import selfplay, shadow
from companion.rules.actions import NinjaMove, Skip
from companion.rules.moves import Move
from companion.rules.shadow import ShadowReferee
from companion.rules.ways import new_referee


def _others(ref, seat):
    return [ref.view(s) for s in ("red", "blue") if s != seat] + [ref.view(None)]


def _told(events, seat):
    return [[e.as_dict() for e in events if e.reaches(o)]
            for o in [s for s in ("red", "blue") if s != seat] + [None]]


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(["shadow", "light"]), seed=st.integers(0, 2**31 - 1))
def test_a_hidden_ninja_moving_or_staying_looks_the_same_to_everyone_else(mode, seed):
    rng = random.Random(seed)
    ref = ShadowReferee.deal(mode, seed=seed)
    compared = 0
    while ref.result is None and len(ref.log) < 60:
        seat = rng.choice(ref.to_act())
        actions = ref.legal_actions(seat)
        enemy = ref.state.pos.pawns(1 - ("red", "blue").index(seat))
        quiet = [a for a in actions if isinstance(a, NinjaMove) and not enemy >> a.to & 1]
        # The alternative a seat had: its Ninja staying (Skip), or, for the Shadow Master
        # who must move, another quiet Ninja step with the same card.
        stay = Skip() if Skip() in actions else next(
            (a for a in quiet[1:] if a.card == quiet[0].card), None) if quiet else None
        if quiet and stay is not None:
            moved, stayed = ref.copy(), ref.copy()
            told_moved = moved.act(seat, quiet[0])
            told_stayed = stayed.act(seat, stay)
            assert _told(told_moved, seat) == _told(told_stayed, seat)
            assert _others(moved, seat) == _others(stayed, seat)
            compared += 1
        ref.act(seat, rng.choice(actions))
    assert compared or ref.result is not None or len(ref.log) >= 60


@settings(max_examples=20, deadline=None)
@given(variant=st.sampled_from(["shadow", "light", "simultaneous"]), seed=st.integers(0, 2**31 - 1))
def test_selfplay_finds_no_leak_in_random_games(variant, seed):
    assert selfplay.play_game(variant, seed, max_plies=80)["leak"] is False


def test_the_leak_check_can_fail(monkeypatch):
    real = shadow.ShadowReferee._view

    def leaky(self, st, seat):
        out = real(self, st, seat)
        out["hint"] = sorted(st.ninjas[0] + st.ninjas[1])   # every Ninja, to everyone
        return out

    monkeypatch.setattr(shadow.ShadowReferee, "_view", leaky)
    assert any(selfplay.play_game("shadow", seed)["leak"] for seed in range(5))


def test_views_are_plain_json_and_hold_what_a_phone_needs():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Nb1"); ref.act("blue", "Nd5")
    view = ref.view("red")
    assert json.loads(json.dumps(view)) == view
    assert view["position"] == "b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger"
    assert (view["turn"], view["phase"], view["to_act"]) == ("red", "move", ["red"])
    assert view["own_ninjas"] == ["b1"] and view["lanterns"] == {"red": 2, "blue": 2}
    assert {"kind": "move", "card": "Boar", "from": "a1", "to": "a2", "text": "Boar a1a2"} in view["legal"]
    assert ref.view("blue")["legal"] == [] and ref.view(None)["legal"] == []
    assert "d5" not in json.dumps(ref.view("red")) and "b1\"" not in json.dumps(ref.view("blue"))
    ref.act("red", "Boar a1a2")
    ninja = [a for a in ref.view("red")["legal"] if a["kind"] == "ninja"]
    assert {"kind": "ninja", "card": "Boar", "from": "b1", "to": "b2", "text": "Nb1b2"} in ninja


def test_a_skipped_ninja_step_and_a_quiet_one_give_equal_public_records():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Nb1"); ref.act("blue", "Nd5")
    ref.act("red", "Boar a1a2")
    a, b = ref.copy(), ref.copy()
    a.act("red", "Nb1b2")
    b.act("red", Skip())
    assert a.log[-1].public == b.log[-1].public == "Boar a1a2"
    assert a.log[-1].full != b.log[-1].full
    assert a.events("blue") == b.events("blue") and a.view("blue") == b.view("blue")


def test_simultaneous_commitments_stay_sealed_until_both_are_in():
    ref = new_referee("simultaneous", seed=4)
    move = ref.legal_actions("red")[0]
    other = ref.legal_actions("red")[-1]
    a, b = ref.copy(), ref.copy()
    a.act("red", move)
    b.act("red", other)
    assert a.view("blue") == b.view("blue") and a.view(None) == b.view(None)
    assert a.view("red")["own_commit"] == str(move) and a.view("blue")["own_commit"] is None
    assert a.view(None)["committed"] == {"red": True, "blue": False}
    assert a.to_act() == ("blue",)


def test_classic_games_show_everyone_the_same_board():
    ref = new_referee("base", seed=1)
    assert ref.view("red")["position"] == ref.view(None)["position"]
    assert isinstance(ref.legal_actions(ref.to_act()[0])[0], Move)

"""Public, sealed and full records of games with hidden information, and their replay."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.actions import Skip
from companion.rules.errors import RecordError
from companion.rules.sealed import full_record, public_record, replay, reveal, sealed_record
from companion.rules.shadow import ShadowReferee
from companion.rules.ways import WAYS, new_referee


def finished(variant, seed, max_plies=300):
    rng = random.Random(seed)
    ref = new_referee(variant, seed=seed, hidden_seed=seed)
    while ref.result is None and len(ref.log) < max_plies:
        seat = rng.choice(ref.to_act())
        ref.act(seat, rng.choice(ref.legal_actions(seat)))
    return ref


def scripted():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger")
    ref.act("red", "Nb1"); ref.act("blue", "Nd5")
    ref.act("red", "Boar a1a2"); ref.act("red", "Nb1b2")
    ref.act("blue", "Monkey a5b4"); ref.act("blue", Skip()); ref.act("blue", "L2")
    return ref


def test_the_public_record_holds_no_secret():
    ref = scripted()
    public = public_record(ref)
    # The Lantern's answer is announced at the table; the Ninja squares stay secret.
    assert public["turns"] == ["Boar a1a2", "Monkey a5b4 L2+"]
    text = json.dumps(public)
    assert "Nb1" not in text and "Nd5" not in text and "b2" not in text


def test_each_seat_seals_its_own_hidden_moves():
    ref = scripted()
    red, blue = sealed_record(ref, "red"), sealed_record(ref, "blue")
    assert red["setup"] == "Nb1" and red["turns"] == {"0": "Boar a1a2 Nb1b2"}
    assert blue["setup"] == "Nd5" and blue["turns"] == {}   # nothing of Blue's turn was hidden
    with pytest.raises(RecordError, match="when the game ends"):
        full_record(ref)
    with pytest.raises(RecordError, match="when the game ends"):
        reveal(public_record(ref), red, blue)


@settings(max_examples=18, deadline=None)
@given(variant=st.sampled_from(tuple(WAYS)), seed=st.integers(0, 2**31 - 1))
def test_a_finished_game_replays_in_full(variant, seed):
    ref = finished(variant, seed)
    if ref.result is None:
        return
    public = public_record(ref)
    sealed = [json.loads(json.dumps(sealed_record(ref, s))) for s in ("red", "blue")]
    record = reveal(json.loads(json.dumps(public)), *sealed)
    assert record == full_record(ref)
    again = replay(record)
    assert again.log == ref.log and again.result == ref.result
    assert [t.public for t in again.log] == public["turns"]


def test_a_tampered_record_is_refused():
    ref = finished("shadow", 5)
    record = full_record(ref)
    record["turns"][0] = record["turns"][0] + " L3+"
    with pytest.raises(RecordError, match="turn 1"):
        replay(record)
    record = full_record(ref)
    record["header"] = dict(record["header"], result={"winner": None, "how": "draw"})
    with pytest.raises(RecordError, match="result"):
        replay(record)
    public = public_record(ref)
    other = sealed_record(finished("shadow", 6), "red")
    with pytest.raises(RecordError, match="does not belong"):
        reveal(public, other)


def test_a_misreported_strike_is_caught():
    ref = ShadowReferee("5/b1B1b/5/r1R1r/5 red Tiger,Crab Monkey,Crane Boar")
    ref.act("red", "Nb2"); ref.act("blue", "Nb4")
    ref.act("red", "Tiger e2e4"); ref.act("red", "Sb2b4")
    full = ref.log[-1].full
    assert full == "Tiger e2e4 Sb2b4+"
    ref.act("blue", "Monkey c4b3")   # takes nothing; the game goes on
    record = {"format": "onitama-hidden-record", "version": 1, "kind": "full",
              "header": dict(public_record(ref)["header"]), "setup": {"red": "Nb2", "blue": "Nb4"},
              "turns": ["Tiger e2e4 Sb2b4-"]}
    with pytest.raises(RecordError, match="the rules give 'Tiger e2e4 Sb2b4\\+'"):
        replay(record)

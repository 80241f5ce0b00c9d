"""Turns in players' words (companion.rules.describe) and the public reason a mat move breaks."""

import random
import re

import pytest

from companion.rules.describe import turn_words, why_not
from companion.rules.referee import SEATS
from companion.rules.shadow import ShadowReferee
from companion.rules.ways import WAYS as VARIANTS, new_referee

START = "b1Bbb/5/2b2/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"
# Notation that must never reach a move list: squares run together, tokens with ? or signs.
RAW = re.compile(r"[a-e][1-5][a-e][1-5]|\?|(?<![\w])[NSL][a-e1-5](?![a-z])|xN|[+>][A-Z]")


@pytest.mark.parametrize("seat, text, board, words", [
    ("red", "Tiger c1c3", START, "Red: Tiger, c1 → c3, takes a student"),
    ("blue", "Crane N?", "5/5/5/5/rrRrr blue Tiger,Crab Monkey,Crane Dragon", "Blue moved a Ninja (Crane)"),
    ("blue", "Crane N?e1", "5/5/5/5/rrRrr blue Tiger,Crab Monkey,Crane Dragon",
     "Blue: a Ninja takes a student on e1 (Crane)"),
    ("red", "Ox c5c4 S?b4+ L3-", "b1B1b/5/5/5/r1R1r blue Ox,Crab Monkey,Crane Tiger",
     "Red: Ox, c5 → c4; a Ninja strikes at b4: a hit; a Lantern on rank 3: no Ninja"),
    ("red", "Boar a1a2 Nb1b2", "b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger",
     "Red: Boar, a1 → a2; Ninja b1 → b2"),
    ("red", "Eagle b1c2 c3a5", "bbBbb/5/2W2/5/rrRrr red Eagle,Tiger Lion,Ox Crab",
     "Red: Eagle, b1 → c2, Wind Spirit c3 → a5, swaps with a student"),
    ("red", "Boar c3c4", "bbBbb/5/2W2/5/rrRrr red Boar,Tiger Lion,Ox Crab", "Red: Boar, Wind Spirit c3 → c4"),
    ("blue", "Crab pass", START, "Blue: passes with Crab"),
    ("red", "Tiger d3d5 xN", "b1B1b/5/3r1/5/2R1r red Tiger,Crab Monkey,Crane Boar",
     "Red: Tiger, d3 → d5; takes a hidden Ninja"),
])
def test_turns_in_players_words(seat, text, board, words):
    assert turn_words(seat, text, board) == words


def test_the_move_list_carries_each_turns_seat_and_a_seats_own_secret_steps():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r blue Boar,Crab Monkey,Crane Tiger", "shadow")
    ref.act("red", "Nb1")
    ref.act("blue", "Nd5")
    ref.act("blue", "Monkey a5b4")
    ref.act("blue", "Nd5c4")
    ref.act("red", "Boar a1a2")
    ref.act("red", "skip")
    ref.act("red", "skip")
    # Blue moved first: the colours come from each turn's seat, not from odd and even.
    assert [m["seat"] for m in ref.view(None)["moves"]] == ["blue", "red"]
    assert ref.view("blue")["moves"][0]["words"] == "Blue: Monkey, a5 → b4; Ninja d5 → c4"
    assert ref.view("red")["moves"][0]["words"] == ref.view(None)["moves"][0]["words"] == "Blue: Monkey, a5 → b4"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_turn_of_random_games_reads_in_words(variant):
    for seed in range(4):
        rng = random.Random(seed)
        ref = new_referee(variant, seed=seed, sets=("base",), wind_cards=3)
        while ref.result is None and len(ref.log) < 80:
            seat = rng.choice(ref.to_act())
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
        for audience in (None, *SEATS):
            moves = ref.view(audience)["moves"]
            assert [m["n"] for m in moves] == list(range(1, len(ref.log) + 1))
            for m in moves:
                assert not RAW.search(m["words"]), (variant, m)


def test_why_a_move_on_the_mat_is_refused_from_public_facts():
    pos = "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"
    assert why_not(pos, "c1", "c3") is None                      # Tiger allows it
    no_card = why_not(pos, "c1", "c4")
    assert no_card.long == "Neither Tiger nor Crab moves the master from c1 to c4."
    assert why_not(pos, "c5", "c4").short == "Red's turn"
    assert why_not(pos, "b1", "c1").short == "Own pawn there"
    for refusal in (no_card, why_not(pos, "c5", "c4"), why_not(pos, "b1", "c1")):
        assert len(refusal.short) <= 21


def test_a_hidden_ninja_is_never_a_public_reason():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    ref.act("red", "Nb1")
    ref.act("blue", "Nd5")
    # Red's own Ninja stands on b1: the public position cannot say so, and neither does this.
    assert why_not(ref.view(None)["position"], "a1", "b1") is None

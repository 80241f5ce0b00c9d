"""Light & Shadow across two tables (companion/rules/shadow_half.py): each table's referee
knows its own seat's Ninjas and only the commitments of the other's, and asks the other table
where the rules need the truth. Whole random games against the whole game's referee, and the
twin-world check: whatever one seat hides, the other table sees the same bytes."""

from __future__ import annotations

from dataclasses import fields

import pytest

from companion.rules.errors import IllegalActionError
from companion.rules.sealed_ninjas import HalfState, SealedNinjas
from companion.rules.shadow_half import HalfReferee

from half_tables import Tables, other, random_tables, twin_world, whole_game

PUBLIC = ("position", "turn", "ninjas", "lanterns", "searches", "log", "result", "to_act")


def same_as_whole(tables: Tables, whole) -> None:
    """After each step (every answer given), both tables show what the whole game's referee
    shows: the public view, and to each seat its own Ninjas and its own turns in full."""
    for seat, half in tables.halves.items():
        mine, truth = half.view(seat), whole.view(seat)
        assert {k: half.view(None)[k] for k in PUBLIC} == {k: whole.view(None)[k] for k in PUBLIC}
        assert mine["own_ninjas"] == truth["own_ninjas"] and mine["legal"] == truth["legal"]
        assert [t.full for t in half.log if t.seat == seat] == [t.full for t in whole.log if t.seat == seat]


# Four short deals of each by default, twelve with -m slow (the suite's time).
QUICK = {"shadow": (5, 6, 8, 10), "light": (3, 7, 9, 10)}


@pytest.mark.parametrize("mode, seed", [
    pytest.param(mode, s, marks=[] if s in QUICK[mode] else [pytest.mark.slow])
    for mode in ("shadow", "light") for s in range(12)])
def test_two_tables_play_the_game_the_whole_referee_plays(mode, seed):
    tables, whole = random_tables(mode, seed, check=same_as_whole)
    assert tables.halves["red"].result == tables.halves["blue"].result == whole.result
    assert tables.halves["red"].rows == tables.halves["blue"].rows == tables.sent
    for here, half in tables.halves.items():   # the move list in words, once (long to make)
        assert [half.view(s)["moves"] for s in (None, here)] == [whole.view(s)["moves"] for s in (None, here)]
    kinds = {text.split()[0] for _, text in tables.sent}
    assert "answer" in kinds and ({"setup", "ninja"} <= kinds or mode == "light")


def test_the_other_seats_ninjas_are_held_as_commitments_only():
    # By construction: the state's field for the other seat's Ninjas is a count, squares the
    # rules show, and hashes; the squares of hidden Ninjas have no field to go to.
    assert [f.name for f in fields(SealedNinjas)] == ["alive", "revealed", "commitments"]
    tables, _ = random_tables("light", 3)
    light_table = tables.halves["red"].state
    assert isinstance(light_table, HalfState) and light_table.own == ()
    digests = {d for _, d in light_table.other.commitments}
    assert digests == {text.split("#")[1] for seat, text in tables.sent if seat == "blue" and "#" in text}


def test_a_table_answers_only_the_truth_for_its_own_ninjas():
    tables = Tables(whole_game("shadow", 1))
    tables.act("red", "Nb1")
    tables.act("blue", "Nb5")
    mover = tables.to_act()[0]
    half = tables.halves[mover]
    # The mover's pawn steps towards the other's Ninjas: the other table is asked.
    move = next(a for a in half.legal_actions(mover) if not isinstance(a, str))
    half.act(mover, move)
    there = tables.halves[other(mover)]
    there.act(mover, half.rows[-1][1])
    assert there.to_act() == (other(mover),) and there.answer() is not None
    lie = "answer +" if there.answer() == "answer -" else "answer -"
    with pytest.raises(IllegalActionError):
        there.act(other(mover), lie)


@pytest.mark.parametrize("mode, hider", [("shadow", "red"), ("shadow", "blue"), ("light", "blue")])
def test_twin_worlds_across_tables_look_the_same_to_the_other_table(mode, hider):
    differ = steps = 0
    for seed in range(3):
        for attempt in range(2):
            _, _, d, s = twin_world(mode, seed, hider, attempt)
            differ, steps = differ + d, steps + s
    # The check means something only where the hidden choices really differed.
    assert differ >= 8 and steps >= 40, (differ, steps)


def test_a_table_knows_nothing_it_could_leak():
    # The hider's own table holds its Ninjas; the other table's referee state, compared
    # across twin worlds, differs in the commitments' hashes alone.
    for attempt in range(6):
        a, b, differ, _ = twin_world("light", 1, "blue", attempt)
        if differ:
            break
    sa, sb = a.halves["red"].state, b.halves["red"].state
    assert sa.other.alive == sb.other.alive and sa.other.revealed == sb.other.revealed
    assert sa.own == sb.own == () and sa.pos == sb.pos and sa.log == sb.log
    assert [n for n, _ in sa.other.commitments] == [n for n, _ in sb.other.commitments]


def test_a_half_referee_needs_a_seat():
    with pytest.raises(Exception):
        HalfReferee(whole_game("shadow", 0), "green", "game", lambda n: "")

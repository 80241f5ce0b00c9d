"""Simultaneous play across two tables (companion.rules.simultaneous_half): each table holds
its own seat's chosen move until both tables have committed, then both reveal, and both
check both reveals. Whole random games, the twin worlds and each kind of lie."""

from __future__ import annotations

import pytest

from companion.rules.errors import IllegalActionError
from companion.rules.sealed_ninjas import commitment, table_salts
from companion.rules.simultaneous_half import LIE, SimultaneousHalf

from simultaneous_tables import GAME, Tables, random_game

@pytest.mark.parametrize("seed", range(4))
def test_a_whole_simultaneous_game_across_two_tables_is_the_one_game(seed):
    tables = random_game(seed)
    red, blue = tables.halves["red"], tables.halves["blue"]
    assert red.result is not None and red.result == blue.result and red.result.how != LIE
    assert red.rows == blue.rows and list(red.log) == list(blue.log)
    # The same moves through the one-table referee give the same game.
    whole = tables.whole.copy()
    for turn in red.log:
        r, b = turn.full.split(" | ")
        whole.act("red", r)
        whole.act("blue", b)
    assert list(whole.log) == list(red.log) and whole.result == red.result
    kinds = [text.split()[0] for _, text in red.rows]
    assert kinds == ["commit", "commit", "reveal", "reveal"] * (len(kinds) // 4)
    assert [s for s, _ in red.rows] == ["red", "blue"] * (len(kinds) // 2)


def test_a_seat_may_choose_before_the_other_and_its_move_stays_at_its_table():
    tables = Tables(1)
    blue = tables.halves["blue"]
    move = blue.legal_actions("blue")[0]
    tables.play("blue", move)               # Blue first: its commitment waits for Red's
    assert tables.sent == [] and blue.view("blue")["own_commit"] == str(move)
    assert tables.halves["red"].view(None) == Tables(1).halves["red"].view(None)
    tables.play("red", tables.halves["red"].legal_actions("red")[0])
    assert [text.split()[0] for _, text in tables.sent] == ["commit", "commit", "reveal", "reveal"]


def committed(seed: int) -> tuple[Tables, str, str, str]:
    """Both tables have chosen and committed; Red's reveal is owed. Returns the tables, Red's
    move, its salt and a legal move of Red's other than it."""
    tables = Tables(seed)
    red, blue = tables.halves["red"], tables.halves["blue"]
    moves = [str(m) for m in red.legal_actions("red")]
    red.act("red", moves[0])
    row = red.answer()
    red.act("red", row)
    blue.act("red", row)
    blue.act("blue", blue.legal_actions("blue")[0])
    row = blue.answer()
    blue.act("blue", row)
    red.act("blue", row)
    head, rest = red.answer().split(" ", 1)
    move, salt = rest.rsplit(" ", 1)
    assert head == "reveal" and move == moves[0]
    return tables, move, salt, moves[1]


def lie_told(tables: Tables, row: str) -> None:
    """Red's table sends ``row`` as its reveal: both referees take it (Red's checks its own)."""
    for half in tables.halves.values():
        half.act("red", row)


def assert_named(tables: Tables, detail: str) -> None:
    for half in tables.halves.values():
        assert half.result is not None and half.result.winner == "blue" and half.result.how == LIE
        last = half.log[-1].public
        assert last.startswith("red's table lied") and detail in last, last
    assert list(tables.halves["red"].log) == list(tables.halves["blue"].log)


def test_a_reveal_of_another_move_is_caught_and_names_the_table_in_both_records():
    tables, move, salt, another = committed(2)
    lie_told(tables, f"reveal {another} {salt}")
    assert_named(tables, "does not open its commitment")


def test_a_reveal_with_another_salt_is_caught():
    tables, move, salt, _ = committed(2)
    lie_told(tables, f"reveal {move} {'0' * 32}")
    assert_named(tables, "does not open its commitment")


def test_a_commitment_to_an_illegal_move_is_caught_at_its_reveal():
    tables = Tables(2)
    red, blue = tables.halves["red"], tables.halves["blue"]
    salt = "1" * 32
    illegal = "Ox a1a5"                    # no card moves a pawn four ranks
    row = f"commit {commitment(GAME, 'red', '0', illegal, salt)}"
    # Red's table is not this program: Blue's referee alone takes its rows.
    blue.act("red", row)
    blue.act("blue", blue.legal_actions("blue")[0])
    blue.act("blue", blue.answer())
    blue.act("red", f"reveal {illegal} {salt}")
    assert blue.result is not None and blue.result.winner == "blue" and blue.result.how == LIE
    assert blue.log[-1].public.startswith("red's table lied") and "not legal" in blue.log[-1].public


def test_a_reveal_out_of_turn_or_a_malformed_row_is_refused_and_changes_nothing():
    tables = Tables(3)
    blue = tables.halves["blue"]
    before = blue.rows
    with pytest.raises(IllegalActionError):
        blue.act("red", "reveal Ox b1b2 " + "0" * 32)     # a reveal before any commitment
    with pytest.raises(Exception):
        blue.act("red", "commit nothex")
    assert blue.rows == before and blue.to_act() == ("red", "blue")

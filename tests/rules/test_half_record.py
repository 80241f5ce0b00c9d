"""A finished Light & Shadow game across two tables: each table's full record, with the other
table's openings, is the whole game's full record (both seats' Ninjas, set-up and steps)."""

from __future__ import annotations

import pytest

from companion.rules.errors import RecordError
from companion.rules.half_record import opened_record
from companion.rules.sealed import full_record, replay

from half_tables import random_tables, whole_game


@pytest.mark.parametrize("mode, seed", [("shadow", 1), ("light", 2)])
def test_each_tables_record_with_the_others_openings_is_the_whole_games(mode, seed):
    tables, whole = random_tables(mode, seed)
    expected = full_record(whole)
    for here, there in (("red", "blue"), ("blue", "red")):
        got = opened_record(tables.halves[here], whole_game(mode, seed),
                            tables.halves[there].openings())
        assert got["setup"] == expected["setup"] and got["turns"] == expected["turns"]
        assert got["header"] == expected["header"]
        replay(got)


def test_openings_that_do_not_replay_give_no_record():
    tables, whole = random_tables("shadow", 1)
    opened = dict(tables.halves["blue"].openings())
    n, (text, salt) = next((n, o) for n, o in opened.items() if o[0].startswith("N"))
    opened[n] = ("Na1", salt)                 # a set-up, or a step, the rules give otherwise
    with pytest.raises(RecordError):
        opened_record(tables.halves["red"], whole_game("shadow", 1), opened)

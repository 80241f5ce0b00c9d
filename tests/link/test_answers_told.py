"""An answer a table's rules give at once (the other table asks about this table's Ninjas) is
told to the links in the same go as it is played (``TableDoors._tell_tables``). Before, the
links heard of it only at the game thread's next publish (its idle tick, up to 1 s later) or
the links' 5 s resync: a Shadow game under kills lost a second an answer, and the slow robot
ran out of steps with one table an answer ahead."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.rules.shadow_half import HalfReferee
from companion.table.tables import LINK_KEY, TableDoors, TableState

from half_tables import Tables, other, whole_game


@dataclass
class Game:
    """The part of a game session the doors read."""
    referee: HalfReferee
    id: int = 1
    status: str = "playing"
    header: dict[str, Any] = field(default_factory=lambda: {LINK_KEY: {"game": "g", "key": "k"}})

    @property
    def seq(self) -> int:
        return len(self.referee.rows)


class Doors(TableDoors):
    """The service's doors over one game: a step off the mat is the referee's."""

    def __init__(self, game: Game):
        self._game = game  # type: ignore[assignment]

    def _play_off_mat(self, game: Any, seat: str, text: str) -> None:  # type: ignore[override]
        game.referee.act(seat, text)


def asked(mode: str, seed: int) -> tuple[Tables, str]:
    """A random game across two tables' halves, up to a question the rules ask of one
    table's Ninjas: the rows crossed, the answer not yet given. Returns the owner's seat."""
    tables = Tables(whole_game(mode, seed))
    rng = random.Random(seed)
    for _ in range(500):
        seat = tables.to_act()[0]
        tables._play(seat, rng.choice(list(tables.halves[seat].legal_actions(seat))))
        owner = next((s for s in ("red", "blue") if tables.halves[s].answer() is not None), None)
        if owner is not None:
            return tables, owner
    raise AssertionError("no question in the game")


@pytest.mark.parametrize("mode, seed", [("light", 2), ("shadow", 3), ("shadow", 5)])
def test_an_answer_given_at_once_is_told_to_the_links_in_the_same_go(mode, seed):
    tables, owner = asked(mode, seed)
    half, asker = tables.halves[owner], tables.halves[other(owner)]
    n = len(half.rows)
    told: list[TableState | None] = []
    doors = Doors(Game(half))
    doors.watch_tables(told.append)
    doors._tell_tables()                   # one publish of the service
    assert half.rows[n][1].startswith("answer")
    # The links were told of the game with the answer saved: they send it now.
    assert told and told[-1] is not None and told[-1].seq == len(half.rows) > n
    # What the links send then: the other table has the answer, and its turn goes on.
    for seat, text in half.rows[n:told[-1].seq]:
        asker.act(seat, text)
    assert asker.rows == half.rows and asker.to_act() == half.to_act()

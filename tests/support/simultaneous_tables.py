"""Two tables' referees of one Simultaneous game (companion.rules.simultaneous_half), the
rows relayed between them as the link relays them, each table's owed rows (commitments,
reveals) played at once: the rules' half of a game across tables, without a broker."""

from __future__ import annotations

import random

from companion.rules.referee import SEATS
from companion.rules.sealed_ninjas import table_salts
from companion.rules.simultaneous_half import SimultaneousHalf
from companion.rules.variants import SimultaneousReferee
from companion.rules.ways import new_referee
from relayed import cross

GAME = "simgame23456"


class Tables:
    """Two tables' halves, the rows relayed as the link relays them (``sent``)."""

    def __init__(self, seed: int, secrets=("red-secret", "blue-secret")):
        self.whole = new_referee("simultaneous", seed=seed)
        assert isinstance(self.whole, SimultaneousReferee)
        self.halves = {s: SimultaneousHalf(self.whole, s, GAME, table_salts(k, GAME))
                       for s, k in zip(SEATS, secrets)}
        self.sent: list[tuple[str, str]] = []

    def play(self, seat: str, action) -> None:
        """``seat``'s table plays ``action``; new rows cross; owed rows follow at once."""
        cross(self.halves, seat, action, self.sent)
        for s, half in self.halves.items():
            if half.answer() is not None:
                self.play(s, half.answer())
                return


def random_game(seed: int, secrets=("red-secret", "blue-secret"), choose=None) -> Tables:
    """Each seat chooses at random (``choose(seat, legal, rng)`` may choose otherwise), in
    a random order of the two seats: the whole game at both tables."""
    tables = Tables(seed, secrets)
    rng = random.Random(seed)
    for _ in range(300):
        if tables.halves["red"].result is not None:
            break
        seats = [s for s in SEATS if s in tables.halves[s].to_act()
                 and tables.halves[s].legal_actions(s)]
        seat = rng.choice(seats)
        legal = list(tables.halves[seat].legal_actions(seat))
        tables.play(seat, choose(seat, legal, rng) if choose else rng.choice(legal))
    return tables

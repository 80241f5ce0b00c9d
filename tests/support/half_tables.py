"""Two tables' referees of one Light & Shadow game (companion.rules.shadow_half), the rows
relayed between them as the link relays them, and each question answered by the table that
owns the Ninjas: the rules' half of a game across tables, without a broker."""

from __future__ import annotations

import random
import re

from companion.rules.actions import Action
from companion.rules.referee import SEATS
from companion.rules.sealed_ninjas import Hidden, parse_step, table_salts
from companion.rules.shadow import ShadowReferee
from companion.rules.shadow_half import HalfReferee
from companion.rules.ways import new_referee

GAME = "halfgame2345"
_DIGEST = re.compile(r"#[0-9a-f]{64}")


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def masked(text: str) -> str:
    """A row with its commitment's hash blanked: the one part that differs between twin
    worlds (a hash of other squares), of the same length."""
    return _DIGEST.sub("#" + "-" * 64, text)


class Tables:
    """``halves[seat]``: the referee of the table that plays ``seat``; ``sent``: every row in
    the order it crossed, as (seat, text)."""

    def __init__(self, whole: ShadowReferee, secrets: tuple[str, str] = ("red-secret", "blue-secret")):
        self.halves = {seat: HalfReferee(whole, seat, GAME, table_salts(secret, GAME))
                       for seat, secret in zip(SEATS, secrets)}
        self.sent: list[tuple[str, str]] = []

    def to_act(self) -> tuple[str, ...]:
        return self.halves["red"].to_act()

    def act(self, seat: str, action: Action | str) -> None:
        """``seat``'s table plays ``action``; its rows cross, and the answers they ask come back."""
        self._play(seat, action)
        asked = True
        while asked:
            asked = False
            for s in SEATS:
                answer = self.halves[s].answer()
                if answer is not None:
                    self._play(s, answer)
                    asked = True

    def _play(self, seat: str, action: Action | str) -> None:
        here, there = self.halves[seat], self.halves[other(seat)]
        n = len(here.rows)
        here.act(seat, action)
        for who, text in here.rows[n:]:
            there.act(who, text)
            self.sent.append((who, text))


def whole_game(mode: str, seed: int) -> ShadowReferee:
    ref = new_referee(mode, seed=seed, sets=("base",))
    assert isinstance(ref, ShadowReferee)
    return ref


def random_tables(mode: str, seed: int, *, secrets: tuple[str, str] = ("red-secret", "blue-secret"),
                  check=None) -> tuple[Tables, ShadowReferee]:
    """A whole random game across two tables, and the whole game's referee that played the same
    steps; ``check(tables, whole)`` runs after every step."""
    whole = whole_game(mode, seed)
    tables = Tables(whole.copy(), secrets)
    rng = random.Random(seed)
    while whole.result is None:
        seat = whole.to_act()[0]
        action = rng.choice(list(tables.halves[seat].legal_actions(seat)))
        tables.act(seat, action)
        whole.act(seat, action)
        if check is not None:
            check(tables, whole)
    return tables, whole


def public_form(half: HalfReferee, seat: str, action: Action) -> str:
    """The row ``action`` would travel as, the hash blanked."""
    trial = half.copy()
    n = len(trial.rows)
    trial.act(seat, action)
    return masked(trial.rows[n][1])


def is_hidden(text: str) -> bool:
    return isinstance(parse_step(text, None, whole_game("shadow", 0).cards), Hidden)

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
from relayed import cross, other

GAME = "halfgame2345"
_DIGEST = re.compile(r"#[0-9a-f]{64}")


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
        cross(self.halves, seat, action, self.sent)


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




def public_effect(whole: ShadowReferee, seat: str, action: Action) -> tuple:
    """What everyone at the table sees of ``action`` by the whole game's referee (the rules'
    own word on what is public, whatever the halves send)."""
    trial = whole.copy()
    trial.act(seat, action)
    st = trial.state
    return (st.public, tuple(t.public for t in trial.log), st.phase, st.revealed, st.lost,
            trial.to_act())


def twin_world(mode: str, seed: int, hider: str, attempt: int):
    """World A at random; world B the same public game by the whole game's referee, ``hider``
    choosing other hidden steps (the other seat plays exactly as in A). The worlds may part
    only where the other seat's Ninjas are asked about (an answer: the rules themselves then
    tell them apart). Returns the two games, up to there, and how many of ``hider``'s steps
    differ."""
    secrets = {"red": ("red-2", "blue-secret"), "blue": ("red-secret", "blue-2")}[hider]
    a, b = Tables(whole_game(mode, seed)), Tables(whole_game(mode, seed), secrets)
    whole_a, whole_b = whole_game(mode, seed), whole_game(mode, seed)
    rng, twin_rng = random.Random(seed), random.Random(1000 + attempt)
    differ = steps = 0
    watcher = other(hider)
    while whole_a.result is None:
        seat = whole_a.to_act()[0]
        step = rng.choice(list(whole_a.legal_actions(seat)))
        twin = step
        if seat == hider:
            seen = public_effect(whole_a, seat, step)
            same = [s for s in whole_b.legal_actions(seat) if public_effect(whole_b, seat, s) == seen]
            if not same:
                break
            twin = twin_rng.choice(same)
        na, nb = len(a.sent), len(b.sent)
        kept = [{s: h.copy() for s, h in world.halves.items()} for world in (a, b)]
        a.act(seat, step)
        b.act(seat, twin)
        whole_a.act(seat, step)
        whole_b.act(seat, twin)
        rows_a = [(s, masked(t)) for s, t in a.sent[na:]]
        rows_b = [(s, masked(t)) for s, t in b.sent[nb:]]
        if rows_a != rows_b:
            first = next(i for i, (x, y) in enumerate(zip(rows_a, rows_b)) if x != y)
            assert rows_a[first][1].startswith("answer") and rows_b[first][1].startswith("answer"), \
                (rows_a, rows_b)
            (a.halves, a.sent), (b.halves, b.sent) = (kept[0], a.sent[:na]), (kept[1], b.sent[:nb])
            break
        # Every byte the watcher's table sees: its own rows exactly, the hider's with the
        # hash blanked (same length); and everything its phones and OLED show.
        assert [t for s, t in a.sent if s == watcher] == [t for s, t in b.sent if s == watcher]
        assert [len(t) for _, t in a.sent] == [len(t) for _, t in b.sent]
        for seat_view in (None, watcher):
            assert a.halves[watcher].view(seat_view) == b.halves[watcher].view(seat_view)
        differ += step != twin
        steps += 1
    return a, b, differ, steps

"""A way of playing that exists only in the tests: "stone", the base game where only
capturing a master wins (a master on the enemy's Temple Arch is just a master).

It is registered in one place, :func:`stone_way`, the way a new way of playing would be: its
referee and one registry entry. Everything else (the service, a restart, the computer, the
CLI, the records) must then follow its rules by asking the registry.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from companion.rules import ways
from companion.rules.engine import Engine, State
from companion.rules.position import NO_SQUARE, TEMPLE, Position
from companion.rules.referee import Result
from companion.rules.variants import ClassicReferee

NAME = "stone"


class StoneReferee(ClassicReferee):
    """The base game, won only by capturing the other master."""

    @staticmethod
    def _winner(st: State) -> Result | None:
        pos = Engine.position(st)
        if pos.red_master == NO_SQUARE:
            return Result("blue", "stone")
        if pos.blue_master == NO_SQUARE:
            return Result("red", "stone")
        return None


def _deal(setup: ways.Setup) -> StoneReferee:
    base = ways.way("base").deal(setup)          # the base game's deal, on its board
    return StoneReferee(base.start, NAME, cards=setup.cards, seed=setup.seed)


def _from_start(start: ways.Start) -> StoneReferee:
    return StoneReferee(start.position, NAME, cards=start.cards, seed=start.seed)


@contextmanager
def stone_way() -> Iterator[ways.Way]:
    """The toy way, registered for the time of a test."""
    entry = ways.register(ways.Way(
        NAME, "Stone only", "The base game, won only by capturing the other master.", _deal,
        _from_start, options=("sets", "cards"), plain_record=True, board="base"))
    try:
        yield entry
    finally:
        del ways.WAYS[NAME]


def on_a_temple(pos: Position) -> bool:
    """A master stands on the enemy's Temple Arch: a win by the Stream in the base game."""
    return pos.red_master == TEMPLE[1] or pos.blue_master == TEMPLE[0]


@lru_cache(maxsize=None)
def past_the_difference(after: int = 2, tries: int = 300) -> tuple[int, list[tuple[str, str]]]:
    """The shortest of ``tries`` seeded random games of the toy way that goes on for
    ``after`` turns once a master has reached the enemy's temple: (seed, [(seat, move
    text)]). Random whole games, as players play them."""
    found: list[tuple[int, list[tuple[str, str]]]] = []
    for seed in range(tries):
        ref = ways.new_referee(NAME, seed=seed)
        rng = random.Random(seed)
        played: list[tuple[str, str]] = []
        reached = None
        while ref.result is None and len(played) < 200:
            seat = ref.to_act()[0]
            text = str(rng.choice(ref.legal_actions(seat)))
            ref.act(seat, text)
            played.append((seat, text))
            if reached is None and on_a_temple(ref.position()):
                reached = len(played)
            if reached is not None and len(played) == reached + after:
                found.append((seed, played))
                break
    assert found, "no random game reached a temple and went on"
    # Computed once a run (a few seconds); the toy must be registered when it is.
    return min(found, key=lambda game: len(game[1]))

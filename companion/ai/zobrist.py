"""Zobrist keys of search states: pawns, masters, the Wind Spirit, the side to move and where
every card lies (in a hand column or on a side stack).

A card's place is ``colour * 3 + role`` for a hand slot (the slot's role: any, master-only,
student-only, so the two slots of a base hand share one place and a swapped hand order is the
same position) and ``6 + colour`` for a colour's side stack (the base game's side card is the
next mover's one-card stack).
"""

from __future__ import annotations

import random

from .searchtypes import SearchState

STACK = 6   # place of red's side stack; blue's is STACK + 1
PLACES = 8


class Zobrist:
    def __init__(self, seed: int = 0x0A17A5A):
        rng = random.Random(seed)

        def key() -> int:
            return rng.getrandbits(64)

        self.students = tuple(tuple(key() for _ in range(25)) for _ in range(2))
        self.masters = tuple(tuple(key() for _ in range(25)) for _ in range(2))
        self.spirit = tuple(key() for _ in range(25))
        self.turn = key()
        self._rng = rng
        self._cards: dict[str, tuple[int, ...]] = {}

    def card(self, name: str) -> tuple[int, ...]:
        """The keys of ``name`` in each of the eight places (made on first use, in a fixed
        order per name so that keys do not depend on which cards a game met first)."""
        keys = self._cards.get(name)
        if keys is None:
            rng = random.Random(f"{name}\0zobrist")
            keys = self._cards[name] = tuple(rng.getrandbits(64) for _ in range(PLACES))
        return keys

    def full(self, st: SearchState, roles: tuple[int, ...]) -> int:
        """The key of a search state, from scratch (the search updates it move by move)."""
        own, opp, mo, mp, sp, color, ho, hp, (mine, theirs) = st
        h = self.turn if color else 0
        for side, pawns, master in ((color, own, mo), (color ^ 1, opp, mp)):
            while pawns:
                b = pawns & -pawns
                sq = b.bit_length() - 1
                pawns ^= b
                h ^= self.masters[side][sq] if sq == master else self.students[side][sq]
        if sp >= 0:
            h ^= self.spirit[sp]
        for side, hand in ((color, ho), (color ^ 1, hp)):
            for slot, name in enumerate(hand):
                h ^= self.card(name)[side * 3 + roles[slot]]
        for side, stack in ((color, mine), (color ^ 1, theirs)):
            for name in stack:
                h ^= self.card(name)[STACK + side]
        return h

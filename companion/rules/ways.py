"""The ways of playing: each declared once, here.

Modelled on python-chess's ``chess/variant.py``: one entry per way of playing, holding its
name, a sentence for the players, its referee factory, the set-up options it takes, and
what the table does in it (do the phones hold secrets, does the mat read its moves). The
CLI, self-play, the service and the pages (through ``GET /api/ways``) all read this list.
Adding a way of playing is one entry plus its referee.

Secrets by construction: ``seed`` deals the open cards and is public (the save file's
header, the game list, every record); a way with a hidden random order (Knowledge's
face-down deck) takes it from ``hidden_seed``, which only the full record reveals.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, CardTable
from .deal import deal
from .engine import ANY
from .errors import CardError, SetupError, VariantError
from .referee import Referee
from .shadow import ShadowReferee
from .variants import ROLES, ClassicReferee, SimultaneousReferee, example_conditional_cards, start_position

# The referee of whichever way was chosen, each with its own state type.
AnyReferee = Referee[Any]


@dataclass(frozen=True)
class Setup:
    """What a new game is dealt from. ``hidden_seed`` orders what nobody may see."""
    seed: int
    hidden_seed: int
    sets: tuple[str, ...] = ("base",)
    wind_cards: int = 2
    light: str = "red"
    cards: CardTable = CARDS


@dataclass(frozen=True)
class Way:
    """One way of playing."""
    name: str
    title: str                          # how the pages name it
    description: str                    # one sentence for the players
    referee: Callable[[Setup], AnyReferee]
    options: tuple[str, ...] = ("sets",)  # set-up options: "sets", "wind_cards", "cards"
    mat_reads_moves: bool = False       # the mat reads main-board moves; else the phones play
    hidden: bool = False                # each seat has secrets: its phone is its private board
    ninjas: bool = False                # the players place hidden Ninjas at set-up
    classic_record: bool = False        # recorded as a plain game record, replayed from its start

    @property
    def phones(self) -> str:
        """What the phones do in this way of playing, in a sentence for the players."""
        if self.hidden:
            return "Each phone is its seat's private board: the seat's secret moves are made on it."
        if self.mat_reads_moves:
            return "The mat reads the moves; a phone shows the game and answers the table's questions."
        return "The moves are made on the phones; the mat follows with its lights."

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description,
                "options": list(self.options), "phones": self.phones,
                "mat_reads_moves": self.mat_reads_moves, "hidden": self.hidden,
                "ninjas": self.ninjas}


def _shuffled(pool: list[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    pool = list(pool)
    rng.shuffle(pool)
    return pool


def _pool(s: Setup, need: int, name: str) -> list[str]:
    """The move cards of the chosen sets, sorted, at least ``need`` of them."""
    try:
        pool = sorted(c.name for c in s.cards.in_sets(s.sets) if not c.is_wind_card)
    except CardError as exc:
        raise SetupError(str(exc)) from None
    if len(pool) < need:
        raise SetupError(f"{name} needs {need} move cards; the sets {', '.join(s.sets)} hold {len(pool)}")
    return pool


def _dealt(variant: str) -> Callable[[Setup], AnyReferee]:
    def make(s: Setup) -> AnyReferee:
        d = deal(variant, s.sets, wind_cards=s.wind_cards, seed=s.seed, cards=s.cards)
        return ClassicReferee(d.position, variant, cards=s.cards, seed=s.seed)
    return make


def _shadow(mode: str) -> Callable[[Setup], AnyReferee]:
    def make(s: Setup) -> AnyReferee:
        return ShadowReferee.deal(mode, seed=s.seed, sets=s.sets, light=s.light, cards=s.cards)
    return make


def _hands(variant: str) -> Callable[[Setup], AnyReferee]:
    """Bigger hands in master and student columns (seven, nine)."""
    def make(s: Setup) -> AnyReferee:
        k = len(ROLES[variant])
        names = _shuffled(_pool(s, 2 * k + 1, variant), s.seed)
        start = start_position(names[:k], names[k:2 * k], names[2 * k:2 * k + 1], s.cards)
        return ClassicReferee(start, variant, roles=ROLES[variant], cards=s.cards, seed=s.seed)
    return make


def _knowledge(s: Setup) -> AnyReferee:
    # The five open cards come from the public seed; the order of the face-down rest from
    # the hidden one, so no public number tells what will be drawn.
    pool = _pool(s, 5, "knowledge")
    names = _shuffled(pool, s.seed)
    deck = _shuffled(sorted(names[5:]), s.hidden_seed)
    start = start_position(names[:2], names[2:4], names[4:5], s.cards)
    return ClassicReferee(start, "knowledge", knowledge=True, deck=tuple(deck), cards=s.cards,
                          seed=s.seed, hidden_seed=s.hidden_seed)


def _simultaneous(s: Setup) -> AnyReferee:
    names = _shuffled(_pool(s, 6, "simultaneous"), s.seed)
    start = start_position(names[:2], names[2:4], names[4:6], s.cards)
    return SimultaneousReferee(start, cards=s.cards, seed=s.seed)


def _conditional(s: Setup) -> AnyReferee:
    own = example_conditional_cards()
    table = s.cards.with_cards(c for c in own if c.name not in s.cards)
    names = _shuffled([c.name for c in own], s.seed)
    start = start_position(names[:2], names[2:4], names[4:5], table)
    return ClassicReferee(start, "conditional", cards=table, seed=s.seed)


_WAYS = (
    Way("base", "Onitama (base game)", "The official game: five cards, the masters race for "
        "the temple or the capture.", _dealt("base"), options=("sets", "cards"),
        mat_reads_moves=True, classic_record=True),
    Way("wind", "Way of the Wind", "The official expansion: a Wind Spirit in the middle moves "
        "with the Wind Spirit cards.", _dealt("wind"), options=("sets", "wind_cards", "cards"),
        mat_reads_moves=True, classic_record=True),
    Way("shadow", "Way of the Shadow", "Light & Shadow: each player hides Ninjas on their "
        "phone and hunts the other's with Lanterns.", _shadow("shadow"), mat_reads_moves=True,
        hidden=True, ninjas=True),
    Way("light", "Way of the Light", "Light & Shadow: the Light Master plays on the mat "
        "against the Shadow Master's hidden Ninjas.", _shadow("light"), mat_reads_moves=True,
        hidden=True, ninjas=True),
    Way("seven", "3-card hands", "Each player holds three cards: one for the master and two "
        "for the students.", _hands("seven")),
    Way("nine", "9-card variant", "Each player holds four cards: two for the master and two "
        "for the students.", _hands("nine")),
    Way("knowledge", "Knowledge", "Losing a student draws a face-down card onto your side "
        "stack, and you choose which card to take back.", _knowledge),
    Way("simultaneous", "Simultaneous play", "Both players commit a move in secret on their "
        "phones, and the moves resolve together.", _simultaneous, hidden=True),
    Way("conditional", "Conditional moves", "The base game dealt from cards with move-only "
        "and capture-only steps.", _conditional, options=()),
)

WAYS: dict[str, Way] = {way.name: way for way in _WAYS}


def way(name: str) -> Way:
    """The way of playing called ``name``; :class:`VariantError` names the known ones."""
    try:
        return WAYS[name]
    except (KeyError, TypeError):
        raise VariantError(f"unknown variant {name!r} (known: {', '.join(WAYS)})") from None


def new_referee(variant: str, *, seed: int | None = None, hidden_seed: int | None = None,
                sets: tuple[str, ...] = ("base",), cards: CardTable = CARDS, light: str = "red",
                wind_cards: int = 2) -> AnyReferee:
    """A new game of ``variant`` dealt at random; ``seed`` repeats the open deal and
    ``hidden_seed`` the hidden order (each drawn fresh when left out)."""
    chosen = way(variant)
    setup = Setup(seed=secrets.randbelow(2**31) if seed is None else seed,
                  hidden_seed=secrets.randbelow(2**31) if hidden_seed is None else hidden_seed,
                  sets=sets, wind_cards=wind_cards, light=light, cards=cards)
    return chosen.referee(setup)

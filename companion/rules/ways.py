"""The ways of playing: each declared once, here, and owning its whole life.

Modelled on python-chess's ``chess/variant.py`` (and ``chess/pgn.py``, which rebuilds a game
from its header through ``find_variant``): one entry per way of playing, holding its name, a
sentence for the players, how it is dealt, its referee from a known start (a fixed deal, a
save file's header, a record), its record format, whether the mat reads it and whether the
computer plays it. Its rules and their readings are the section of ``docs/rules.md`` whose
heading ends with its name in backquotes (tests/rules/test_variants.py checks each has one). The
CLI, self-play, the service, the computer, the records and the pages (through
``GET /api/ways``) all ask this registry (:func:`way`); nothing else names the ways. Adding a way of playing is one :func:`register`
call with its referee.

Secrets by construction: ``seed`` deals the open cards and is public (the save file's
header, the game list, every record); a way with a hidden random order (Knowledge's
face-down deck) takes it from ``hidden_seed``, which only the full record reveals.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import CARDS, CardTable
from .deal import deal, fixed_deal
from .engine import ANY
from .errors import CardError, SetupError, VariantError
from .position import Position, parse_position
from .referee import Referee
from .shadow import ShadowReferee
from .knowledge_half import KnowledgeHalf
from .shadow_half import HalfReferee
from .simultaneous_half import SimultaneousHalf
from .variants import ROLES, ClassicReferee, SimultaneousReferee, example_conditional_cards, start_position

# The referee of whichever way was chosen, each with its own state type.
AnyReferee = Referee[Any]

# How the computer plays a way: searched on the main board, or from its seat's knowledge.
BOARD_SEARCH, HIDDEN_SEARCH = "board", "hidden"


@dataclass(frozen=True)
class Setup:
    """What a new game is dealt from. ``hidden_seed`` orders what nobody may see; ``first``
    overrides the side card's stamp (ways dealt on an official board only)."""
    seed: int
    hidden_seed: int
    sets: tuple[str, ...] = ("base",)
    wind_cards: int = 2
    light: str = "red"
    cards: CardTable = CARDS
    first: str | None = None


@dataclass(frozen=True)
class Start:
    """A game from a known start position: a fixed deal, a plain record, a save file's header
    or a record of a game with hidden information (whose ``turns`` tell what it needs to
    know of what was drawn)."""
    position: Position
    seed: int | None = None
    light: str = "red"
    cards: CardTable = CARDS
    turns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Way:
    """One way of playing, from its deal to its record."""
    name: str
    title: str                          # how the pages name it
    description: str                    # one sentence for the players
    deal: Callable[[Setup], AnyReferee]  # a new game dealt at random
    from_start: Callable[[Start], AnyReferee]  # a game from a known start (fixed, restart, record)
    options: tuple[str, ...] = ("sets",)  # set-up options: "sets", "wind_cards", "cards"
    mat_reads_moves: bool = False       # the mat reads main-board moves; else the phones play
    hidden: bool = False                # each seat has secrets: its phone is its private board
    ninjas: bool = False                # the players place hidden Ninjas at set-up
    # Recorded as a plain game record (position and moves, companion.rules.record), replayed
    # from its start; else as the records of companion.rules.sealed.
    plain_record: bool = False
    board: str | None = None            # the official board it is dealt on (base, wind), if any
    computer: str | None = BOARD_SEARCH  # how the computer plays it; None: no computer seat
    # Across two tables (docs/tables.md): the referee of one table's half of the game, which
    # keeps the other seat's secrets at the other table; None: each table holds the whole
    # game, which only a way without a seat's secret allows.
    table_half: Callable[[AnyReferee, str, str, Callable[[int], str]], AnyReferee] | None = None
    not_across: str | None = None       # why two tables do not play it (for the players)

    @property
    def across_tables(self) -> bool:
        """Two tables can play it: the whole game at each (no seat's secret), or each its half."""
        return self.not_across is None and (self.table_half is not None or not self.hidden)

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
                "ninjas": self.ninjas, "computer": self.computer is not None}

    def fixed(self, red: list[str], blue: list[str], side: str, *, first: str | None = None,
              cards: CardTable = CARDS) -> AnyReferee:
        """A game from cards the players chose (ways with the "cards" option)."""
        if "cards" not in self.options or self.board is None:
            raise SetupError(f"fixed cards are for ways dealt on an official board, not {self.name}")
        d = fixed_deal(red, blue, side, variant=self.board, first=first, cards=cards)
        return self.from_start(Start(d.position, cards=cards))

    def restart(self, header: Mapping[str, Any]) -> AnyReferee:
        """The game a save file's header started (the service's restart): from its start
        position when it was fixed or is recorded plainly, else dealt again from its seeds."""
        if header.get("fixed") or self.plain_record:
            return self.from_start(Start(parse_position(header["start"]), seed=header.get("seed")))
        seed = header["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError("the header's seed is not a number")
        return new_referee(self.name, seed=seed, hidden_seed=header.get("hidden_seed"),
                           sets=tuple(header["sets"]), wind_cards=header.get("wind_cards", 2))

    def no_computer(self) -> str:
        """Why the computer does not play this way (for the players)."""
        return f"the computer does not play {self.title}"


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


def _dealt(board: str) -> Callable[[Setup], AnyReferee]:
    def make(s: Setup) -> AnyReferee:
        d = deal(board, s.sets, wind_cards=s.wind_cards, seed=s.seed, first=s.first, cards=s.cards)
        return ClassicReferee(d.position, board, cards=s.cards, seed=s.seed)
    return make


def _classic(name: str) -> Callable[[Start], AnyReferee]:
    def make(s: Start) -> AnyReferee:
        return ClassicReferee(s.position, name, roles=ROLES.get(name, (ANY, ANY)), cards=s.cards,
                              seed=s.seed)
    return make


def _shadow(mode: str) -> Callable[[Setup], AnyReferee]:
    def make(s: Setup) -> AnyReferee:
        return ShadowReferee.deal(mode, seed=s.seed, sets=s.sets, light=s.light, cards=s.cards)
    return make


def _shadow_start(mode: str) -> Callable[[Start], AnyReferee]:
    def make(s: Start) -> AnyReferee:
        return ShadowReferee(s.position, mode, light=s.light, cards=s.cards, seed=s.seed)
    return make


def _half(whole: AnyReferee, here: str, game: str, salts: Callable[[int], str]) -> AnyReferee:
    assert isinstance(whole, ShadowReferee), "a Light & Shadow way deals a ShadowReferee"
    return HalfReferee(whole, here, game, salts)


def _knowledge_half(whole: AnyReferee, here: str, game: str, salts: Callable[[int], str]) -> AnyReferee:
    # The chain's seed: a salt no action uses (each action's is its number's).
    assert isinstance(whole, ClassicReferee) and whole.knowledge, "Knowledge deals a ClassicReferee"
    return KnowledgeHalf(whole, here, salts(-1))


def _simultaneous_half(whole: AnyReferee, here: str, game: str, salts: Callable[[int], str]) -> AnyReferee:
    assert isinstance(whole, SimultaneousReferee), "Simultaneous play deals a SimultaneousReferee"
    return SimultaneousHalf(whole, here, game, salts)


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


def _knowledge_start(s: Start) -> AnyReferee:
    # A record's deck is the cards drawn in the game ("+Card"), in order: as far as it was used.
    deck = tuple(s.cards[tok[1:]].name for text in s.turns for tok in text.split()
                 if tok.startswith("+"))
    return ClassicReferee(s.position, "knowledge", knowledge=True, deck=deck, cards=s.cards,
                          seed=s.seed)


def _simultaneous(s: Setup) -> AnyReferee:
    names = _shuffled(_pool(s, 6, "simultaneous"), s.seed)
    start = start_position(names[:2], names[2:4], names[4:6], s.cards)
    return SimultaneousReferee(start, cards=s.cards, seed=s.seed)


def _simultaneous_start(s: Start) -> AnyReferee:
    return SimultaneousReferee(s.position, cards=s.cards, seed=s.seed)


def _conditional(s: Setup) -> AnyReferee:
    own = example_conditional_cards()
    table = s.cards.with_cards(c for c in own if c.name not in s.cards)
    names = _shuffled([c.name for c in own], s.seed)
    start = start_position(names[:2], names[2:4], names[4:5], table)
    return ClassicReferee(start, "conditional", cards=table, seed=s.seed)


WAYS: dict[str, Way] = {}


def register(entry: Way) -> Way:
    """Add a way of playing: the one call a new way needs besides its referee."""
    if entry.name in WAYS:
        raise VariantError(f"the way {entry.name!r} is already registered")
    WAYS[entry.name] = entry
    return entry


for _entry in (
    Way("base", "Onitama (base game)", "The official game: five cards, the masters race for "
        "the temple or the capture.", _dealt("base"), _classic("base"), options=("sets", "cards"),
        mat_reads_moves=True, plain_record=True, board="base"),
    Way("wind", "Way of the Wind", "The official expansion: a Wind Spirit in the middle moves "
        "with the Wind Spirit cards.", _dealt("wind"), _classic("wind"),
        options=("sets", "wind_cards", "cards"), mat_reads_moves=True, plain_record=True,
        board="wind"),
    Way("shadow", "Way of the Shadow", "Light & Shadow: each player hides Ninjas on their "
        "phone and hunts the other's with Lanterns.", _shadow("shadow"), _shadow_start("shadow"),
        mat_reads_moves=True, hidden=True, ninjas=True, computer=HIDDEN_SEARCH, table_half=_half),
    Way("light", "Way of the Light", "Light & Shadow: the Light Master plays on the mat "
        "against the Shadow Master's hidden Ninjas.", _shadow("light"), _shadow_start("light"),
        mat_reads_moves=True, hidden=True, ninjas=True, computer=HIDDEN_SEARCH, table_half=_half),
    Way("seven", "3-card hands", "Each player holds three cards: one for the master and two "
        "for the students.", _hands("seven"), _classic("seven")),
    Way("nine", "9-card variant", "Each player holds four cards: two for the master and two "
        "for the students.", _hands("nine"), _classic("nine")),
    Way("knowledge", "Knowledge", "Losing a student draws a face-down card onto your side "
        "stack, and you choose which card to take back.", _knowledge, _knowledge_start,
        table_half=_knowledge_half),
    # Both seats move at once, which the computer's search does not model.
    Way("simultaneous", "Simultaneous play", "Both players commit a move in secret on their "
        "phones, and the moves resolve together.", _simultaneous, _simultaneous_start,
        hidden=True, computer=None, table_half=_simultaneous_half),
    Way("conditional", "Conditional moves", "The base game dealt from cards with move-only "
        "and capture-only steps.", _conditional, _classic("conditional"), options=()),
):
    register(_entry)


# The older word for a way of playing: still taken wherever "way" is (requests, scripts,
# saved games), and still written where a shared format fixes it (a trace's first line).
OLD_WORD = "variant"


def named_way(data: Mapping[str, Any], default: str | None = None) -> Any:
    """The way a request or a header names, under "way" or its older name "variant" (not
    checked: :func:`way` does that). Raises :class:`VariantError` when both name different ways."""
    if "way" in data and OLD_WORD in data and data["way"] != data[OLD_WORD]:
        raise VariantError(f"'way' and '{OLD_WORD}' name different ways "
                           f"({data['way']!r}, {data[OLD_WORD]!r})")
    return data.get("way", data.get(OLD_WORD, default))


def way(name: object) -> Way:
    """The way of playing called ``name``; :class:`VariantError` names the known ones."""
    try:
        return WAYS[name]  # type: ignore[index]
    except (KeyError, TypeError):
        raise VariantError(f"unknown way {name!r} (known: {', '.join(WAYS)})") from None


def new_referee(name: str, *, seed: int | None = None, hidden_seed: int | None = None,
                sets: tuple[str, ...] = ("base",), cards: CardTable = CARDS, light: str = "red",
                wind_cards: int = 2, first: str | None = None) -> AnyReferee:
    """A new game of the way ``name`` dealt at random; ``seed`` repeats the open deal and
    ``hidden_seed`` the hidden order (each drawn fresh when left out)."""
    chosen = way(name)
    if first is not None and chosen.board is None:
        raise SetupError(f"the first player is chosen for ways dealt on an official board, not {name}")
    setup = Setup(seed=secrets.randbelow(2**31) if seed is None else seed,
                  hidden_seed=secrets.randbelow(2**31) if hidden_seed is None else hidden_seed,
                  sets=sets, wind_cards=wind_cards, light=light, cards=cards, first=first)
    return chosen.deal(setup)

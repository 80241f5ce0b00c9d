"""Setting up a game: the cards dealt, who starts, the starting board.

Base Onitama deals five move cards: two to each player and one beside the mat, whose stamp
decides who starts. Way of the Wind deals ``k`` Wind Spirit cards (0-5) and ``5 - k`` move
cards: each player gets ``k // 2`` Wind Spirit cards and fills the hand with move cards; the
fifth card beside the mat is the last Wind Spirit card when ``k`` is odd, else a move card.
That one rule gives every set-up of the Way of the Wind rulebook (standard 2, greater 3-5,
lesser 0-1). A side card with no known stamp (two 2025 promos) lets Red start.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import TypedDict

from .cards import CARDS, CardTable
from .errors import CardError, SetupError
from .position import BLUE, RED, Position, color_index, parse_position

START_BOARD = "bbBbb/5/5/5/rrRrr"
START_BOARD_WIND = "bbBbb/5/2W2/5/rrRrr"
# The two official boards deal() sets up (the ways of playing are in companion.rules.ways).
BOARDS = ("base", "wind")


class DealtCards(TypedDict):
    red: list[str]
    blue: list[str]
    side: str


@dataclass(frozen=True)
class Deal:
    """What a game was set up from: enough to deal it again and to write its record."""
    variant: str
    sets: tuple[str, ...]
    wind_cards: int
    seed: int | None
    position: Position
    fixed: bool = False

    def cards(self) -> DealtCards:
        pos = self.position
        return {"red": list(pos.hands[RED]), "blue": list(pos.hands[BLUE]), "side": pos.side[0]}


def first_player(side_card: str, cards: CardTable = CARDS) -> int:
    stamp = cards[side_card].stamp
    return BLUE if stamp == "blue" else RED


def _position(variant: str, red: list[str], blue: list[str], side: str, cards: CardTable,
              first: str | None) -> Position:
    board = START_BOARD_WIND if variant == "wind" else START_BOARD
    turn = first or ("blue" if first_player(side, cards) == BLUE else "red")
    names = [n.replace(" ", "-") for n in (*red, *blue)]
    text = (f"{board} {turn} {','.join(names[:len(red)])} {','.join(names[len(red):])} "
            f"{side.replace(' ', '-')}")
    return parse_position(text, cards)


def deal(variant: str = "base", sets: tuple[str, ...] = ("base",), *, wind_cards: int = 2,
         seed: int | None = None, first: str | None = None, cards: CardTable = CARDS) -> Deal:
    """Deal a new game at random from the chosen card sets; ``seed`` makes it repeatable."""
    if variant not in BOARDS:
        raise SetupError(f"unknown variant {variant!r} (known: {', '.join(BOARDS)})")
    if first is not None:
        color_index(first)
    sets = tuple(sets)
    try:
        pool = [c.name for c in cards.in_sets(sets) if not c.is_wind_card]
    except CardError as exc:
        raise SetupError(str(exc)) from None
    k = wind_cards if variant == "wind" else 0
    if not 0 <= k <= 5:
        raise SetupError(f"Way of the Wind uses 0 to 5 Wind Spirit cards, not {k}")
    spirits = [c.name for c in cards if c.is_wind_card]
    if len(pool) < 5 - k:
        raise SetupError(f"the sets {', '.join(sets)} hold {len(pool)} move cards; {5 - k} are needed")
    if len(spirits) < k:
        raise SetupError(f"only {len(spirits)} Wind Spirit cards are known; {k} are needed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    rng = random.Random(seed)
    moves = rng.sample(pool, 5 - k)
    winds = rng.sample(spirits, k)
    per_hand = k // 2
    red = winds[:per_hand] + moves[:2 - per_hand]
    blue = winds[per_hand:2 * per_hand] + moves[2 - per_hand:4 - 2 * per_hand]
    side = winds[-1] if k % 2 else moves[-1]
    return Deal(variant, sets, k, seed, _position(variant, red, blue, side, cards, first))


def fixed_deal(red: list[str], blue: list[str], side: str, *, variant: str | None = None,
               first: str | None = None, cards: CardTable = CARDS) -> Deal:
    """A game from cards the players chose; Wind Spirit cards imply Way of the Wind."""
    try:
        names = [cards[n].name for n in (*red, *blue, side)]
    except CardError as exc:
        raise SetupError(str(exc)) from None
    k = sum(cards[n].is_wind_card for n in names)
    variant = variant or ("wind" if k else "base")
    if variant not in BOARDS:
        raise SetupError(f"unknown variant {variant!r} (known: {', '.join(BOARDS)})")
    if k and variant != "wind":
        raise SetupError("Wind Spirit cards need the Way of the Wind")
    if first is not None:
        color_index(first)
    sets = tuple(sorted({cards[n].set for n in names}))
    pos = _position(variant, names[:len(red)], names[len(red):len(red) + len(blue)], names[-1],
                    cards, first)
    return Deal(variant, sets, k, None, pos, fixed=True)

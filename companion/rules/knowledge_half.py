"""One table's referee of a Knowledge game played across two tables (docs/tables.md).

Knowledge's face-down deck is nobody's to see: a captured student's owner draws its top card.
At one table the companion orders the deck from a hidden seed; across two tables, either
companion holding that order could show it to its players. So neither holds it: each card
is drawn when the rules need it, by both tables together, and neither can know or steer it
before the other has spoken.

Each table makes a hash chain from a seed only it knows (its secret's salt):
``d[L]`` = the seed, ``d[k-1] = SHA-256(d[k])``, and publishes the tip ``d[0]`` before the
first move (``chain <hex>``, Red first). The ``k``-th draw waits for both tables' ``d[k]``
(``key <hex>``: the mover's first, answered at once by each table), each checked as it comes
(``SHA-256(d[k]) == d[k-1]``): a key is fixed by the tip published before the game, so a
table cannot pick it after seeing the other's, and a false one is refused like an illegal
move. The card drawn is the one at ``SHA-256(d[k] of Red + d[k] of Blue) mod n`` among the
``n`` cards not yet drawn (a public set: the open deal leaves them), sorted by name.

The rest is :class:`~.variants.ClassicReferee`'s Knowledge, on the same state: the move that
draws is played once the card is known, and the turns read as at one table (``+Card``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Sequence

from .actions import Action, action_text
from .engine import Engine
from .errors import VariantError
from .jsondata import JsonObject
from .moves import Move
from .position import BLUE, COLORS, RED, Position
from .referee import Event, Result, TurnLog
from .table_half import TableHalf
from .variants import ClassicReferee, ClassicState, put_seat

CHAIN = 16                  # keys in a table's chain: more than the draws of a game (8 students)
KINDS = ("chain", "key")


def link_below(value: str) -> str:
    """The chain's link before ``value``: what a key must hash to."""
    return hashlib.sha256(bytes.fromhex(value)).hexdigest()


def chain_of(seed: str) -> tuple[str, ...]:
    """A table's chain, tip first: ``d[0] .. d[CHAIN]``."""
    links = [hashlib.sha256(seed.encode()).hexdigest()]
    for _ in range(CHAIN):
        links.append(link_below(links[-1]))
    return tuple(reversed(links))


@dataclass(frozen=True, slots=True)
class ChainLink:
    """A table's tip (``chain``) or its key for a draw (``key``). Two are equal when they
    open the same link (``opens``: the hash a key must give; a tip opens nothing), so the
    legal key of the other table is the one that opens its last link, whatever it is."""
    kind: str
    value: str = field(default="", compare=False)
    opens: str = ""

    def text(self) -> str:
        return f"{self.kind} {self.value}"


def parse_link(text: str) -> ChainLink | None:
    """``chain <hex>`` or ``key <hex>``; None for any other text."""
    parts = text.split() if isinstance(text, str) else []
    if len(parts) != 2 or parts[0] not in KINDS or len(parts[1]) != 64:
        return None
    try:
        bytes.fromhex(parts[1])
    except ValueError:
        return None
    value = parts[1].lower()
    return ChainLink(parts[0], value, link_below(value) if parts[0] == "key" else "")


@dataclass(frozen=True, slots=True)
class KnowledgeHalfState:
    inner: ClassicState          # its deck: the cards not drawn yet, sorted (no order known)
    links: tuple[str | None, str | None]   # each seat's last link published (tip, then keys)
    keys: tuple[str | None, str | None]    # the keys of the draw under way
    pending: tuple[str, Move] | None       # a move that draws, waiting for the card
    rows: tuple[tuple[str, str], ...]      # every action as it travels: (seat, text)

    @property
    def result(self) -> Result | None:
        return self.inner.result

    @property
    def log(self) -> TurnLog:
        return self.inner.log


class KnowledgeHalf(TableHalf[KnowledgeHalfState]):
    """``whole``: the Knowledge game as dealt (its start and its deck's cards, never their
    order); ``here``: this table's seat; ``salts``: this table's (its chain's seed is one)."""

    row_kinds = (ChainLink,)

    def __init__(self, whole: ClassicReferee, here: str, salts_seed: str):
        if here not in COLORS or not whole.knowledge:
            raise VariantError("a Knowledge half is one seat's of a Knowledge game")
        self.classic = ClassicReferee(whole.start, whole.mode, knowledge=True,
                                      deck=tuple(sorted(whole.state.deck)), cards=whole.cards,
                                      seed=whole.seed)
        self.mode, self.start, self.seed = whole.mode, whole.start, whole.seed
        self.here = COLORS.index(here)
        self.chain = chain_of(salts_seed)
        super().__init__(KnowledgeHalfState(self.classic.state, (None, None), (None, None), None, ()),
                         whole.cards)

    # -- what the table does at once ---------------------------------------------------------

    def answer(self) -> str | None:
        """This table's tip or key, when the rules wait for it; else None."""
        st = self._state
        if st.result is not None or self._to_act(st) != (COLORS[self.here],) or not self._drawing(st):
            return None
        return self._own(st).text()

    def table_row(self, text: str) -> Action | None:
        """A tip or a key: played off the mat at once."""
        return parse_link(text)  # type: ignore[return-value]     # Referee.act takes this mode's steps

    def position(self) -> Position:
        return Engine.position(self._state.inner.st)

    # -- the hooks ----------------------------------------------------------------------------

    def _drawing(self, st: KnowledgeHalfState) -> bool:
        return st.links[BLUE] is None or st.pending is not None

    def _to_act(self, st: KnowledgeHalfState) -> tuple[str, ...]:
        if st.links[RED] is None:
            return ("red",)
        if st.links[BLUE] is None:
            return ("blue",)
        if st.pending is not None:
            mover = COLORS.index(st.pending[0])
            return (COLORS[mover] if st.keys[mover] is None else COLORS[1 - mover],)
        return self.classic._to_act(st.inner)

    def _own(self, st: KnowledgeHalfState) -> ChainLink:
        if st.links[self.here] is None:
            return ChainLink("chain", self.chain[0])
        k = self.chain.index(st.links[self.here]) + 1
        if k > CHAIN:
            raise VariantError("this table's chain has no key left")
        return ChainLink("key", self.chain[k], link_below(self.chain[k]))

    def _legal(self, st: KnowledgeHalfState, seat: str) -> Sequence[Action]:
        c = COLORS.index(seat)
        if not self._drawing(st):
            return self.classic._legal(st.inner, seat)
        if c == self.here:
            out = [self._own(st)]
        else:
            last = st.links[c]
            out = [ChainLink("chain") if last is None else ChainLink("key", "", last)]
        return out  # type: ignore[return-value]

    def _apply(self, st: KnowledgeHalfState, seat: str,
               action: Action) -> tuple[KnowledgeHalfState, list[Event]]:
        c = COLORS.index(seat)
        link: ChainLink | Action = action
        if isinstance(link, ChainLink):
            st = replace(st, links=put_seat(st.links, c, link.value),
                         rows=st.rows + ((seat, link.text()),))
            if link.kind == "chain":
                return st, []
            st = replace(st, keys=put_seat(st.keys, c, link.value))
            if None in st.keys:
                return st, []
            return self._draw(st)
        st = replace(st, rows=st.rows + ((seat, action_text(action)),))
        if isinstance(action, Move) and self._draws(st.inner, seat, action):
            return replace(st, pending=(seat, action)), []
        inner, events = self.classic._apply(st.inner, seat, action)
        return replace(st, inner=inner), events

    def _draws(self, inner: ClassicState, seat: str, move: Move) -> bool:
        """Does ``move`` take a student while cards are left to draw?"""
        if not inner.deck:
            return False
        trial, _ = self.classic._apply(replace(inner, deck=inner.deck[:1]), seat, move)
        return not trial.deck

    def _draw(self, st: KnowledgeHalfState) -> tuple[KnowledgeHalfState, list[Event]]:
        """Both keys are in: the card is drawn, and the move that drew it is played."""
        red, blue = st.keys
        assert st.pending is not None and red is not None and blue is not None, "a draw has both keys"
        seat, move = st.pending
        deck = st.inner.deck
        both = hashlib.sha256(bytes.fromhex(red) + bytes.fromhex(blue)).digest()
        card = deck[int.from_bytes(both, "big") % len(deck)]
        rest = tuple(name for name in deck if name != card)
        inner, events = self.classic._apply(replace(st.inner, deck=(card, *rest)), seat, move)
        return replace(st, inner=inner, keys=(None, None), pending=None), events

    def _why(self, st: KnowledgeHalfState, seat: str, action: Action) -> str:
        if self._drawing(st):
            return (f"{seat}'s table owes its {'key for the draw' if st.pending else 'chain'}: "
                    "a key must hash to its last link")
        return self.classic._why(st.inner, seat, action)

    def _view(self, st: KnowledgeHalfState, seat: str | None) -> JsonObject:
        out = self.classic._view(st.inner, seat)
        if st.pending is not None:
            out["phase"] = "draw"
        return out

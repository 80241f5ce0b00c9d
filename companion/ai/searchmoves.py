"""The search's moves: generation, functional make with the Zobrist key updated as it goes,
and the captures quiescence looks at (listed, or only checked for), on the move generator's
state tuples (``companion.rules.engine``) with both side stacks in the last field (see
:mod:`companion.ai.search`). :class:`SearchMoves` is the base of the searcher: the search
itself is in ``search.py``.
"""

from __future__ import annotations

from typing import Any

from companion.rules.cards import CARDS, CardTable
from companion.rules.engine import _GOAL, ANY, MASTER_ONLY, STUDENT_ONLY, Engine

from .searchtypes import SearchMove, SearchState
from .zobrist import STACK, Zobrist

# What the capture check needs of a card: whether it is conditional, its master's reach, and
# its students' reach by rank and set of students (see ``SearchMoves._reach_info``).
_ReachInfo = tuple[bool, tuple[int, ...], tuple[tuple[int, ...], ...]]


def _union(masks: tuple[int, ...], first: int, bits: int) -> int:
    """The union of ``masks[first + i]`` for every bit ``i`` set in ``bits``."""
    out = 0
    for i in range(5):
        if bits >> i & 1:
            out |= masks[first + i]
    return out


class SearchMoves:
    """The moves of one card table and hand layout, for the search."""

    def __init__(self, cards: CardTable = CARDS, roles: tuple[int, ...] = (ANY, ANY), *,
                 zobrist: Zobrist | None = None):
        self.engine = Engine(cards, roles)
        self.roles = roles
        self.cards = cards
        self.z = zobrist or Zobrist()
        self._reach_info_by_color: tuple[dict[str, _ReachInfo], dict[str, _ReachInfo]] = ({}, {})

    def moves(self, st: SearchState) -> list[SearchMove]:
        """Every legal move, with the Knowledge take index when the mover's stack has a
        choice."""
        mvs = self.engine.moves(st)
        mine = st[8][0]
        if len(mine) > 1:
            return [mv + (k,) for mv in mvs for k in range(len(mine))]
        return mvs

    def make(self, st: SearchState, h: int, mv: SearchMove) -> tuple[SearchState, int]:
        own, opp, mo, mp, sp, color, ho, hp, stacks = st
        slot, f, t, sf, su = mv[0], mv[1], mv[2], mv[3], mv[4]
        z = self.z
        enemy = color ^ 1
        if f >= 0:
            tb = 1 << t
            own ^= (1 << f) | tb
            if f == mo:
                mo = t
                zm = z.masters[color]
                h ^= zm[f] ^ zm[t]
            else:
                zs = z.students[color]
                h ^= zs[f] ^ zs[t]
            if opp & tb:
                opp ^= tb
                if t == mp:
                    mp = -1
                    h ^= z.masters[enemy][t]
                else:
                    h ^= z.students[enemy][t]
        if sf >= 0:
            ub = 1 << su
            h ^= z.spirit[sf] ^ z.spirit[su]
            if own & ub:
                own ^= ub | (1 << sf)
                zs = z.students[color]
                h ^= zs[su] ^ zs[sf]
            elif opp & ub:
                opp ^= ub | (1 << sf)
                zs = z.students[enemy]
                h ^= zs[su] ^ zs[sf]
            sp = su
        mine, theirs = stacks
        take = mv[6] if len(mv) > 6 else 0
        card = ho[slot]
        new = mine[take]
        place = color * 3 + self.roles[slot]
        cards = z._cards
        zc = cards.get(card) or z.card(card)
        zn = cards.get(new) or z.card(new)
        h ^= zc[place] ^ zc[STACK + enemy] ^ zn[STACK + color] ^ zn[place] ^ z.turn
        hand = ho[:slot] + (new,) + ho[slot + 1:]
        return (opp, own, mp, mo, sp, enemy, hp, hand,
                (theirs + (card,), mine[:take] + mine[take + 1:])), h

    def key(self, st: SearchState) -> int:
        return self.z.full(st, self.roles)

    def _captures(self, st: SearchState) -> list[SearchMove] | None:
        """The captures of ``st`` in the generator's order, or None when the mover has a
        winning move; without building the quiet moves. Hands with conditional cards go
        through the full generator."""
        own, opp, mo, mp, sp, color, ho, hp, _ = st
        tables = self.engine._tables
        roles = self.roles
        goal = 1 << _GOAL[color]
        if (own | ((1 << sp) if sp >= 0 else 0)) & goal:
            goal = 0                       # the Temple Arch is blocked: no win by stream
        wins = (1 << mp) if mp >= 0 else 0
        masters = wins | ((1 << mo) if mo >= 0 else 0)
        out: list[SearchMove] = []
        for slot, name in enumerate(ho):
            cm = (tables.get(name) or self.engine.table(name))[color]
            if cm.conditional:
                return self._captures_slow(st)
            wind = cm.wind
            role = roles[slot]
            m = own
            while m:
                b = m & -m
                f = b.bit_length() - 1
                m ^= b
                piece = _piece(cm, f, f == mo, role)
                if piece is None:
                    continue
                reach, steps = piece
                if reach & ((wins | goal) if f == mo else wins):
                    return None
                hits = reach & opp
                if not hits:
                    continue
                if not wind:
                    out.extend((slot, f, t, -1, -1, False) for t, tb in steps if hits & tb)
                    continue
                # A Wind Spirit card: after the capture the Spirit takes the bottom step
                # where it can (not onto a master), as the generator orders them.
                for t, tb in steps:
                    if hits & tb:
                        _spirit_steps(out, (slot, f, t), cm.spirit[sp], sp,
                                      masters ^ (b | tb) if f == mo else masters)
        return out

    def _reach_info(self, name: str, color: int) -> _ReachInfo:
        """What the capture check needs of card ``name``: whether it is conditional, its
        master's reach, and for each rank, for each set of students on it (5 bits), the
        squares they reach (the union of a whole army's reach in five lookups)."""
        cm = (self.engine._tables.get(name) or self.engine.table(name))[color]
        reach = cm.student_mask
        rows = tuple(tuple(_union(reach, r * 5, bits) for bits in range(32)) for r in range(5))
        found = self._reach_info_by_color[color][name] = (cm.conditional, cm.master_mask, rows)
        return found

    def _capture_check(self, st: SearchState) -> bool | None:
        """Whether the mover has a capture (None: it has a winning move), without listing
        them: most quiescence nodes have none, or stop at the stand-pat score."""
        own, opp, mo, mp, sp, color, ho, _, _ = st
        known = self._reach_info_by_color[color]
        roles = self.roles
        goal = 1 << _GOAL[color]
        if (own | ((1 << sp) if sp >= 0 else 0)) & goal:
            goal = 0
        wins = (1 << mp) if mp >= 0 else 0
        students = own & ~(1 << mo) if mo >= 0 else own
        hit = 0
        for slot, name in enumerate(ho):
            conditional, master_mask, rows = known.get(name) or self._reach_info(name, color)
            if conditional:
                captures = self._captures_slow(st)
                return None if captures is None else bool(captures)
            role = roles[slot]
            if role != MASTER_ONLY and students:
                reach = (rows[0][students & 31] | rows[1][students >> 5 & 31] | rows[2][students >> 10 & 31]
                         | rows[3][students >> 15 & 31] | rows[4][students >> 20 & 31])
                if reach & wins:
                    return None
                hit |= reach
            if role != STUDENT_ONLY and mo >= 0:
                reach = master_mask[mo]
                if reach & (wins | goal):
                    return None
                hit |= reach
        return bool(hit & opp)

    def _captures_slow(self, st: SearchState) -> list[SearchMove] | None:
        opp = st[1]
        out = []
        for mv in self.engine.moves(st):
            if mv[5]:
                return None
            if mv[1] >= 0 and opp >> mv[2] & 1:
                out.append(mv)
        return out


def _piece(cm: Any, f: int, master: bool, role: int) -> tuple[int, Any] | None:
    """The squares the piece on ``f`` reaches with the card ``cm`` and its steps, or None when
    the card's role (conditional hands) does not move that piece."""
    if master:
        return None if role == STUDENT_ONLY else (cm.master_mask[f], cm.master[f])
    return None if role == MASTER_ONLY else (cm.student_mask[f], cm.student[f])


def _spirit_steps(out: list[tuple[Any, ...]], capture: tuple[int, int, int],
                  steps: Any, sp: int, masters: int) -> None:
    """A Wind Spirit card's capture ``capture`` (slot, from, to) with each step the Spirit can
    take from ``sp`` (not onto a master), or with none when it can take none."""
    stepped = False
    for u, ub in steps:
        if not masters & ub:
            out.append((*capture, sp, u, False))
            stepped = True
    if not stepped:
        out.append((*capture, -1, -1, False))

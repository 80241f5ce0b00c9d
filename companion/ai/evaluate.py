"""The static evaluation: material, and a piece-square table built per card from the squares
each held card reaches from each square, plus the master's road to the enemy Temple Arch:
how many of its own moves the cards it holds (and the one it takes next) need to carry it
there, and which master is ahead in that race.

Scores are in hundredths of a student, from the side to move's point of view. The tables
depend on the cards a side holds, so they are built once per (colour, hand, next card) and
cached: evaluating a node is then one table look-up per pawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from companion.rules.engine import Engine
from companion.rules.position import TEMPLE

from .memory import budget
from .searchtypes import SearchState

# A square's distance from the board's edge, 0 (edge) to 2 (c3).
_CENTRE = tuple(min(sq % 5, 4 - sq % 5, sq // 5, 4 - sq // 5) for sq in range(25))


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights, as ``benchmarks/tune_ai.py`` tuned them by self-play (the race
    terms, ``temple`` and ``tempo`` since by ``benchmarks/tune_race.py``)."""
    student: int = 100       # one student
    reach: int = 9           # per square a held card reaches from a student's square
    master_reach: int = 7    # per square a held card reaches from the master's square
    next_card: int = 25      # percent: the card the mover takes next counts this much
    temple: int = 5          # per step the master is closer to the enemy Temple Arch
    advance: int = 1         # per rank a student stands forward (to rank 3)
    centre: int = 5          # per ring towards c3, for a student
    tempo: int = 17          # having the move
    race1: int = 39          # the master one move from the enemy Temple Arch with a held card
    race2: int = 15          # ... two moves (a held card, then the other or the next one)
    race3: int = 1           # ... three moves (any of its cards)
    race_lead: int = 14      # the mover's master is that close and no farther than the enemy's

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Weights":
        names = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in data.items() if k in names})


# (student table, master table, the student table by rank and set of students on it, the
# master's moves to the enemy Temple Arch by square)
_Entry = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]
FAR = 4     # the race's distance when the master needs more than three moves


def _reach(mask: int) -> int:
    return mask.bit_count()


def race_distances(hand: list[tuple[int, ...]], nxt: tuple[int, ...] | None, goal: int) -> tuple[int, ...]:
    """Per square, how many moves the master needs to the square ``goal`` (1 to 3, else
    FAR): ``hand`` holds each held card's master reach masks, ``nxt`` the card's taken after
    the first move (None: not known). Move one uses a held card, move two one of the others
    or ``nxt`` (the card used first is gone to the enemy), three: within three moves of any of
    them in any order; pawns in the way are not counted. ``core.c``'s ``race_of`` is the same computation."""
    bit = 1 << goal
    later = [*hand, nxt] if nxt is not None else hand
    union = [0] * 25
    for m in later:
        for sq in range(25):
            union[sq] |= m[sq]
    out = []
    for sq in range(25):
        d = FAR
        if any(m[sq] & bit for m in hand):
            d = 1
        elif any(_two(m[sq], [o for j, o in enumerate(hand) if j != i] + ([nxt] if nxt is not None else []), bit)
                 for i, m in enumerate(hand)):
            d = 2
        else:
            frontier = union[sq]
            for _ in range(2):
                frontier |= _spread(frontier, union)
            if frontier & bit:
                d = 3
        out.append(d)
    return tuple(out)


def _two(first: int, others: list[tuple[int, ...]], bit: int) -> bool:
    """Whether a square of ``first`` reaches ``bit`` with one of ``others``."""
    while first:
        s1 = (first & -first).bit_length() - 1
        first &= first - 1
        if any(o[s1] & bit for o in others):
            return True
    return False


def _spread(squares: int, union: list[int]) -> int:
    out = 0
    while squares:
        sq = (squares & -squares).bit_length() - 1
        squares &= squares - 1
        out |= union[sq]
    return out


class Evaluator:
    def __init__(self, engine: Engine, weights: Weights = Weights(), *, limit: int | None = None):
        self.engine = engine
        self.w = weights
        self._tables: dict[tuple[int, tuple[str, ...], str | None], _Entry] = {}
        self.limit = limit if limit is not None else budget().eval_tables     # cached tables at most

    def tables(self, color: int, hand: tuple[str, ...], nxt: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(student table, master table) for ``color`` holding ``hand`` and taking ``nxt``."""
        student, master, _, _ = self._entry(color, hand, nxt)
        return student, master

    def card_terms(self, name: str, color: int, pct: int) -> tuple[list[int], list[int]]:
        """What card ``name`` held by ``color`` adds to each square, at ``pct`` percent:
        (for a student, for the master)."""
        w = self.w
        cm = self.engine.table(name)[color]
        return ([w.reach * _reach(cm.student_mask[sq]) * pct // 100 for sq in range(25)],
                [w.master_reach * _reach(cm.master_mask[sq]) * pct // 100 for sq in range(25)])

    def base_terms(self, color: int) -> tuple[list[int], list[int]]:
        """What each square is worth to ``color`` whatever the cards: (a student's advance
        and centrality, the master's nearness to the enemy Temple Arch)."""
        w = self.w
        goal = TEMPLE[color ^ 1]
        student, master = [], []
        for sq in range(25):
            forward = sq // 5 if color == 0 else 4 - sq // 5
            student.append(w.advance * min(forward, 2) + w.centre * _CENTRE[sq])
            dist = max(abs(sq % 5 - goal % 5), abs(sq // 5 - goal // 5))
            master.append(w.temple * (4 - dist))
        return student, master

    def _entry(self, color: int, hand: tuple[str, ...], nxt: str | None) -> _Entry:
        key = (color, hand, nxt)
        got = self._tables.get(key)
        if got is not None:
            return got
        roles = self.engine.roles
        w = self.w
        student, master = self.base_terms(color)
        cards = [(name, 100, roles[i]) for i, name in enumerate(hand)]
        if nxt is not None:
            cards.append((nxt, w.next_card, 0))
        for name, pct, role in cards:
            s_terms, m_terms = self.card_terms(name, color, pct)
            for sq in range(25):
                if role != 1:      # not a master-only column
                    student[sq] += s_terms[sq]
                if role != 2:      # not a student-only column
                    master[sq] += m_terms[sq]
        # The students' part also as five rank tables (each set of students on a rank, 5
        # bits, summed): a whole army scored in five lookups.
        ranks = tuple(tuple(sum(student[r * 5 + i] for i in range(5) if bits >> i & 1) for bits in range(32))
                      for r in range(5))
        tables = self.engine.table
        race = race_distances([tables(name)[color].master_mask for i, name in enumerate(hand) if roles[i] != 2],
                              tables(nxt)[color].master_mask if nxt is not None else None, TEMPLE[color ^ 1])
        bonus = (0, w.race1, w.race2, w.race3, 0)
        master = [v + bonus[race[sq]] for sq, v in enumerate(master)]
        if len(self._tables) >= self.limit:
            self._tables.clear()
        got = self._tables[key] = (tuple(student), tuple(master), ranks, race)
        return got

    def cached(self) -> int:
        """How many tables the cache holds now."""
        return len(self._tables)

    def __call__(self, st: SearchState) -> int:
        own: int        # the pawn sets, typed: they index the tables
        opp: int
        own, opp, mo, mp, sp, color, ho, hp, (mine, theirs) = st
        w = self.w
        cache = self._tables
        nxt = mine[0] if mine else None
        _, m_own, r_own, d_own = cache.get((color, ho, nxt)) or self._entry(color, ho, nxt)
        _, m_opp, r_opp, d_opp = cache.get((color ^ 1, hp, None)) or self._entry(color ^ 1, hp, None)
        score = w.tempo + w.student * (own.bit_count() - opp.bit_count())
        if w.race_lead:
            mine_d = d_own[mo] if mo >= 0 else FAR
            theirs_d = d_opp[mp] if mp >= 0 else FAR
            if mine_d < FAR and mine_d <= theirs_d:
                score += w.race_lead
            elif theirs_d < mine_d:
                score -= w.race_lead
        if mo >= 0:
            score += m_own[mo]
            own &= ~(1 << mo)
        if mp >= 0:
            score -= m_opp[mp]
            opp &= ~(1 << mp)
        return (score + r_own[0][own & 31] + r_own[1][own >> 5 & 31] + r_own[2][own >> 10 & 31]
                + r_own[3][own >> 15 & 31] + r_own[4][own >> 20 & 31]
                - r_opp[0][opp & 31] - r_opp[1][opp >> 5 & 31] - r_opp[2][opp >> 10 & 31]
                - r_opp[3][opp >> 15 & 31] - r_opp[4][opp >> 20 & 31])

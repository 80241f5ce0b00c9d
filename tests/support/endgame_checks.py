"""Independent checks of an endgame table (companion/ai/endgame.py), for tests/ai and
benchmarks/bench_tablebase.py: each value against a forward full-depth solve of the whole
deal (:class:`Forward`, ``tests/support/native/forward.c``), against an exact full-width
search of the rules' own move generator (companion/ai/solve.py), against its children's
values one ply down, and the hints' words and grades against the value of each move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from companion.ai.endgame import INVALID, Endgames
from companion.ai.hints import hint_table
from companion.ai.search import WIN, search_state
from companion.ai.solve import Prover
from companion.ai.view import SeatView
from companion.rules.cards import CARDS, CardTable
from companion.rules.engine import Engine, State
from companion.rules.position import RED
from companion.rules.squares import square_name
from companion.rules.variants import ClassicReferee

from forward_core import forward_module

MAX_OFFSETS = 8         # forward.c's room per card pattern


class Valued(Protocol):
    def value(self, st: State) -> int | None: ...


class Forward:
    """A deal's endgames solved forward, to full depth, by plain minimax iterated to a
    fixpoint over every position with both masters and up to ``students`` students, either
    side to move (``forward.c``): no code in common with the table's retrograde solver
    (``endgame.c``) but the rules' card offsets. ``value(st)`` as :class:`Endgames`'s."""

    def __init__(self, cards: Sequence[str], table: CardTable = CARDS, *, students: int = 2):
        mod = forward_module()
        if mod is None:
            raise RuntimeError("no C compiler: the full-depth check cannot be built here")
        self.ffi, self.lib = mod.ffi, mod.lib
        self.cards = tuple(cards)
        self.number = {name: k for k, name in enumerate(self.cards)}
        width = 1 + 2 * MAX_OFFSETS
        offsets = [0] * (10 * width)
        for x, name in enumerate(self.cards):
            card = table[name]
            for role, pattern in enumerate((card.master_pattern(), card.student_pattern())):
                steps = list(pattern or ())
                assert len(steps) <= MAX_OFFSETS
                at = (2 * x + role) * width
                offsets[at] = len(steps)
                for j, (dx, dy) in enumerate(steps):
                    offsets[at + 1 + 2 * j: at + 3 + 2 * j] = [dx, dy]
        handle = self.lib.fw_new(students, self.ffi.new("int8_t[]", offsets))
        self.handle = self.ffi.gc(handle, self.lib.fw_free)
        self.rounds: int | None = None

    def solve(self) -> int:
        """Solves every position; the rounds that decided something (the longest value)."""
        rounds = self.lib.fw_solve(self.handle)
        if rounds < 0:
            raise RuntimeError({-2: "no memory", -3: "a move out of the index",
                                -4: "a value past a byte"}.get(rounds, "failed"))
        self.rounds = rounds
        return rounds

    def stats(self) -> tuple[int, int, int]:
        """Positions held, rounds, positions with no forced result."""
        out = self.ffi.new("int64_t[3]")
        self.lib.fw_stats(self.handle, out)
        return out[0], out[1], out[2]

    def _fields(self, st: State) -> tuple[int, ...]:
        own, opp, mo, mp, _, color, ho, hp, side = st[:9]
        hand = sum(1 << self.number[name] for name in (ho if color == RED else hp))
        red, blue = (own, opp) if color == RED else (opp, own)
        rm, bm = (mo, mp) if color == RED else (mp, mo)
        return (0 if color == RED else 1, rm, bm, red & ~(1 << rm), blue & ~(1 << bm), hand,
                self.number[side[0]])

    def value(self, st: State) -> int | None:
        v = self.lib.fw_value(self.handle, *self._fields(st))
        return None if v < 0 else v

    def moves(self, st: State) -> set[tuple[str, int, int, bool]]:
        """The mover's moves by forward.c's generator: (card, from, to, wins), -1 for a pass."""
        out = self.ffi.new("int32_t[128]")
        n = self.lib.fw_moves(self.handle, *self._fields(st), out)
        assert n >= 0, "no such position"
        found = set()
        for m in out[0:n]:
            frm, to = m >> 8 & 255, m & 255
            found.add((self.cards[m >> 16 & 255], -1 if frm == 255 else frm,
                       -1 if to == 255 else to, bool(m >> 24)))
        return found

    def compare(self, table: Endgames) -> tuple[int, tuple[int, ...]]:
        """Every entry of ``table`` against this solve, as it stands (Red to move) and turned
        half a turn (Blue to move): the disagreements, and the first one's (index, 0 or 1
        for turned, the table's value, this solve's; 255 for no position)."""
        layout = table.layout
        states = [x for hand, side in layout.card_states for x in (hand, side)]
        if layout.students > 2:
            raise ValueError("forward.c solves up to two students")
        # forward.c reads two codes a set (the second 0 for one student or none).
        codes = [(layout.set_codes(k) + (0, 0))[:2] for k in range(layout.sets)]
        first = self.ffi.new("int64_t[4]")
        values: Any = table.values
        buffer = self.ffi.from_buffer("uint8_t[]", values)
        wrong = self.lib.fw_compare(self.handle, buffer, layout.sets,
                                    self.ffi.new("uint8_t[]", states),
                                    self.ffi.new("uint8_t[]", [c for ab in codes for c in ab]), first)
        return wrong, tuple(first)


def fixpoint(table: Endgames, first: int = 0, count: int | None = None) -> tuple[int, tuple[int, ...]]:
    """The full-depth check of a table too large to solve forward (five and six pieces):
    every entry from ``first`` (``count`` of them, else to the end) is what plain minimax
    makes of its children's entries, by ``forward.c``'s move generator, and no position is
    missing (``fw_fixpoint``: minimax values are the only table that meets this at every
    entry). The disagreements, and the first one's (index, the table's value, minimax's)."""
    forward = Forward(table.cards, students=0)
    layout = table.layout
    count = layout.size - first if count is None else count
    states = [x for hand, side in layout.card_states for x in (hand, side)]
    where = forward.ffi.new("int64_t[3]")
    values: Any = table.values
    wrong = forward.lib.fw_fixpoint(forward.handle, forward.ffi.from_buffer("uint8_t[]", values),
                                    layout.students, forward.ffi.new("uint8_t[]", states), first, count, where)
    if wrong < 0:
        raise MemoryError("no memory for the check")
    return wrong, tuple(where)


def sample(table: Endgames, n: int, rng: random.Random, *, longest: int | None = None) -> list[int]:
    """``n`` random indices of positions the table holds (with a value up to ``longest``)."""
    values = table.values
    out: list[int] = []
    while len(out) < n:
        i = rng.randrange(table.layout.size)
        v = values[i]
        if v != INVALID and (longest is None or v <= longest):
            out.append(i)
    return out


def by_search(engine: Engine, st: tuple, v: int, horizon: int) -> bool:
    """The exact search agrees with value ``v``: a win (odd) or a loss (even) in exactly
    ``v`` plies, or for 0 neither side forcing a win within ``horizon`` plies."""
    p = Prover(engine)
    if v == 0:
        return not p.wins_within(st, horizon) and not p.loses_within(st, horizon + 1)
    if v & 1:
        return p.wins_within(st, v) and not p.wins_within(st, v - 2)
    return p.loses_within(st, v) and not p.loses_within(st, v - 2)


def move_values(table: Valued, engine: Engine, st: tuple) -> list[tuple[tuple, int]]:
    """Each move of ``st`` with its value for the mover: -1 for a move that wins at once,
    else the child's table value (for the opponent)."""
    out = []
    for mv in engine.moves(st):
        if mv[5]:
            out.append((mv, -1))
            continue
        child = table.value(engine.apply(st, mv))
        assert child is not None, "a move out of the table"
        out.append((mv, child))
    return out


def one_ply(table: Endgames, engine: Engine, st: tuple) -> int:
    """The value ``st`` must have given its children's: the fastest win (a child lost), else
    the slowest loss (every child won), else no result."""
    kids = [v for _, v in move_values(table, engine, st)]
    if -1 in kids:
        return 1
    losses = [v for v in kids if v and not v & 1]
    if losses:
        return min(losses) + 1
    if all(v & 1 for v in kids):
        return max(kids) + 1
    return 0


def mover_score(child: int) -> int:
    """A move's exact score for its mover (search conventions, from the position moved from)."""
    if child == -1:
        return WIN - 1
    if child == 0:
        return 0
    # The child's mover wins (odd) or loses (even) with the child-th ply from the child.
    return -(WIN - 1 - child) if child & 1 else WIN - 1 - child


def check_hint(table: Valued, engine: Engine, st: tuple) -> None:
    """The hint of a solved position: every destination's words say its exact outcome, and
    its grade is right: a win good; with a win to be had, a move with no result risky; with
    none, such a move good; a loss losing."""
    pos = Engine.position(st)
    view = SeatView.from_view(ClassicReferee(str(pos)).view("red" if st[5] == 0 else "blue"))
    hint = hint_table(view, nodes=20_000)
    best: dict[tuple[str, str], int] = {}
    for mv, child in move_values(table, engine, st):
        if mv[1] < 0:
            continue        # a pass: no pawn to lift
        key = (square_name(mv[1]), square_name(mv[2]))
        best[key] = max(best.get(key, -WIN), mover_score(child))
    top = max(best.values(), default=0)
    for (frm, to), score in best.items():
        plies = WIN - abs(score)
        words = ("no forced win" if score == 0 else
                 f"wins in {(plies + 1) // 2}" if score > 0 else f"loses in {plies // 2}")
        assert hint.exact[frm][to] == words, (str(pos), frm, to)
        grade = ("good" if score > 0 else "losing" if score < 0 else "risky" if top > 0 else "good")
        assert hint[frm][to] == grade, (str(pos), frm, to)
    assert set(hint) == {frm for frm, _ in best}


def state(table: Endgames, i: int) -> tuple:
    """The search state (both side stacks) of index ``i``."""
    st = table.layout.state(i)
    return search_state(Engine.position(st))

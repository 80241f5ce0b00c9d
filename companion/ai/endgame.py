"""Exact endgames for one deal: every base-game position with both masters and up to two
students (of either colour; up to four where memory allows), for the five cards of one
game, solved by retrograde analysis when the game starts (``companion/ai/native/endgame.c``;
``docs/tablebase.md``).

A table is one byte per position, indexed as ``endgame.c`` says: positions are stored with
Red to move (Blue's are turned half a turn), by card state (Red's hand and the side card),
masters' squares and students' codes. A value is 0 (no forced result: neither side can
force a win, so play goes on for ever), an odd ``n`` (the mover wins with the ``n``-th ply
from here) or an even ``n`` (the mover loses to the ``n``-th ply).

:func:`solve` builds a table in the native core; :func:`reference` builds the same table in
pure Python with an independent method (forward, level by level, on the rules' own move
generator), for the tests on small tables: at full size it would take hours, so without a
compiler there are no endgame tables and the search plays as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from companion.rules.cards import CARDS, CardTable
from companion.rules.engine import Engine, State
from companion.rules.position import BLUE, RED

INVALID = 255           # no such position (pieces on one square, or a game already over)
RED_GOAL, BLUE_GOAL = 22, 2
MAX_STUDENTS = 4        # six pieces
CODES = 51              # a student's codes: 0 (none), 1 + q a red student on q, 26 + q a blue one


def sets(students: int) -> int:
    """How many sorted sets of ``students`` codes (0 repeatable) a table's index counts."""
    return comb(CODES - 1 + students, students)


def _turn(mask: int) -> int:
    """A mask of squares turned half a turn (square q to 24 - q)."""
    out = 0
    while mask:
        b = mask & -mask
        out |= 1 << (24 - b.bit_length() + 1)
        mask ^= b
    return out


class Layout:
    """The index of a table of ``students`` students over a deal of five cards (in the
    order given): the Python twin of ``endgame.c``'s ``encode``/``decode``. The students'
    codes, sorted (zeros first), are numbered in colex order of multisets: the ``i``-th
    code ``c`` counts ``C(c + i - 1, i)``."""

    def __init__(self, cards: Sequence[str], students: int = 2):
        if len(cards) != 5 or len(set(cards)) != 5:
            raise ValueError("a deal has five different cards")
        if not 0 <= students <= MAX_STUDENTS:
            raise ValueError(f"a table holds 0 to {MAX_STUDENTS} students")
        self.cards = tuple(cards)
        self.number = {name: k for k, name in enumerate(self.cards)}
        self.students = students
        self.sets = sets(students)
        self.size = 30 * 625 * self.sets
        self.card_states: list[tuple[int, int]] = []        # (Red's hand mask, side card)
        self.card_state: dict[tuple[int, int], int] = {}
        for hand in range(32):
            if hand.bit_count() != 2:
                continue
            for side in range(5):
                if not hand >> side & 1:
                    self.card_state[(hand, side)] = len(self.card_states)
                    self.card_states.append((hand, side))

    def set_number(self, codes: Sequence[int]) -> int:
        """The number of a set of nonzero codes (any order, at most ``students``)."""
        first = self.students - len(codes) + 1
        return sum(comb(c + i - 1, i) for i, c in enumerate(sorted(codes), first))

    def set_codes(self, number: int) -> tuple[int, ...]:
        """The ``students`` codes of a set's number, sorted (zeros first)."""
        out = []
        for i in range(self.students, 0, -1):
            c = 0
            while comb(c + i, i) <= number:
                c += 1
            number -= comb(c + i - 1, i)
            out.append(c)
        return tuple(reversed(out))

    def encode(self, cs: int, r: int, b: int, rs: int, bs: int) -> int:
        codes = [1 + q for q in range(25) if rs >> q & 1] + [26 + q for q in range(25) if bs >> q & 1]
        return ((cs * 25 + r) * 25 + b) * self.sets + self.set_number(codes)

    def decode(self, i: int) -> tuple[int, int, int, int, int]:
        """(card state, red master, blue master, red students, blue students)."""
        i, number = divmod(i, self.sets)
        i, b = divmod(i, 25)
        cs, r = divmod(i, 25)
        rs = bs = 0
        for c in self.set_codes(number):
            if c >= 26:
                bs |= 1 << (c - 26)
            elif c >= 1:
                rs |= 1 << (c - 1)
        return cs, r, b, rs, bs

    def valid(self, i: int) -> bool:
        cs, r, b, rs, bs = self.decode(i)
        if r == b or r == RED_GOAL or b == BLUE_GOAL:
            return False
        if (rs | bs) & ((1 << r) | (1 << b)) or rs & bs:
            return False
        codes = [c for c in self.set_codes(i % self.sets) if c]
        return len(set(codes)) == len(codes)

    def index(self, st: State) -> int | None:
        """The index of a rules-engine state (``companion.rules.engine``: the last field the
        side card), or None when this table does not hold it."""
        own, opp, mo, mp, sp, color, ho, hp, side = st[:9]
        if sp >= 0 or mo < 0 or mp < 0:
            return None
        os, ps = own & ~(1 << mo), opp & ~(1 << mp)
        if (os | ps).bit_count() > self.students or len(ho) != 2 or len(side) != 1:
            return None
        number = self.number
        h0, h1, s = number.get(ho[0]), number.get(ho[1]), number.get(side[0])
        if h0 is None or h1 is None or s is None:
            return None
        if color == BLUE:
            mo, mp, os, ps = 24 - mo, 24 - mp, _turn(os), _turn(ps)
        return self.encode(self.card_state[((1 << h0) | (1 << h1), s)], mo, mp, os, ps)

    def state(self, i: int) -> State:
        """The rules-engine state (Red to move) of index ``i``."""
        cs, r, b, rs, bs = self.decode(i)
        hand, side = self.card_states[cs]
        red = tuple(self.cards[k] for k in range(5) if hand >> k & 1)
        blue = tuple(self.cards[k] for k in range(5) if (31 ^ hand ^ (1 << side)) >> k & 1)
        return (rs | (1 << r), bs | (1 << b), r, b, -1, RED, red, blue, (self.cards[side],))


def covered(cards: Sequence[str], table: CardTable = CARDS) -> bool:
    """Whether a table can be built for these cards: five plain cards (no Wind Spirit card,
    no conditional offsets)."""
    engine = Engine(table)
    return len(set(cards)) == 5 and all(
        not cm.wind and not cm.conditional for name in cards for cm in engine.table(name))


def reach(cards: Sequence[str], table: CardTable = CARDS) -> list[int]:
    """Red's step masks, master's then students', per card and square: ``endgame.c``'s
    ``reach[2][5][25]``."""
    engine = Engine(table)
    red = [engine.table(name)[RED] for name in cards]
    return [cm.master_mask[q] for cm in red for q in range(25)] + \
           [cm.student_mask[q] for cm in red for q in range(25)]


def wins_in(v: int) -> int | None:
    """The mover's own moves to its win (this one included), or None when it does not win."""
    return (v + 1) // 2 if v & 1 and v != INVALID else None


class Endgames:
    """A solved table for one deal: ``value(st)`` gives a rules-engine state's value (None
    when the table does not hold it). ``values`` is any byte buffer of the layout's size;
    ``owner`` keeps the native table alive as long as this object."""

    def __init__(self, layout: Layout, values: Any, longest: int, owner: Any = None):
        self.layout = layout
        self.values = values
        self.longest = longest
        self.owner = owner
        self.pieces = 2 + layout.students

    @property
    def cards(self) -> tuple[str, ...]:
        return self.layout.cards

    def value(self, st: State) -> int | None:
        i = self.layout.index(st)
        if i is None:
            return None
        v = self.values[i]
        return None if v == INVALID else v


def solve(cards: Sequence[str], table: CardTable = CARDS, *, students: int = 2,
          started: Any = None) -> Endgames:
    """The table of ``cards`` built in the native core (releasing the GIL while it works).
    ``started(handle)`` is called with the core's table before it is solved, so that
    another thread can read its progress (:func:`progress`) or cancel it. Raises
    RuntimeError when the core is not built or the build failed, ValueError for cards a
    table does not cover."""
    from .native.searcher import core
    if not covered(cards, table):
        raise ValueError("endgame tables cover five plain cards (no Wind Spirit, no conditional offsets)")
    mod = core()
    if mod is None:
        raise RuntimeError("the native core is not built: no endgame tables")
    ffi, lib = mod.ffi, mod.lib
    layout = Layout(cards, students)
    handle = lib.eg_new(students, ffi.new("uint32_t[]", reach(cards, table)))
    if handle == ffi.NULL:
        raise MemoryError("no memory for an endgame table")
    handle = ffi.gc(handle, lib.eg_free)
    if started is not None:
        started(handle)
    longest = lib.eg_solve(handle)
    if longest < 0:
        raise RuntimeError({-1: "endgame table cancelled", -2: "no memory for the endgame counts",
                            -3: "an endgame result longer than a byte holds"}.get(longest, "endgame failure"))
    values = memoryview(ffi.buffer(lib.eg_values(handle), layout.size))
    return Endgames(layout, values, longest, owner=handle)


def percent(handle: Any) -> int:
    """How much of a table being solved by :func:`solve` is solved, in percent (the
    positions with no forced result are solved only at the end)."""
    from .native.searcher import core
    mod = core()
    out = mod.ffi.new("int64_t[3]")
    mod.lib.eg_progress(handle, out)
    return int(100 * out[1] // max(1, out[2]))


def cancel(handle: Any) -> None:
    """Stop a table being solved by :func:`solve` (it raises RuntimeError)."""
    from .native.searcher import core
    core().lib.eg_cancel(handle)


def reference(cards: Sequence[str], table: CardTable = CARDS, *, students: int = 0) -> Endgames:
    """The same table in pure Python, by another method: level by level forward, on the
    rules' move generator (``Engine.moves``/``apply``). Minutes with one student: tests use
    it on small tables only."""
    layout = Layout(cards, students)
    engine = Engine(table)
    values = bytearray(layout.size)
    children: dict[int, list[int]] = {}
    for i in range(layout.size):
        if not layout.valid(i):
            values[i] = INVALID
            continue
        st = layout.state(i)
        moves = engine.moves(st)
        if any(mv[5] for mv in moves):
            values[i] = 1
            continue
        kids = []
        for mv in moves:
            child = layout.index(engine.apply(st, mv))
            assert child is not None, "a move out of the table"
            kids.append(child)
        children[i] = kids
    level, longest = 1, 1
    while children:
        level += 1
        done = []
        for i, kids in children.items():
            vals = [values[k] for k in kids]
            if level & 1:
                if level - 1 in vals:
                    done.append(i)
            elif all(v & 1 and v < level for v in vals):
                done.append(i)
        if not done:
            break       # nothing at this level: nothing at the next one either
        for i in done:
            values[i] = level
            del children[i]
        longest = level
    return Endgames(layout, bytes(values), longest)

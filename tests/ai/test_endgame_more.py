"""Exact endgames with more pieces (companion/ai/endgame.py, native/endgame.c): the index of
three and four students, the budget that says which boards build them, and (under
``-m slow``: a five-piece table takes about 20 CPU s and 600 MB) the five-piece table
against the four-piece one, one ply of the rules' move generator, an exact full-width
search, and both cores' searches. benchmarks/bench_tablebase.py --pieces 5 runs the same
checks on 10,000 positions."""

import random
from math import comb

import pytest

from companion.ai import endgame, memory
from companion.ai.dealtables import TABLES, DealTables
from companion.ai.native import NativeSearcher
from companion.ai.search import Limits, Searcher
from companion.rules.engine import Engine

from endgame_checks import by_search, check_hint, fixpoint, one_ply, sample, state
from search_states import require_native

DEAL = ("Boar", "Crab", "Dragon", "Horse", "Ox")


@pytest.mark.parametrize("students", [0, 1, 2, 3, 4])
def test_every_set_of_student_codes_has_one_number_in_order(students):
    layout = endgame.Layout(DEAL, students)
    assert layout.sets == comb(50 + students, students) and layout.size == 18_750 * layout.sets
    rng = random.Random(students)
    numbers = sorted({rng.randrange(layout.sets) for _ in range(500)} | {0, layout.sets - 1})
    for n in numbers:
        codes = layout.set_codes(n)
        assert len(codes) == students and list(codes) == sorted(codes)
        assert layout.set_number([c for c in codes if c]) == n
    if students == 2:       # the numbers the four-piece table always had
        assert [layout.set_codes(n) for n in range(6)] == [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2)]


def test_a_position_goes_to_its_index_and_back_with_up_to_four_students():
    layout = endgame.Layout(DEAL, 4)
    rng = random.Random(9)
    for _ in range(300):
        squares = rng.sample(range(25), 6)
        r, b = squares[0], squares[1]
        if r == 22 or b == 2:
            continue
        rs = bs = 0
        for q in squares[2:2 + rng.randrange(5)]:
            if rng.random() < 0.5:
                rs |= 1 << q
            else:
                bs |= 1 << q
        cs = rng.randrange(30)
        i = layout.encode(cs, r, b, rs, bs)
        assert layout.decode(i) == (cs, r, b, rs, bs) and layout.valid(i)


def test_which_boards_build_which_tables():
    gb = 1 << 30
    assert memory.for_model("Raspberry Pi Zero 2 W Rev 1.0", 512 << 20, "").endgame_pieces == 0
    assert memory.for_model("Raspberry Pi 4 Model B Rev 1.4", 4 * gb - (200 << 20), "").endgame_pieces == 4
    assert memory.for_model("Raspberry Pi 5 Model B Rev 1.0", 8 * gb - (300 << 20), "").endgame_pieces == 5
    # The desktop simulation (and the tests' services) keep four pieces, whatever the machine.
    assert memory.for_model(None, 64 * gb, "").endgame_pieces == 4
    # An explicit setting, within the machine's memory.
    assert memory.for_model(None, 24 * gb, "6").endgame_pieces == 6
    assert memory.for_model("Raspberry Pi 5 Model B Rev 1.0", 8 * gb, "4").endgame_pieces == 4
    for bad, ram in (("7", 24 * gb), ("five", 24 * gb), ("6", 8 * gb), ("5", 512 << 20)):
        with pytest.raises(ValueError, match="ONITAMA_ENDGAME_PIECES"):
            memory.for_model(None, ram, bad)


def test_a_larger_budget_builds_four_pieces_first_then_five(monkeypatch):
    """The deal tables follow the budget: four pieces, then the larger table in its place.
    The solver is replaced here by one that records what it is asked for (a real five-piece
    build takes 20 CPU s: the slow tests below)."""
    asked = []

    def fake(names, table, *, students, started):
        asked.append(students)
        return endgame.Endgames(endgame.Layout(names, students), b"", 3)

    monkeypatch.setattr(endgame, "solve", fake)
    monkeypatch.setattr("companion.ai.dealtables.available", lambda: True)
    before = memory.budget()
    try:
        for pieces, wanted in ((4, [2]), (5, [2, 3])):
            asked.clear()
            memory.set_budget(memory.MemoryBudget(1000, 1000, 10, endgame_pieces=pieces))
            tables = DealTables()
            assert tables.start(DEAL, endgame.CARDS) and tables.wait(10)
            for _ in range(200):
                found = tables.ready(DEAL, endgame.CARDS)
                if found is not None and found.pieces == pieces:
                    break
                tables.wait(0.05)
            assert asked == wanted and found is not None and found.pieces == pieces
    finally:
        memory.set_budget(before)


@pytest.fixture(scope="module")
def five():
    require_native()
    return endgame.solve(DEAL, students=3)


@pytest.fixture(scope="module")
def four():
    require_native()
    return endgame.solve(DEAL, students=2)


@pytest.mark.slow
def test_the_five_piece_table_holds_the_four_piece_one(five, four):
    rng = random.Random(11)
    for i in sample(four, 20_000, rng):
        st = four.layout.state(i)
        assert five.value(st) == four.values[i], st
    assert five.longest >= four.longest


@pytest.mark.slow
def test_every_five_piece_value_follows_from_its_childrens_by_the_rules_generator(five):
    engine = Engine(endgame.CARDS)
    rng = random.Random(12)
    kinds = set()
    for i in sample(five, 3000, rng):
        st = five.layout.state(i)
        v = five.values[i]
        kinds.add(0 if v == 0 else 1 + (v & 1))
        assert one_ply(five, engine, st) == v, st
    assert {1, 2} <= kinds


@pytest.mark.slow
def test_five_piece_values_agree_with_an_exact_full_width_search(five):
    engine = Engine(endgame.CARDS)
    rng = random.Random(13)
    for i in sample(five, 200, rng, longest=7):
        assert by_search(engine, five.layout.state(i), five.values[i], 7), five.layout.state(i)


@pytest.mark.slow
def test_both_cores_and_the_hints_use_the_five_piece_table(five, monkeypatch):
    rng = random.Random(14)
    engine = Engine(endgame.CARDS)
    py, native = Searcher(), NativeSearcher()
    py.set_endgames(five)
    native.set_endgames(five)
    for i in sample(five, 30, rng):
        st = state(five, i)
        a = py.search(st, Limits(nodes=3000), root_scores=True)
        b = native.search(st, Limits(nodes=3000), root_scores=True)
        assert (b.move, b.score, b.depth, b.nodes, b.root) == (a.move, a.score, a.depth, a.nodes, a.root)
    # The hints find the game's table where the service keeps it.
    monkeypatch.setattr(TABLES, "ready", lambda cards, table: five)
    for i in sample(five, 30, rng):
        check_hint(five, engine, five.layout.state(i))


@pytest.mark.parametrize("students", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_the_fixpoint_check_passes_a_solved_table_and_finds_one_changed_value(students):
    """endgame_checks.fixpoint, the full-depth check of the tables too large to solve
    forward, on tables small enough to test: a solved table passes; a deep value made two
    plies longer, or a position with no forced result made a win, is found there."""
    table = endgame.solve(DEAL, students=students)
    assert fixpoint(table) == (0, (0, 0, 0))
    values = bytearray(table.values)
    rng = random.Random(students)
    deep = next(i for i in iter(lambda: rng.randrange(len(values)), -1) if 20 < values[i] < 200)
    values[deep] += 2
    changed = endgame.Endgames(table.layout, values, table.longest)
    assert fixpoint(changed)[0] >= 1
    assert fixpoint(changed, deep, 1) == (1, (deep, values[deep], values[deep] - 2))
    values[deep] -= 2
    drawn = values.index(0)
    values[drawn] = 41
    assert fixpoint(changed)[0] >= 1
    assert fixpoint(changed, drawn, 1) == (1, (drawn, 41, 0))


@pytest.mark.slow
def test_a_card_state_of_the_five_piece_table_is_the_fixpoint_of_minimax(five):
    rows = five.layout.size // 30
    assert fixpoint(five, 7 * rows, rows) == (0, (0, 0, 0))

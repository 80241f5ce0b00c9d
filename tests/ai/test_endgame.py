"""Exact endgames (companion/ai/endgame.py, native/endgame.c): the core's tables against the
Python reference solver, the four-piece table against an exact full-width search and one
ply of the rules' move generator, the search (both cores alike) and the hints on solved
positions. benchmarks/bench_tablebase.py runs the same checks on 10,000 positions."""

import hashlib
import random

import pytest

from companion.ai import endgame, memory
from companion.ai.dealtables import TABLES, DealTables
from companion.ai.native import NativeSearcher
from companion.ai.search import Limits, Searcher, endgame_score
from companion.rules.engine import Engine

from endgame_checks import by_search, check_hint, one_ply, sample, state
from search_states import require_native

DEAL = ("Boar", "Crab", "Dragon", "Horse", "Ox")
OTHER = ("Cobra", "Crane", "Eel", "Frog", "Tiger")


@pytest.fixture(autouse=True)
def built():
    require_native()


@pytest.fixture(scope="module")
def table():
    """The four-piece table of DEAL, built as a game's is (the hints find it there)."""
    require_native()
    assert TABLES.start(DEAL, endgame.CARDS)
    assert TABLES.wait(300), "the endgame table was not built"
    found = TABLES.ready(DEAL, endgame.CARDS)
    assert found is not None
    return found


@pytest.mark.parametrize("deal", [DEAL, OTHER])
def test_the_core_solves_the_masters_alone_as_the_python_reference(deal):
    native = endgame.solve(deal, students=0)
    python = endgame.reference(deal, students=0)
    assert bytes(native.values) == python.values
    assert native.longest == python.longest > 5


@pytest.mark.slow
def test_the_core_solves_three_pieces_as_the_python_reference():
    native = endgame.solve(OTHER, students=1)
    python = endgame.reference(OTHER, students=1)
    assert bytes(native.values) == python.values


def test_the_four_piece_table_is_the_one_the_first_solver_built(table):
    """The solver was rewritten for speed (predecessors from the students' codes, the moves
    counted by masks, levels as bit sets): the whole table of DEAL is byte for byte the one
    the solver of commit a9bacd6 built (its SHA-256), beside the Python reference's checks."""
    assert hashlib.sha256(bytes(table.values)).hexdigest() == \
        "419b7ca7fa879295738a56216ee89f15d9f62223506055407845e0d7aff19050"
    assert table.longest == 98


def test_four_piece_values_agree_with_an_exact_full_width_search(table):
    engine = Engine(endgame.CARDS)
    rng = random.Random(1)
    for i in sample(table, 300, rng, longest=7):
        assert by_search(engine, table.layout.state(i), table.values[i], 7), table.layout.state(i)


def test_every_four_piece_value_follows_from_its_childrens_by_the_rules_generator(table):
    engine = Engine(endgame.CARDS)
    rng = random.Random(2)
    seen = set()
    for i in sample(table, 3000, rng):
        v = table.values[i]
        seen.add(0 if v == 0 else 1 + (v & 1))
        assert one_ply(table, engine, table.layout.state(i)) == v, table.layout.state(i)
    assert len(seen) == 3 or table.values.tobytes().count(0) < 10_000   # wins, losses (and draws, rare)


def test_both_cores_search_with_the_table_alike_and_solved_roots_exactly(table):
    rng = random.Random(3)
    py, native = Searcher(), NativeSearcher()
    py.set_endgames(table)
    native.set_endgames(table)
    for i in sample(table, 40, rng):
        st = state(table, i)
        for root_scores in (False, True):
            a = py.search(st, Limits(nodes=5000), root_scores=root_scores)
            b = native.search(st, Limits(nodes=5000), root_scores=root_scores)
            assert (b.move, b.score, b.depth, b.nodes, b.root) == (a.move, a.score, a.depth, a.nodes, a.root)
            if root_scores or not any(mv[5] for mv in py.moves(st)):
                assert a.score == endgame_score(table.values[i], 0)


def test_with_more_pieces_the_cores_still_agree_and_probe_below_the_root(table):
    """Five pieces: the root is not in the table, the positions after a capture are."""
    rng = random.Random(4)
    py, native = Searcher(), NativeSearcher()
    py.set_endgames(table)
    native.set_endgames(table)
    plain = Searcher()
    probed = 0
    for i in sample(table, 200, rng):
        st = state(table, i)
        own, opp, mo, mp = st[:4]
        if (own | opp).bit_count() != 4:
            continue
        free = [q for q in range(25) if not (own | opp) >> q & 1 and q not in (2, 22)]
        st = (own | 1 << rng.choice(free),) + st[1:]
        a = py.search(st, Limits(nodes=3000))
        b = native.search(st, Limits(nodes=3000))
        assert (b.move, b.score, b.depth, b.nodes, b.pv) == (a.move, a.score, a.depth, a.nodes, a.pv)
        c = plain.search(st, Limits(nodes=3000))
        probed += (c.score, c.nodes) != (a.score, a.nodes)
    assert probed > 10      # the table changed those searches


def test_a_hint_on_a_solved_position_says_wins_in_n_and_grades_nothing_wrong(table):
    engine = Engine(endgame.CARDS)
    rng = random.Random(5)
    for i in sample(table, 150, rng):
        check_hint(table, engine, table.layout.state(i))


def test_the_deal_tables_hold_one_deal_and_refuse_what_they_do_not_cover(table):
    cards = endgame.CARDS
    assert TABLES.ready(DEAL, cards) is table and TABLES.building() is None
    assert TABLES.ready(OTHER, cards) is None
    tables = DealTables()
    assert not tables.start(("Boar", "Crab", "Dragon", "Horse"), cards)          # four cards
    wind = [c.name for c in cards if c.is_wind_card][:1]
    assert wind and not tables.start((*DEAL[:4], *wind), cards)                    # a Wind Spirit card
    assert tables.ready(DEAL, cards) is None
    before = memory.budget()
    memory.set_budget(memory.SMALL)
    try:
        assert not tables.start(DEAL, cards)       # a 512 MB board keeps its memory
    finally:
        memory.set_budget(before)

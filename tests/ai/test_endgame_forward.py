"""The endgame tables' full-depth check (tests/support/endgame_checks.py's Forward,
tests/support/native/forward.c): its move generator is the rules' engine's, move for move; its
forward solve agrees with the retrograde tables; and it catches a table with one value
changed. benchmarks/bench_tablebase.py --full-depth runs it on whole four-piece tables."""

import random

import pytest

from companion.ai import endgame
from companion.ai.dealtables import TABLES
from companion.rules.cards import CARDS
from companion.rules.engine import Engine
from companion.rules.position import BLUE, RED

from endgame_checks import Forward, check_hint
from search_states import require_native

DEAL = ("Boar", "Crab", "Dragon", "Horse", "Ox")
OTHER = ("Cobra", "Crane", "Eel", "Frog", "Tiger")


@pytest.fixture(autouse=True)
def built():
    require_native()


def random_state(deal: tuple[str, ...], rng: random.Random) -> tuple:
    """A random position of the deal with both masters and up to two students, either side
    to move (the rules engine's state, seen from the mover)."""
    while True:
        squares = rng.sample(range(25), 4)
        red_master, blue_master = squares[0], squares[1]
        if red_master == 22 or blue_master == 2:
            continue        # a game already won
        red, blue = 1 << red_master, 1 << blue_master
        for q in squares[2:2 + rng.randrange(3)]:
            if rng.random() < 0.5:
                red |= 1 << q
            else:
                blue |= 1 << q
        cards = list(deal)
        rng.shuffle(cards)
        if rng.random() < 0.5:
            return (red, blue, red_master, blue_master, -1, RED, tuple(cards[:2]), tuple(cards[2:4]), (cards[4],))
        return (blue, red, blue_master, red_master, -1, BLUE, tuple(cards[:2]), tuple(cards[2:4]), (cards[4],))


@pytest.mark.parametrize("deal", [DEAL, OTHER])
def test_the_checks_move_generator_is_the_rules_engines(deal):
    """forward.c steps by the cards' offsets through geometry of its own: every move and
    win of 3,000 random positions is the rules engine's. (No pass: two base-set cards
    always move one of three pawns, tried over every pair and placement.)"""
    engine, forward, rng = Engine(CARDS), Forward(deal), random.Random(5)
    wins = 0
    for _ in range(3000):
        st = random_state(deal, rng)
        expected = {(st[6][mv[0]], mv[1], mv[2], mv[5]) for mv in engine.moves(st)}
        assert forward.moves(st) == expected, st
        wins += any(mv[5] for mv in engine.moves(st))
    assert 0 < wins < 3000


@pytest.mark.parametrize("deal", [DEAL, OTHER])
def test_the_forward_solve_agrees_with_the_table_everywhere(deal):
    """Three pieces: every position of the retrograde table, and each turned half a turn
    with Blue to move, has the forward solve's value."""
    table = endgame.solve(deal, students=1)
    forward = Forward(deal, students=1)
    assert forward.solve() == table.longest > 20
    held, _, undecided = forward.stats()
    assert held == 2 * sum(v != endgame.INVALID for v in bytes(table.values))
    assert forward.compare(table) == (0, (0, 0, 0, 0))
    assert undecided == 2 * sum(v == 0 for v in bytes(table.values))


def test_the_check_catches_one_changed_value():
    """A table with one deep win made a loss, one no-result made a win, or one deep win two
    plies longer: each is found, as it stands and turned, and nothing else is."""
    table = endgame.solve(DEAL, students=1)
    forward = Forward(DEAL, students=1)
    forward.solve()
    values = bytes(table.values)
    deep = next(i for i, v in enumerate(values) if v == table.longest - 2)
    drawn = next((i for i, v in enumerate(values) if v == 0), None)
    for i, wrong in [(deep, values[deep] + 1), (deep, values[deep] + 2)] + \
            ([(drawn, 7)] if drawn is not None else []):
        changed = bytearray(values)
        changed[i] = wrong
        bad = endgame.Endgames(table.layout, changed, table.longest)
        assert forward.compare(bad) == (2, (i, 0, wrong, values[i]))
        st = table.layout.state(i)
        assert forward.value(st) == values[i] != bad.value(st)


def test_a_hint_is_checked_against_the_forward_solve():
    """The hints' check reads its values from any solve: the hint on a position of the
    masters alone (the deal's table built as a game's is) agrees with the forward solve's
    values, and is refused against values with each result two plies longer."""
    assert TABLES.start(DEAL, CARDS) and TABLES.wait(300)
    forward = Forward(DEAL, students=0)
    forward.solve()

    class Longer:
        def value(self, st):
            v = forward.value(st)
            return v + 2 if v else v

    engine = Engine(CARDS)
    st = (1 << 7, 1 << 17, 7, 17, -1, RED, ("Boar", "Crab"), ("Dragon", "Horse"), ("Ox",))
    assert forward.value(st)
    check_hint(forward, engine, st)
    with pytest.raises(AssertionError):
        check_hint(Longer(), engine, st)


@pytest.mark.slow
def test_the_four_piece_table_agrees_with_the_forward_solve_everywhere():
    """The whole four-piece table of DEAL (35 million positions with either side to move;
    about 20 CPU s), as bench_tablebase.py --full-depth checks three deals."""
    table = endgame.solve(DEAL)
    forward = Forward(DEAL)
    assert forward.solve() == table.longest
    assert forward.compare(table) == (0, (0, 0, 0, 0))

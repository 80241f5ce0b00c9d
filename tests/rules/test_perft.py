"""The community perft tables of docs/positions.md."""

import pytest

from companion.rules.board import Board

TABLES = [
    ("Ox,Boar", "Horse,Elephant", "Crab", [10, 130, 1989, 28509, 487780, 7748422]),
    ("Rooster,Tiger", "Rabbit,Cobra", "Frog", [9, 72, 880, 10374, 138879, 1781181]),
    ("Goose,Dragon", "Mantis,Eel", "Crane", [10, 120, 1272, 16445, 211643, 2793554]),
    ("Crab,Dragon", "Monkey,Tiger", "Mantis", [11, 143, 1807, 23949, 325011, 4619275]),
]
IDS = [t[0] for t in TABLES]


def perft(mover, other, side, depth):
    board = Board(f"bbBbb/5/5/5/rrRrr red {mover} {other} {side}")
    return board.engine.perft(board.engine.state(board.position), depth)


@pytest.mark.parametrize("mover,other,side,counts", TABLES, ids=IDS)
def test_perft_to_depth_5(mover, other, side, counts):
    assert [perft(mover, other, side, d) for d in range(1, 6)] == counts[:5]


@pytest.mark.slow
@pytest.mark.parametrize("mover,other,side,counts", TABLES, ids=IDS)
def test_perft_depth_6(mover, other, side, counts):
    assert perft(mover, other, side, 6) == counts[5]


def test_divide_sums_to_perft():
    board = Board("bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab")
    st = board.engine.state(board.position)
    parts = board.engine.divide(st, 3)
    assert len(parts) == 10 and sum(n for _, n in parts) == 1989


def test_a_won_position_counts_one_leaf():
    board = Board("5/5/5/5/rrRrr blue Ox,Boar Horse,Elephant Crab")  # Blue's master is gone
    assert board.engine.perft(board.engine.state(board.position), 3) == 1


def test_no_legal_move_gives_one_child_per_card():
    board = Board("B3r/4r/4r/4r/4R red Fox,Ox Tiger,Crab Dragon")
    assert board.engine.perft(board.engine.state(board.position), 1) == 2


def test_wind_perft_counts_match_the_generator():
    # No published table exists for the Way of the Wind: perft's bulk count at the last ply
    # must agree with generating every move (the generator is checked against the reference
    # rules in test_properties).
    board = Board("bbBbb/5/2W2/5/rrRrr red Eagle,Ox Kumo,Crane Dragon")
    engine = board.engine
    st = engine.state(board.position)

    def slow(state, depth):
        if depth == 0:
            return 1
        return sum(1 if mv[5] else slow(engine.apply(state, mv), depth - 1)
                   for mv in engine.moves(state))
    assert engine.perft(st, 3) == slow(st, 3)

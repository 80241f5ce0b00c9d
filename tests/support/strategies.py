"""Hypothesis strategies: random deals of every card set and random legal games."""

from hypothesis import strategies as st

from companion.rules.board import Board
from companion.rules.deal import deal

SETS = ("base", "senseis-path", "wind", "promo")


@st.composite
def deals(draw, variants=("base", "wind")):
    variant = draw(st.sampled_from(variants))
    sets = draw(st.lists(st.sampled_from(SETS), min_size=1, max_size=4, unique=True))
    if sets == ["wind"]:
        sets.append("base")  # Goat and Sheep alone are too few move cards for a deal
    wind_cards = draw(st.integers(0, 5)) if variant == "wind" else 0
    seed = draw(st.integers(0, 2**31 - 1))
    return deal(variant, tuple(sets), wind_cards=wind_cards, seed=seed)


@st.composite
def games(draw, max_plies=40, variants=("base", "wind")):
    """A board after a random number of random legal moves (its move stack is the game)."""
    board = Board(draw(deals(variants)).position)
    for _ in range(draw(st.integers(0, max_plies))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(draw(st.sampled_from(moves)))
    return board

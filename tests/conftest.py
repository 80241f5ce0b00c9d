import pytest

from companion.board import Board


@pytest.fixture
def board_at():
    """``board_at("<position string>")`` -> a Board."""
    return Board

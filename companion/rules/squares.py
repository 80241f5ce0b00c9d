"""Squares of the 5x5 mat as plain ints.

Square ``sq = (rank - 1) * 5 + file`` with files a-e = 0-4 and ranks 1-5, so a1 = 0, e1 = 4,
c3 = 12 and e5 = 24. Files run left to right as Red sees them; Red sits at rank 1. This module
is pure geometry: the firmware may use it to name the squares of the mat.
"""

SQUARES = range(25)
FILE_NAMES = "abcde"
RANK_NAMES = "12345"
SQUARE_NAMES = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
_BY_NAME = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def square(file: int, rank: int) -> int:
    """The square at ``file`` 0-4 (a-e) and ``rank`` 0-4 (1-5)."""
    return rank * 5 + file


def square_file(sq: int) -> int:
    return sq % 5


def square_rank(sq: int) -> int:
    return sq // 5


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """``"c1"`` -> 2. Raises ``ValueError`` naming the text for anything that is not a square."""
    try:
        return _BY_NAME[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"{name!r} is not a square (a1 to e5)") from None


def square_distance(a: int, b: int) -> int:
    """King-step distance between two squares (used to pair misplaced pawns with squares)."""
    return max(abs(a % 5 - b % 5), abs(a // 5 - b // 5))

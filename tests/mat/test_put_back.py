"""A piece put back on the square it left pays ``PUT_BACK`` (two pieces each put back is a
fidget, swapped a move: the move is the likelier reading). Lifted again before the mat rests on
a reading, it was only set down for a moment on its way, as on any other square, and the
noise is refunded (robot 81: the Spirit set on its own square for 0.13 s, then moved on, read
as Blue's turn amended). Not when another live piece in the hand could have landed there
(snatch 4: two pieces swapped, or each put back; hurried 6), nor once a reading stood."""

from companion.mat.pieces import PUT_BACK, PieceMaps
from companion.mat.readings import pieces_of
from companion.rules.position import parse_position
from companion.rules.squares import parse_square

WIND = "bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"
CLEAR = 0.08


class Hands:
    """Edges on a mat of piece maps, each ``CLEAR`` and more after the last (no brush)."""

    def __init__(self) -> None:
        pieces = pieces_of(parse_position(WIND))
        self.maps = PieceMaps(pieces, 0.0, CLEAR)
        self.occ = frozenset(sq for sq, p in enumerate(pieces) if p is not None)
        self.t = 0.0

    def lift(self, *squares: str) -> None:
        self._to(self.occ - {parse_square(s) for s in squares})

    def place(self, *squares: str) -> None:
        self._to(self.occ | {parse_square(s) for s in squares})

    def _to(self, after: frozenset[int]) -> None:
        self.t += 0.3
        self.maps.change(self.t, self.occ, after)
        self.occ = after

    def costs(self) -> dict[tuple[str | None, ...], int]:
        """Each map's noise by what stands on a1, b2, c3 and d4."""
        squares = [parse_square(s) for s in ("a1", "b2", "c3", "d4")]
        return {tuple(m.pieces[sq] for sq in squares): m.cost for m in self.maps.maps
                if not m.air}


def _spirit_set_down_on_its_square(hands: Hands, rest_between: bool) -> None:
    """Red's pawn off a1 and the Spirit off c3; a piece lands on b2, one on c3 (the Spirit put
    back, or the pawn), and that one goes on to d4."""
    hands.lift("a1")
    hands.lift("c3")
    hands.place("b2")
    hands.place("c3")
    if rest_between:
        hands.maps.settle({id(m): () for m in hands.maps.maps})
    hands.lift("c3")
    hands.place("d4")


def test_a_piece_put_back_and_lifted_again_was_set_down_on_its_way():
    hands = Hands()
    _spirit_set_down_on_its_square(hands, rest_between=False)
    costs = hands.costs()
    # The Spirit set down on c3 for a moment, then on d4, costs what the pawn's trail through
    # c3 costs: nothing.
    assert costs[(None, "r", None, "W")] == costs[(None, "W", None, "r")] == 0


def test_a_put_back_the_mat_rested_on_as_a_reading_stays_paid():
    hands = Hands()
    _spirit_set_down_on_its_square(hands, rest_between=True)
    costs = hands.costs()
    assert costs[(None, "W", None, "r")] == 0
    assert costs[(None, "r", None, "W")] == PUT_BACK


def test_a_put_back_where_another_piece_could_land_at_no_noise_stays_paid():
    """Both pieces in the hand when c3 is filled: the Spirit put back there or the pawn set
    there (a swap). Read as both put back, the pieces' lifts do not refund the Spirit's."""
    hands = Hands()
    hands.lift("a1", "c3")
    hands.place("c3")
    hands.place("a1")
    hands.lift("c3")
    hands.place("d4")
    costs = hands.costs()
    assert costs[("W", None, None, "r")] == 0
    # The pawn put back on a1 alone, the Spirit on c3 with the pawn in the hand: one refund
    # neither (c3's was not alone; a1 was not lifted again).
    assert costs[("r", None, None, "W")] == 2 * PUT_BACK

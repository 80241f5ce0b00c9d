"""Which phone answers reach the recognizer: the table's check and the trace replay ask this
one rule, so a benchmark hears exactly what a table would let through."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .recognizer import Recognizer


def reaches(rec: Recognizer, turn: int | None, seat: str, card: str | None, *,
            takeback: bool) -> bool:
    """Does a phone answer naming ``turn`` reach ``rec``? One naming no turn, or the open
    question's, does; one about another turn only if a question raised earlier offered it to
    ``seat`` (``Recognizer.offered``): a phone sends only what its mat showed."""
    return (turn is None or turn == rec.turn_of(seat, card, takeback=takeback)
            or rec.offered(turn, seat, card, takeback=takeback))

"""A seat's private word from the referee: why its move on the mat is refused when the reason
rests on its own secret (its hidden Ninja stands there). Shown on that seat's phone alone, until
the pawns on the mat move again."""

from __future__ import annotations


class Notices:
    def __init__(self) -> None:
        self._by_seat: dict[str, str] = {}
        self._at: frozenset[int] = frozenset()   # the mat when the word was given

    def tell(self, seat: str, text: str, occupancy: frozenset[int]) -> None:
        self._by_seat[seat] = text
        self._at = occupancy

    def mat_moved(self, occupancy: frozenset[int]) -> None:
        if self._by_seat and occupancy != self._at:
            self._by_seat.clear()           # the pawn moved on: the refusal is answered

    def get(self, seat: str | None) -> str | None:
        return self._by_seat.get(seat) if seat is not None else None

"""Phone answers kept for the turn they name. A phone answers the prompt it shows, and names
the turn its answer says something of (``Recognizer.turn_of``: the turn played with the card
it names, or the turn it takes back); by the time the answer comes the mat may have cancelled
that question, or asked about another turn instead. Such an answer is what a player said of
that turn: it is kept for a question about exactly that turn, never for another turn that
offers the same seat the same card (the Spirit shuttled by both players offers the same card
at many turns: session 38's spirit-back 7, 9, 10)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..rules.position import COLORS
from .asking import TAKEBACK, Question
from .record import Record


@dataclass
class Heard:
    """The turns of ``record`` are numbered from ``first``, the turn the mat started on. The
    answers kept: (turn, seat, card, takeback); and every answer a question raised offered:
    (turn, seat, card or takeback), which a phone may still send for that turn."""
    first: int
    record: Record
    kept: list[tuple[int, str, str | None, bool]] = field(default_factory=list)
    offered: set[tuple[int, str, str]] = field(default_factory=set)

    @property
    def open(self) -> int:
        """The number of the first turn that does not stand (the anchor's)."""
        return self.first + len(self.record.board.move_stack) - len(self.record.open)

    @property
    def next(self) -> int:
        """The number of the turn to play now."""
        return self.first + len(self.record.board.move_stack)

    def asked(self, q: Question) -> Question:
        """``q`` is shown: it numbered, and the answers it offers noted, each for its turn."""
        q = replace(q, number=self.open + q.depth)
        self.offered |= {(turn, COLORS[seat], key) for key, seat in q.seats.items()
                         for turn in q.turns_of(key)}
        return q

    def offers(self, turn: int, seat: str, card: str | None, takeback: bool) -> bool:
        return (turn, seat, TAKEBACK if takeback else card) in self.offered

    def hear(self, q: Question | None, turn: int | None, seat: str, card: str | None,
             takeback: bool) -> str | None:
        """A phone answer: the option of the open question ``q`` it picks, or None; kept when
        it names a turn that does not stand and ``q`` does not take it."""
        key = taken(q, turn, seat, card, takeback) if q is not None else None
        if key is None and turn is not None and turn >= self.open:
            self.kept.append((turn, seat, card, takeback))
        return key

    def take(self, q: Question) -> str | None:
        """The option of ``q`` that a kept answer picks for the turn it names, which it then
        no longer keeps; None if none."""
        for said in self.kept:
            key = taken(q, *said)
            if key is not None:
                self.kept.remove(said)
                return key
        return None

    def stand(self) -> None:
        """The turns before the anchor stand: what was said of them is decided."""
        first = self.open
        self.kept = [said for said in self.kept if said[0] >= first]
        self.offered = {said for said in self.offered if said[0] >= first}


def taken(q: Question, turn: int | None, seat: str, card: str | None, takeback: bool) -> str | None:
    """The option of ``q`` a phone answer picks: one ``seat`` may give, about the turn the
    answer names (any, when it names none); else None."""
    key = q.answer_key(seat, card, takeback)
    return key if key is not None and (turn is None or turn in q.turns_of(key)) else None


def turn_of(q: Question | None, seat: str, card: str | None, takeback: bool) -> int | None:
    """The turn a phone answer to ``q`` names, or None if ``q`` offers ``seat`` no such
    answer."""
    key = q.answer_key(seat, card, takeback) if q is not None else None
    return min(q.turns_of(key)) if q is not None and key is not None else None

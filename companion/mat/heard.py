"""Phone answers kept for the turn they name. A phone answers the prompt it shows, and names
the turn its answer says something of (``Recognizer.turn_of``: the turn played with the card
it names, or the turn it takes back); by the time the answer comes the mat may have cancelled
that question, or asked about another turn instead. Such an answer is
what a player said of that turn: it is kept for a question about exactly that turn, never for
another turn that offers the same seat the same card (the Spirit shuttled by both players
offers the same card at many turns: session 38's spirit-back 7, 9, 10)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.position import COLORS
from .asking import Question


@dataclass
class Heard:
    """The answers kept: (turn, seat, card, takeback); and every answer a question raised
    offered: (turn, seat, card or takeback), which a phone may still send for that turn."""
    kept: list[tuple[int, str, str | None, bool]] = field(default_factory=list)
    offered: set[tuple[int, str, str]] = field(default_factory=set)

    def asked(self, q: Question) -> None:
        """``q`` is shown: the answers it offers, each for its turn."""
        self.offered |= {(turn, COLORS[seat], key) for key, seat in q.seats.items()
                         for turn in q.turns_of(key)}

    def keep(self, turn: int, seat: str, card: str | None, takeback: bool) -> None:
        self.kept.append((turn, seat, card, takeback))

    def take(self, q: Question) -> str | None:
        """The option of ``q`` that a kept answer picks for the turn it names, which it then
        no longer keeps; None if none."""
        for said in self.kept:
            key = taken(q, *said)
            if key is not None:
                self.kept.remove(said)
                return key
        return None

    def stand(self, last: int) -> None:
        """The turns up to ``last`` stand: what was said of them is decided."""
        self.kept = [said for said in self.kept if said[0] > last]
        self.offered = {said for said in self.offered if said[0] > last}


def taken(q: Question, turn: int | None, seat: str, card: str | None, takeback: bool) -> str | None:
    """The option of ``q`` a phone answer picks: one ``seat`` may give, about the turn the
    answer names (any, when it names none); else None."""
    key = q.answer_key(seat, card, takeback)
    return key if key is not None and (turn is None or turn in q.turns_of(key)) else None

"""Phone answers kept for the turn they name. A phone answers the prompt it shows, and names
the turn its answer says something of (``Recognizer.turn_of``: the turn played with the card
it names, or the turn it takes back); by the time the answer comes the mat may have cancelled
that question, or asked about another turn instead. Such an answer is what a player said of
that turn: it is kept for a question about exactly that turn, never for another turn that
offers the same seat the same card (the Spirit shuttled by both players offers the same card
at many turns: session 38's spirit-back 7, 9, 10). A turn's number alone does not say which
turn it is: in a history that takes a turn back, or misses a Spirit's round trip, the turns
after it are numbered one or two lower, and "turn 27" is another player's turn there
(session 40's spirit-back 9). So each answer a question offers is noted with the turns played
before the one it is about, and a kept answer picks only an option whose turn follows the same
turns."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..rules.moves import Move
from ..rules.position import COLORS
from .asking import TAKEBACK, Question
from .record import Record

Before = tuple[Move, ...]   # the turns played before the one an answer is about, from the first
Offer = tuple[int, str, str]  # (turn, seat, card or takeback)
Said = tuple[int, str, str | None, bool, frozenset[Before]]


@dataclass
class Heard:
    """The turns of ``record`` are numbered from ``first``, the turn the mat started on. The
    answers kept: (turn, seat, card, takeback, the turns before it the questions offered it
    after); and every answer a question raised offered: (turn, seat, card or takeback), which a
    phone may still send for that turn, each with the turns played before that turn."""
    first: int
    record: Record
    kept: list[Said] = field(default_factory=list)
    offered: dict[Offer, set[Before]] = field(default_factory=dict)
    asking: dict[Offer, Question] = field(default_factory=dict)  # the last to offer each

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
        for key, seat in q.seats.items():
            for turn, before in self._befores(q, key):
                self.offered.setdefault((turn, COLORS[seat], key), set()).add(before)
                self.asking[turn, COLORS[seat], key] = q
        return q

    def offers(self, turn: int, seat: str, card: str | None, takeback: bool) -> bool:
        return (turn, seat, TAKEBACK if takeback else card) in self.offered

    def _befores(self, q: Question, key: str) -> set[tuple[int, Before]]:
        """Each turn answer ``key`` to ``q`` says something of, with the turns before it: the
        published turn taken back, or the last turn of each of its histories (``q``'s are
        from the anchor it was asked at, turn ``q.number - q.depth``)."""
        stack = self.record.board.move_stack
        if key == TAKEBACK:
            return {(q.number, tuple(stack[:q.number - self.first]))}
        base = q.number - q.depth
        standing = tuple(stack[:base - self.first])
        return {(base + len(p) - 1, standing + p[:-1]) for p in q.prefixes.get(key, ())}

    def hear(self, q: Question | None, turn: int | None, seat: str, card: str | None,
             takeback: bool) -> tuple[str | None, Question | None]:
        """A phone answer: the option of the open question ``q`` it picks (and None); else,
        when it names a turn that does not stand, it is kept, and answers the question that
        last offered it if that was asked from the anchor the mat is at and the turns before
        its turn were the same in every question that offered it (it is about these
        histories: what it keeps of them is what the player said): that option and that
        question; else (None, None). ``card`` as the phone sent it: one not in play names
        none."""
        cards = self.record.board.cards
        name = cards[card].name if card is not None and card in cards else None
        said = self._said(turn, seat, name, takeback)
        key = self._taken(q, said) if q is not None else None
        if key is not None or turn is None or turn < self.open:
            return key, None
        self.kept.append(said)
        old = self.asking.get((turn, seat, TAKEBACK if takeback else card or ""))
        said = self._live(said)
        if (old is None or old.number - old.depth != self.open or len(said[4]) != 1
                or (q is not None and q.mode == "pass")):
            return None, None
        key = self._taken(old, said)
        return key, old if key is not None else None

    def take(self, q: Question) -> str | None:
        """The option of ``q`` that a kept answer picks for the turn it names, which it then
        no longer keeps; None if none."""
        for said in self.kept:
            key = self._taken(q, said)
            if key is not None:
                self.kept.remove(said)
                return key
        return None

    def back_offered(self, q: Question | None, opened: tuple[Move, ...], kept: int,
                     common: int) -> int | None:
        """The published turn the open question ``q`` asks about (from the anchor), if a
        question offered to take it back, ``q`` still offers a history without it, and a
        publication that keeps it (its first ``kept`` turns are the published ones) would
        stand ``common`` turns past it: a late answer may still take it back (``hear``, and
        ``taken_back.answered_late``), so it stays open while the mat is still
        (``Record.hold_for_answer``; not over the next hands, whose readings a turn held
        open multiplies: spirit-back 5, 34). A takeback and a reply moving the piece
        straight back leave one mat; once the next player starts, the reading that keeps
        the turn goes first (``explaining.least_noise``), and the players' answer may come
        after (no-answer 26: "Elephant, or take back Goat c4d4?", then "Octopus or Goat?"
        once Blue's Octopus followed either; Red's "take back" came once Red's Rabbit was
        made, before the next hands)."""
        if q is None or q.number - q.depth != self.open or not q.depth < min(kept, common - 1):
            return None
        turn = opened[:q.depth + 1]
        offered = any(o[0] == q.number and o[2] == TAKEBACK for o in self.offered)
        without = any(p[:len(turn)] != turn for ps in q.prefixes.values() for p in ps)
        return q.depth if offered and without else None

    def taken_back(self, common: int, opened: int) -> None:
        """The first ``common`` of the ``opened`` turns published from the anchor stay: what
        was said of the turns taken back, and of any turn after them, was about hands that
        are gone (no-answer 6: "Octopus, turn 6", said of Octopus d2c3 c2d1, then taken
        back, picked Octopus for the Rhinoceros e2d3 c2c3 played in its place)."""
        if common < opened:
            self.kept = [said for said in self.kept if said[0] < self.open + common]

    def stand(self) -> None:
        """The turns before the anchor stand: what was said of them is decided."""
        first = self.open
        self.kept = [said for said in self.kept if said[0] >= first]
        self.offered = {o: bs for o, bs in self.offered.items() if o[0] >= first}
        self.asking = {o: q for o, q in self.asking.items() if o[0] >= first}

    def _said(self, turn: int | None, seat: str, card: str | None, takeback: bool) -> Said:
        """A phone answer, with the turns before the one it names that the questions which
        offered it were asked after (none: no question offered it, or it names no turn)."""
        key = TAKEBACK if takeback else card
        found = self.offered.get((turn, seat, key), set()) if turn is not None and key else set()
        return (turn if turn is not None else -1, seat, card, takeback, frozenset(found))

    def _live(self, said: Said) -> Said:
        """``said`` with only the turns before it that the turns published since keep (the
        others were about histories the hands or the players have ruled out since: no-answer
        34, "Hornet, or take back Sheep c2b2?" offered after Goat c3c2 and after Butterfly
        c3c2, Red's "Goat" answered first, then "Hornet" came once another question was
        open)."""
        stack = tuple(self.record.board.move_stack)
        live = frozenset(b for b in said[4] if b[:len(stack)] == stack[:len(b)])
        return said[:4] + (live,) if live else said

    def _taken(self, q: Question, said: Said) -> str | None:
        """The option of ``q`` a phone answer picks: one its seat may give, about the turn the
        answer names (any, when it names none), after the turns before it the questions that
        offered it were asked after (any, when none offered it); else None."""
        turn, seat, card, takeback, befores = said
        key = q.answer_key(seat, card, takeback)
        if key is None or turn < 0:
            return key
        if turn not in q.turns_of(key):
            return None
        if not takeback and any(self._plays(q, k, turn, card, befores)
                                for k in q.prefixes if k != key):
            return None   # true of another option's histories too: it tells none apart
        mine = {before for n, before in self._befores(q, key) if n == turn}
        return key if not befores or not mine or befores & mine else None

    def _plays(self, q: Question, key: str, turn: int, card: str | None,
               befores: frozenset[Before]) -> bool:
        """Does a history of ``q``'s option ``key`` play ``card`` on ``turn``, after one of
        ``befores`` (any, when none)? A turn's mover is set by its number, so the answer
        is then as true of that option as of its own (no-answer 24: "Frog, turn 17", said
        of Frog d5e4, picked "Frog" in "Frog or Sheep?", whose Frog takes Frog d5e4 back
        and plays Frog c4d3; the Sheep option's histories play Frog d5e4 as turn 17)."""
        base = q.number - q.depth
        standing = tuple(self.record.board.move_stack[:base - self.first])
        i = turn - base
        return any(0 <= i < len(p) and p[i].card == card
                   and (not befores or standing + p[:i] in befores)
                   for p in q.prefixes.get(key, ()))


def turn_of(q: Question | None, seat: str, card: str | None, takeback: bool) -> int | None:
    """The turn a phone answer to ``q`` names, or None if ``q`` offers ``seat`` no such
    answer."""
    key = q.answer_key(seat, card, takeback) if q is not None else None
    return min(q.turns_of(key)) if q is not None and key is not None else None

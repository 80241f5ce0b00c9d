"""What an answer does to the histories: those it keeps, what the players have said since,
the turns it proves done, and whether the mat is to be read afresh (a takeback answer: the
turn made in place of the one taken back is not ruled out by what was said of that one)."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.moves import Move
from ..rules.position import Position
from .asking import TAKEBACK, Question, Said, unsaid
from .explaining import named_turns
from .heard import Heard
from .histories import Node
from .turns import Turns


def answered(q: Question, key: str, explained: list[Node], rejected: list[tuple[Move, ...]],
             named: list[tuple[tuple[Move, ...], str]],
             turns: Callable[[Position], Turns]) -> tuple[list[Node], Said, bool]:
    """Answer ``key`` to ``q``: the histories ``explained`` it keeps, what the players have
    said since (``rejected``, ``named``: see ``explaining.allowed``), and whether the mat is
    to be read afresh. What they said of a turn taken back goes with it: the turn made in its
    place is read afresh (no-answer 30, 34). An answer that keeps none is not taken."""
    said = unsaid(q, rejected, named) if key == TAKEBACK else (rejected, named)
    again = said != (rejected, named)
    kept = q.keeps(explained, key)
    if not kept and not again:
        return [], (rejected, named), False
    out = q.ruled_out(key)
    if key == TAKEBACK:
        out += other_cards(q, out, explained, turns)
    return kept, (said[0] + out, said[1] + named_turns(q, kept, key)), again


def other_cards(q: Question, ruled: list[tuple[Move, ...]], explained: list[Node],
                turns: Callable[[Position], Turns]) -> list[tuple[Move, ...]]:
    """The replies a takeback answer rules out (``ruled``) after the turn it takes back
    played on the same squares with its mover's other cards. The turn is taken back whatever
    card it was read with: the card named for it went with it (``unsaid``), and without these
    the reply that moved its pieces back came back with the other card, and the same question
    was asked again (takeback 122, takeback-wind 144, 182 at 200 games: the answer lost, the
    turn played in its place committed 3.5-16 s late)."""
    base = next((n for n in explained if len(n.moves) >= q.depth), None)
    while base is not None and len(base.moves) > q.depth:
        base = base.parent
    if base is None:
        return []
    out = []
    for p in ruled:
        if len(p) <= q.depth or p[:q.depth] != base.moves:
            continue
        turn = p[q.depth]
        out += [p[:q.depth] + (m,) + p[q.depth + 1:] for m in turns(base.position).moves
                if m != turn and _squares(m) == _squares(turn)]
    return out


def _squares(m: Move) -> tuple[int | None, ...]:
    return m.from_sq, m.to_sq, m.spirit_from, m.spirit_to


def proved(q: Question, key: str, heard: Heard) -> int:
    """How many of the published turns (``heard``'s record; none if ``q`` was asked from
    another anchor) answer ``key`` proves done: the turns before the one it names, which
    every history it keeps plays (a card named for a turn says that turn was made, so the
    turns before it were over: the next player went on). They stand at once, before the
    answer is published: no later reading may take them back (the table robot's wind2 mat
    9: Blue's "Eel", the reply moving Red's Octopus b1a2 a4b4's Spirit straight back, left
    Octopus open; Red's capture Rabbit a2c2, its two lifts 30 ms apart, was then read as
    Elephant b1c2 from the anchor, taking back Octopus and the Eel answered). The turn named
    stays open, as the last published turn does: its mover may amend it (with the card
    named). None for a takeback (it proves the turn taken back was not over), nor when the
    histories it keeps differ before the turn it names: then the player named a card, not
    those turns (the Spirit shuttled on one square, a round trip missed, numbers that turn
    two lower in one history: spirit-back 33's "Hornet", said of turn 29, read as turn 27,
    stood Hornet e3e4 and Okija e4e3 was later published as Hornet)."""
    before = {p[:-1] for p in q.prefixes.get(key, ())}
    if key == TAKEBACK or len(before) != 1 or q.number - q.depth != heard.open:
        return 0
    (turns,) = before
    n = len(turns)
    return n if heard.record.moves_open()[:n] == turns else 0

"""What an answer does to the histories: those it keeps, what the players have said since,
and whether the mat is to be read afresh (a takeback answer: the turn made in place of the
one taken back is not ruled out by what was said of that one)."""

from __future__ import annotations

from ..rules.moves import Move
from .asking import TAKEBACK, Question, Said, unsaid
from .explaining import named_turns
from .histories import Node


def answered(q: Question, key: str, explained: list[Node], rejected: list[tuple[Move, ...]],
             named: list[tuple[tuple[Move, ...], str]]) -> tuple[list[Node], Said, bool]:
    """Answer ``key`` to ``q``: the histories ``explained`` it keeps, what the players have
    said since (``rejected``, ``named``: see ``explaining.allowed``), and whether the mat is
    to be read afresh. What they said of a turn taken back goes with it: the turn made in its
    place is read afresh (no-answer 30, 34). An answer that keeps none is not taken."""
    said = unsaid(q, rejected, named) if key == TAKEBACK else (rejected, named)
    again = said != (rejected, named)
    kept = q.keeps(explained, key)
    if not kept and not again:
        return [], (rejected, named), False
    return kept, (said[0] + q.ruled_out(key), said[1] + named_turns(q, kept, key)), again

"""The readings a look keeps of its cheapest histories: a Wind Spirit card part-way only
while nothing whole explains the mat as cheaply, and the histories whose turns end where the
next player saw them (the mat rested there), with those it put after them and the twins it
kept only as glimpses. One pipeline, in the order each rule assumes of the ones before it."""
from __future__ import annotations

from typing import NamedTuple

from .asking import TAKEBACK, Question
from .explaining import unseen
from .glimpses import Rests
from .going_on import going_on
from .histories import Explanation, Node
from .moment import Moment, one_hand
from .on_its_way import on_its_way, whole_first
from .pieces import Pieces
from .record import Record
from .reply_stands import reply_stands
from .resting import Twin, glimpse_only, seen_at_rest


class Seen(NamedTuple):
    """What a look keeps: ``kept`` (read), ``unseen`` (put after them: kept growing if a
    turn is published, the next hands may go on from them), ``twins`` (kept only as
    glimpses: asked about, never holding the record) and ``moment`` (a Spirit read as one hand
    over its moment, the two players' turns it was read as kept beside it, asked about: see
    :func:`.moment.one_hand`; None if none was)."""
    kept: list[Explanation]
    unseen: list[Node]
    twins: list[Twin]
    moment: Moment | None


def seen_readings(every: list[Explanation], found: list[Explanation], record: Record,
                  lifts: list[tuple[float, int]], shown: tuple[list[float], float],
                  rested: Rests, at_once: float, laid: list[tuple[float, frozenset[Pieces]]],
                  asked: int | None, question: Question | None = None) -> Seen:
    """The readings of ``found`` (the cheapest of ``every``) a look keeps. ``shown``: when
    the mat showed each published turn, and the game as published (if none is open);
    ``asked``: the turn still asked about, from the anchor (``question``: that question)."""
    opened = record.moves_open()
    since, shown_at = shown
    found = on_its_way(every, found, record, lifts, since, rested)
    # A Spirit set down for a moment, then moved on, is one hand (the two players' turns
    # it is read as otherwise are only asked about, and kept growing: ``unseen``).
    found, gone, moment = one_hand(found, rested)
    # A published turn's Spirit step amended (or taken back) through the other player's
    # reply goes after the histories that read both, unless the Spirit stood only for
    # moments (or the open question offers that turn's takeback: the answer tells).
    found, after = reply_stands(
        found, opened, asked if question is not None and TAKEBACK in question.prefixes else None)
    # A Wind Spirit card part-way explains the mat only while nothing whole does as
    # cheaply: then the mover's hands are at work, and no turn is read from them.
    found = whole_first(found, asked)
    # A turn ends where the next player saw it (since the game as published was shown:
    # after a takeback, not on a rest before it, on the turn taken back: takeback 134).
    published = since or [shown_at]
    kept = seen_at_rest(found, record, lifts, published, rested, at_once, laid)
    # (Unless the hands went on from a published turn that the histories it kept change.)
    kept = going_on(found, kept, opened, lifts, since)
    return Seen(kept + gone, unseen(found, kept) + [e.node for e in gone + after],
                glimpse_only(kept, record, lifts, published, rested, laid), moment)

"""Turns read past a published turn the players are asked about: the histories disagree on
that one turn only, and every one of them goes on by the same turns after it (the same moves,
on the same squares, with the same cards). Those turns are published at once on the turn as
published, and the question stays open: an answer, or the next hands, that keep another
reading of the asked turn take them back with it and make them again on that reading.

Onlooker 81: Blue's Serow c3c2 takes c2; 1.3 s after its rest an onlooker lifts Red's b2 for
0.13 s, where Kumo c3b2 reaches (the mover's hand, c2's exchange a re-seat: "Kumo or Serow?"
is asked, and onlooker's players never answer). Red's Steer e2d2 follows either; it waited
4.3 s, until Blue's Kumo b5c4 told the two apart (Kumo was still Blue's: Serow it was). A
question left open must not hold the turns the hands make after it when every reading of the
asked turn makes them alike."""

from __future__ import annotations

from ..rules.moves import Move
from .asking import Question
from .histories import Node


def publication(found: list[Node], paths: list[tuple[Move, ...]], opened: tuple[Move, ...],
                common: int, published: bool, asked: Question | None
                ) -> tuple[Node, list[tuple[Move, ...]], int] | None:
    """What a look publishes: the history, the paths its date is read from, and how many of
    its turns. The first ``common`` turns of ``found``'s first history if they are
    ``published``; else the turns :func:`read_ahead` reads, if any; else None."""
    if published:
        return found[0], paths, common
    ahead = read_ahead(found, opened, common, asked)
    return None if ahead is None else (ahead, [ahead.moves], len(ahead.moves))


def read_ahead(found: list[Node], opened: tuple[Move, ...], common: int,
               asked: Question | None) -> Node | None:
    """The history of ``found`` to publish past the published turns ``opened`` while
    ``asked`` is open: the one that keeps ``opened``, when ``found`` disagree on the open turn
    ``common`` only and all go on from it by the same turns, at least one; else None."""
    if asked is None or common >= len(opened):
        return None
    keep = [n for n in found if n.moves[:len(opened)] == opened]
    if not keep or any(n.pending is not None for n in found):
        return None
    lead = keep[0].moves
    if len(lead) <= len(opened):
        return None
    if all(len(n.moves) == len(lead) and n.moves[common + 1:] == lead[common + 1:]
           for n in found):
        return keep[0]
    return None

"""What a lift of the next player's proves (rule 7): that they started (``proves_start``, the
one check every publication at a lift passes, ``Recognizer._fast_lift``; a rest needs none),
and which turns it ends (``kept_at_lift``).

A lift ends a turn only if it is a piece the next player may move and the last mover may not
still be handling. The Spirit is nobody's piece: while a history replaces published turns (an
amendment, a takeback), their mover may be at work on them, and the Spirit lifted from where
the published turns left it may be in the mover's hand (takeback-wind 150: a Wind Spirit
card's turn taken back, its pawn home first, then its Spirit lifted to go back; with that
square empty the mat is the turn amended, and the lift read as the next player's ended it).
Such a reading waits for the mat's rest. (Not the Spirit where the history alone has it: that
is often the next player's hand carrying it on, hurried 146.)"""

from __future__ import annotations

from .explaining import agreement
from .histories import Explanation, Node
from .record import Record


def proves_start(node: Node, record: Record, sq: int, occupied: frozenset[int]) -> bool:
    """Is a lift of ``sq`` (still off the mat: ``occupied`` is the mat's squares) proof that
    the player to move after ``node`` started (``record``: the turns published)?"""
    if sq in occupied:
        return False   # (put back: a brush)
    opened = record.moves_open()
    if agreement(node.moves, opened) == len(opened):
        return True   # (the history keeps every published turn: plain fast play)
    return record.position.piece_at(sq) != "W"


def kept_at_lift(found: list[Explanation], unseen: list[Node], record: Record) -> list[Node]:
    """The histories a lift of the next player's ends: those of ``found``, unless its one
    history amends (or takes back) a published turn while others as cheap, which only the
    mat's rests put after it (``unseen``), keep every published turn: then those (rule 4: of
    the histories, the one that changes least of what was published stands). Both end at the
    next player's start, so it proves no amendment: fast 74, Blue's Octopus c5d4 b3c4, Red's
    Mouse moving the Spirit straight back and Blue's Serow d4c4 0.32 s later, no rest between,
    read at Red's lift as Octopus amended to Serow c5c4 (the rests' preference: one hand going
    on), published before rest, then wedged."""
    nodes = [e.node for e in found]
    opened = record.moves_open()
    if len({id(n) for n in nodes}) != 1 or agreement(nodes[0].moves, opened) == len(opened):
        return nodes
    return [n for n in unseen if agreement(n.moves, opened) == len(opened)] or nodes

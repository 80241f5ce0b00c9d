"""Whether a lift proves the next player started (rule 7): the one check every publication
at a lift passes (``Recognizer._fast_lift``; a rest needs none).

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
from .histories import Node
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

"""The amend window: the last move committed, which its mover may still change until the
opponent starts, and the evidence each amendment must show on the mat."""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass, field

from ..rules.board import Board
from ..rules.cards import CardTable
from ..rules.moves import Move
from ..rules.position import Position
from .evidence import Evidence
from .readings import Reading, read_move


def move_of(r: Reading) -> Move:
    """The move of a reading known to be a turn (only the takeback's reading has none)."""
    assert r.move is not None, "a reading of a legal turn has a move"
    return r.move


def origin(move: Move) -> int | None:
    """The square of the piece a turn picks up first (its pawn, or the Spirit)."""
    return move.from_sq if move.from_sq is not None else move.spirit_from


@dataclass
class Window:
    """The last move committed, which its mover may still amend until the opponent starts."""
    reading: Reading            # as committed
    before: Position            # the position it was played from
    mover: int
    readings: list[Reading]     # the mover's other turns from ``before`` with the same piece
    touched: frozenset[int]     # every square those turns (and the move) visit
    needs: dict[Reading, frozenset[frozenset[int]]]  # evidence each amendment needs
    seen: frozenset[frozenset[int]]       # the evidence the move itself was read with
    extra: dict[Reading, frozenset[int]]  # squares it shows emptied that the move left full
    cards: CardTable
    _replies: dict[Reading, list[Reading]] = field(default_factory=dict)

    def amendments(self, occ: frozenset[int], evidence: Evidence) -> list[Reading]:
        """The amendments the mat ``occ`` shows, with the evidence each needs."""
        empty_now = frozenset(range(25)) - occ
        return [r for r in self.readings if r.occupancy == occ
                and evidence.has(self.needs[r], empty_now=empty_now, also=self.seen)]

    def replies(self, r: Reading) -> list[Reading]:
        """The opponent's turns after the move amended into ``r``, as readings."""
        found = self._replies.get(r)
        if found is None:
            board = Board(self.before, cards=self.cards)
            board.push(move_of(r))
            moves = [] if board.is_game_over() else list(board.legal_moves)
            found = [read_move(board.position, m) for m in moves if not m.is_pass]
            self._replies[r] = found
        return found

    def closed_by(self, sq: int, position: Position, turn: str) -> bool:
        """Does lifting ``sq`` close the window: the opponent (``turn``) starts their own turn
        on a square no amendment visits?"""
        if sq in self.touched:
            return False
        piece = position.piece_at(sq)
        return piece is not None and piece in ("Rr" if turn == "red" else "Bb") + "W"


def open_window(reading: Reading, before: Position, cards: CardTable,
                seen: frozenset[frozenset[int]]) -> Window:
    """The window a turn ``reading`` played from ``before`` opens, read with evidence ``seen``."""
    start = origin(move_of(reading))   # only a turn opens a window
    others = [read_move(before, m) for m in Board(before, cards=cards).legal_moves
              if not m.is_pass and m != reading.move and origin(m) == start]
    # A turn that leaves the same pieces where the move left them is no amendment.
    others = [r for r in others if r.pieces != reading.pieces]
    touched = frozenset().union(reading.touched, *(r.touched for r in others))
    # An amendment must show its own hands on the mat as it stands: each square the move
    # left occupied that now holds another piece was emptied (a swap's two together),
    # after the commit or before it (a captured pawn set down aside made the mat look like
    # another move). A Wind Spirit card going on leaves the pawn step as it is.
    needs, extra = {}, {}
    for r in others:
        changed = frozenset(sq for sq in reading.occupancy & r.occupancy
                            if reading.pieces[sq] != r.pieces[sq])
        needs[r] = (frozenset((changed,)) if len(changed) == 2 and "W" in
                    {reading.pieces[sq] for sq in changed} else
                    frozenset(frozenset((sq,)) for sq in changed))
        extra[r] = changed
    # Evidence from before the commit on squares the move itself used proves nothing new.
    seen = frozenset(g for g in seen if not g & reading.touched)
    return Window(reading, before, before.turn, others, touched, needs, seen, extra, cards)

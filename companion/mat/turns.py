"""The turns the mat may show from the game as recognized: every legal turn read as a mat,
the takeback of the last move, and the replies that may follow each."""

from __future__ import annotations

from ..rules.board import Board
from ..rules.position import Position
from .readings import Reading, read_move, read_undo


class Turns:
    """What the mat may show next from ``board``'s position; ``last`` is history's last entry
    (the reading of the last move, None for a pass, and the position it was played from)."""

    def __init__(self, board: Board, last: tuple[Reading | None, Position] | None):
        self._board = board
        pos = board.position
        self.moves = list(board.legal_moves)
        self.must_pass = bool(self.moves) and all(m.is_pass for m in self.moves)
        self.readings = [] if self.must_pass else [read_move(pos, m) for m in self.moves]
        # A pass (history's None) is not taken back on the mat.
        reading, before = last if last is not None else (None, None)
        self.undo = read_undo(reading, before) if reading is not None and before is not None else None
        self.by_occupancy: dict[frozenset[int], list[Reading]] = {}
        for r in self.candidates():
            self.by_occupancy.setdefault(r.occupancy, []).append(r)
        self._reply_cache: dict[Reading, list[Reading]] = {}

    def candidates(self) -> list[Reading]:
        """Every turn to read now: the legal turns and the takeback."""
        return self.readings + ([self.undo] if self.undo else [])

    def replies(self, r: Reading) -> list[Reading]:
        """The turns that may follow ``r`` (the opponent's, or after a takeback the mover's
        own again), as readings from the position ``r`` leads to."""
        found = self._reply_cache.get(r)
        if found is None:
            board = self._board.copy()
            if r.move is None:
                board.pop()
            else:
                board.push(r.move)
            moves = [] if board.is_game_over() else list(board.legal_moves)
            pos = board.position
            found = [read_move(pos, m) for m in moves if not m.is_pass]
            self._reply_cache[r] = found
        return found

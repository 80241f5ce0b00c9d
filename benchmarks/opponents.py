"""Two independent opponents for the strength acceptance, built from onitama.app's published
description of its agents (no code of theirs):

- ``AlphaBeta``: iterative-deepening alpha-beta whose evaluation is material only (students
  each side has left), wins detected; captures tried first, then the previous iteration's
  best move; no transposition table, no quiescence.
- ``HybridMonteCarlo``: half its time on that alpha-beta to score the moves; a move that wins
  by force is played, moves that lose by force are dropped (unless all do); the other half
  of the time runs random playouts from the remaining moves, round-robin, and the move with
  the best average result is played.

Both play from a seat's view of an open-information game, by seconds per move.
"""

from __future__ import annotations

import random
import time

from companion.ai.view import SeatView
from companion.rules.engine import Engine
from companion.rules.board import engine_move

WIN = 10_000


class _Timeout(Exception):
    pass


def _state(view: SeatView) -> tuple:
    return Engine.state(view.board())


class AlphaBeta:
    def __init__(self, seconds: float = 0.5):
        self.seconds = seconds
        self.engine = None
        self.nodes = 0

    def _material(self, st: tuple) -> int:
        return 100 * (st[0].bit_count() - st[1].bit_count())

    def _search(self, st: tuple, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
            raise _Timeout
        moves = self.engine.moves(st)
        for mv in moves:
            if mv[5]:
                return WIN - ply
        if depth == 0:
            return self._material(st)
        opp = st[1]
        moves.sort(key=lambda mv: not (mv[1] >= 0 and opp >> mv[2] & 1))
        best = -2 * WIN
        for mv in moves:
            score = -self._search(self.engine.apply(st, mv), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def scored(self, st: tuple, seconds: float) -> tuple[list[tuple[tuple, int]], int]:
        """Root moves with their scores from the deepest finished iteration, and that depth."""
        self.deadline = time.perf_counter() + seconds
        moves = self.engine.moves(st)
        wins = [mv for mv in moves if mv[5]]
        if wins:
            return [(mv, WIN if mv[5] else 0) for mv in moves], 1
        scored = [(mv, 0) for mv in moves]
        depth = 0
        try:
            for d in range(1, 40):
                out = []
                alpha = -2 * WIN
                for mv, _ in scored:
                    s = -self._search(self.engine.apply(st, mv), d - 1, -2 * WIN, -alpha, 1)
                    out.append((mv, s))
                    alpha = max(alpha, s)
                out.sort(key=lambda x: -x[1])
                scored, depth = out, d
                if abs(out[0][1]) > WIN // 2:
                    break
        except _Timeout:
            pass
        return scored, depth

    def __call__(self, view: SeatView) -> str:
        self.engine = self.engine or Engine(view.cards())
        st = _state(view)
        scored, _ = self.scored(st, self.seconds)
        best = max(s for _, s in scored)
        mv = next(m for m, s in scored if s == best)
        return str(engine_move(self.engine.cards, st, mv))


class HybridMonteCarlo:
    def __init__(self, seconds: float = 0.5, seed: int = 0, max_playout: int = 60):
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.ab = AlphaBeta(seconds / 2)
        self.max_playout = max_playout
        self.playouts = 0

    def _playout(self, st: tuple, engine: Engine) -> float:
        """1 if the side that just moved into ``st`` wins the random game, 0 if it loses."""
        rng = self.rng
        mover_is_them = True
        for _ in range(self.max_playout):
            moves = engine.moves(st)
            wins = [mv for mv in moves if mv[5]]
            if wins:
                return 0.0 if mover_is_them else 1.0
            st = engine.apply(st, rng.choice(moves))
            mover_is_them = not mover_is_them
        return 0.5

    def __call__(self, view: SeatView) -> str:
        engine = self.ab.engine = self.ab.engine or Engine(view.cards())
        started = time.perf_counter()
        st = _state(view)
        scored, _ = self.ab.scored(st, self.seconds / 2)
        best = max(s for _, s in scored)
        if best > WIN // 2:
            mv = next(m for m, s in scored if s == best)
            return str(engine_move(engine.cards, st, mv))
        alive = [m for m, s in scored if s > -WIN // 2] or [m for m, _ in scored]
        if len(alive) == 1:
            return str(engine_move(engine.cards, st, alive[0]))
        totals = {m: 0.0 for m in alive}
        counts = {m: 0 for m in alive}
        deadline = started + self.seconds
        children = {m: engine.apply(st, m) for m in alive}
        while time.perf_counter() < deadline:
            for m in alive:
                totals[m] += self._playout(children[m], engine)
                counts[m] += 1
                self.playouts += 1
        mv = max(alive, key=lambda m: totals[m] / max(counts[m], 1))
        return str(engine_move(engine.cards, st, mv))

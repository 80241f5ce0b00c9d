"""Iterative-deepening negamax with principal variation search, a Zobrist-keyed
transposition table, quiescence on captures and wins, and move ordering by table move,
wins, captures and history.

The search works on the move generator's own state tuples and move tuples
(``companion.rules.engine``) and makes moves functionally (a new tuple per child, with its
Zobrist key updated incrementally): in Python that is cheaper than make/unmake on mutable
state. The one change to the generator's state is its last field, which here holds both
side stacks, ``(mover's stack, other's stack)``: in the base game the mover's stack is the
side card and the other's is empty, and in the Knowledge variant a move also says which
card of the mover's stack it takes (a seventh field, the index; absent means 0).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from companion.rules.cards import CARDS, CardTable
from companion.rules.engine import ANY, Engine
from companion.rules.position import Position

from .endgame import Endgames
from .evaluate import Evaluator, Weights
from .memory import budget
from .searchmoves import SearchMoves
from .searchtypes import SearchMove, SearchState, TTEntry
from .zobrist import Zobrist

WIN = 100_000           # a win by the move n plies from the root scores WIN - n
WON = WIN - 1000        # scores beyond this are forced results
INF = 1_000_000
EXACT, LOWER, UPPER = 0, 1, 2
QDEPTH = 6              # captures looked at beyond the horizon
CHECK_EVERY = 1024      # nodes between clock checks


class _Stop(Exception):
    """Time or node budget used up, or a stop asked for: unwind to the root."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search stops: the first of depth, seconds and nodes reached (None: no limit).
    A node limit makes a search exactly repeatable; a time limit does not."""
    depth: int = 64
    seconds: float | None = None
    nodes: int | None = None


@dataclass(slots=True)
class Result:
    move: SearchMove | None         # the generator's move tuple (None: the game is over)
    score: int                      # for the side to move
    depth: int                      # last iteration completed
    nodes: int
    seconds: float
    pv: list[SearchMove] = field(default_factory=list)
    root: list[tuple[SearchMove, int]] = field(default_factory=list)  # (move, score), when asked

    @property
    def forced(self) -> int | None:
        """Plies to a forced result (positive: the mover wins), or None."""
        if abs(self.score) < WON:
            return None
        plies = WIN - abs(self.score)
        return plies if self.score > 0 else -plies


def search_state(pos: Position, stacks: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> SearchState:
    """The search state of ``pos``: the generator's tuple with both side stacks (the mover's,
    the other's) in its last field; by default the side card is the mover's stack."""
    st = Engine.state(pos)
    return st[:8] + (stacks if stacks is not None else (tuple(pos.side), ()),)


def mate_in(score: int) -> int | None:
    if abs(score) < WON:
        return None
    plies = WIN - abs(score)
    return plies if score > 0 else -plies


def endgame_score(v: int, ply: int) -> int:
    """The score at ``ply`` of an endgame table's value ``v`` (``companion.ai.endgame``): a
    win with the ``v``-th ply from here scores like the search's own forced wins."""
    if v == 0:
        return 0
    return WIN - ply - v if v & 1 else -(WIN - ply - v)


class Searcher(SearchMoves):
    """One search engine for one card table and hand layout; keeps its transposition table
    and history between moves of a game. The table holds at most ``tt_limit`` entries
    (``memory.budget()`` by default): a new key when it is full clears it first. With the
    exact endgames of the game's deal (:meth:`set_endgames`) a position they hold gets its
    exact score, before the table or the depth is looked at."""

    def __init__(self, cards: CardTable = CARDS, roles: tuple[int, ...] = (ANY, ANY),
                 weights: Weights = Weights(), *, zobrist: Zobrist | None = None,
                 tt_limit: int | None = None):
        super().__init__(cards, roles, zobrist=zobrist)
        self.weights = weights
        self.evaluate = Evaluator(self.engine, weights)
        self.tt: dict[int, TTEntry] = {}
        self.tt_limit = tt_limit if tt_limit is not None else budget().tt_entries
        self._stop_asked = False
        self.history = [0] * 2800
        self.nodes = 0
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._next_check = 0
        self.endgames: Endgames | None = None

    # -- the search ------------------------------------------------------------------------

    def search(self, st: SearchState, limits: Limits = Limits(), *, root_scores: bool = False,
               margin: int | None = None) -> Result:
        """The best move of ``st`` within ``limits``. ``root_scores``: a score for every
        root move (hints, and the levels' imprecision). With a ``margin`` a move is scored
        exactly only when it is within ``margin`` of the best so far; a worse one gets an
        upper bound at most ``margin`` below the best (one null-window search instead of a
        full one: the weaker levels search deeper for it)."""
        started = time.perf_counter()
        self.nodes = 0
        self._deadline = None if limits.seconds is None else started + limits.seconds
        self._node_limit = limits.nodes
        self._next_check = CHECK_EVERY if limits.nodes is None else min(CHECK_EVERY, limits.nodes)
        self._stop_asked = False
        self._age_history()
        h = self.key(st)
        moves = self.moves(st)
        if Engine.position(st[:8] + ((),)).winner() is not None or not moves:
            return Result(None, 0, 0, 0, 0.0)
        wins = [mv for mv in moves if mv[5]]
        if wins and not root_scores:
            return Result(wins[0], WIN - 1, 1, 1, time.perf_counter() - started, [wins[0]])
        best = Result(moves[0], 0, 0, 0, 0.0, [moves[0]])
        order = list(moves)
        scores: dict[SearchMove, int] = {}
        # Every child of a solved position is solved (or won at once): one ply scores them all.
        last = 1 if self.solved_score(st, 0) is not None else limits.depth
        try:
            for depth in range(1, last + 1):
                score, move, scores = self._root(st, h, order, depth, root_scores, margin)
                best = Result(move, score, depth, self.nodes, time.perf_counter() - started,
                              self._pv(st, h, move, depth))
                if root_scores:
                    best.root = sorted(scores.items(), key=lambda kv: -kv[1])
                # The best move first next time, the rest by this iteration's scores.
                order.sort(key=lambda mv: -scores.get(mv, -INF))
                if abs(score) >= WON and WIN - abs(score) <= depth and not root_scores:
                    break       # a forced result within the horizon: deeper changes nothing
                if self._deadline is not None and time.perf_counter() > started + (self._deadline - started) * 0.55:
                    break       # the next iteration would not finish
        except _Stop:
            pass
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - started
        return best

    def set_endgames(self, endgames: Endgames | None) -> None:
        """Use the exact endgames of this game's deal (None: no more)."""
        self.endgames = endgames

    def solved_score(self, st: SearchState, ply: int) -> int | None:
        """The exact score of ``st`` when the endgame table holds it."""
        eg = self.endgames
        if eg is None or st[4] >= 0 or (st[0] | st[1]).bit_count() > eg.pieces:
            return None
        mine, theirs = st[8]
        if theirs:
            return None
        v = eg.value(st[:8] + (mine,))
        return None if v is None else endgame_score(v, ply)

    def request_stop(self) -> None:
        """Stop the search running now (from another thread) within a few thousand nodes:
        it returns the last iteration it completed."""
        self._stop_asked = True

    def _age_history(self) -> None:
        self.history = [v >> 2 for v in self.history]

    def _store(self, h: int, entry: TTEntry) -> None:
        tt = self.tt
        if len(tt) >= self.tt_limit and h not in tt:
            tt.clear()
        tt[h] = entry

    def _tt_get(self, h: int) -> TTEntry | None:
        return self.tt.get(h)

    def _root(self, st: SearchState, h: int, order: list[SearchMove], depth: int, all_scores: bool,
              margin: int | None = None) -> tuple[int, SearchMove, dict[SearchMove, int]]:
        alpha, beta = -INF, INF
        best_score, best_move = -INF, order[0]
        scores: dict[SearchMove, int] = {}
        make, negamax = self.make, self._negamax
        for i, mv in enumerate(order):
            if mv[5]:
                score = WIN - 1
            elif all_scores and margin is not None and i > 0:
                child, ch = make(st, h, mv)
                floor = best_score - margin
                score = -negamax(child, ch, depth - 1, -floor - 1, -floor, 1)
                if score > floor:
                    score = -negamax(child, ch, depth - 1, -INF, -floor, 1)
            elif i == 0 or all_scores:
                child, ch = make(st, h, mv)
                score = -negamax(child, ch, depth - 1, -INF if all_scores else -beta,
                                 INF if all_scores else -alpha, 1)
            else:
                child, ch = make(st, h, mv)
                score = -negamax(child, ch, depth - 1, -alpha - 1, -alpha, 1)
                if score > alpha:
                    score = -negamax(child, ch, depth - 1, -beta, -alpha, 1)
            scores[mv] = score
            if score > best_score:
                best_score, best_move = score, mv
                if score > alpha:
                    alpha = score
        self._store(h, (depth, EXACT, best_score, best_move))
        return best_score, best_move, scores

    def _check(self) -> None:
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _Stop
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _Stop
        if self._stop_asked:
            raise _Stop
        self._next_check = self.nodes + (CHECK_EVERY if self._node_limit is None
                                         else min(CHECK_EVERY, self._node_limit - self.nodes))

    def _probe(self, h: int, depth: int, alpha: int, beta: int, ply: int) -> tuple[int | None, Any]:
        """The transposition table's score for this node if it decides it (deep enough, and
        exact or outside the window), and its best move to try first."""
        entry = self.tt.get(h)
        if entry is None:
            return None, None
        e_depth, flag, score, tt_move = entry
        if e_depth >= depth:
            if score >= WON:
                score -= ply
            elif score <= -WON:
                score += ply
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                return score, tt_move
        return None, tt_move

    def _negamax(self, st: SearchState, h: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        if self.endgames is not None:
            exact = self.solved_score(st, ply)
            if exact is not None:
                return exact
        if depth <= 0:
            return self._quiesce(st, h, alpha, beta, ply, QDEPTH)
        cut, tt_move = self._probe(h, depth, alpha, beta, ply)
        if cut is not None:
            return cut
        moves = self.engine.moves(st) if len(st[8][0]) < 2 else self.moves(st)
        for mv in moves:
            if mv[5]:
                self._store(h, (99, EXACT, WIN - 1, mv))     # stored relative to this node
                return WIN - ply - 1
        self._order(moves, tt_move, st)
        alpha0 = alpha
        best, best_move = -INF, moves[0]
        make, negamax = self.make, self._negamax
        first = True
        for mv in moves:
            child, ch = make(st, h, mv)
            if first:
                score = -negamax(child, ch, depth - 1, -beta, -alpha, ply + 1)
                first = False
            else:
                score = -negamax(child, ch, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -negamax(child, ch, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._reward(mv, st, depth)
                        break
        stored = best + ply if best >= WON else best - ply if best <= -WON else best
        flag = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
        self._store(h, (depth, flag, stored, best_move))
        return best

    def _order(self, moves: list[Any], tt_move: Any, st: tuple[Any, ...]) -> None:
        """The moves to try first, first: the table's, captures, then by history."""
        opp = st[1]
        hist = self.history
        base: int = st[5] * 1400

        def rank(mv: tuple[int, ...]) -> int:
            if mv == tt_move:
                return -10**9
            f = mv[1]
            if f >= 0:
                if opp >> mv[2] & 1:
                    return -10**8
                return -hist[base + f * 25 + mv[2]]
            return -hist[base + 625 + (mv[3] + 1) * 26 + mv[4] + 1]

        moves.sort(key=rank)

    def _reward(self, mv: Any, st: tuple[Any, ...], depth: int) -> None:
        """A quiet move that cut off: its history counts up, so it is tried early elsewhere."""
        f = mv[1]
        if f < 0 or not st[1] >> mv[2] & 1:
            base = st[5] * 1400
            i = base + (f * 25 + mv[2] if f >= 0 else 625 + (mv[3] + 1) * 26 + mv[4] + 1)
            self.history[i] += depth * depth

    def _quiesce(self, st: SearchState, h: int, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        can = self._capture_check(st)
        if can is None:
            return WIN - ply - 1
        stand = self.evaluate(st)
        if stand >= beta or qdepth <= 0 or not can:
            return stand
        if stand > alpha:
            alpha = stand
        captures = self._captures(st)
        assert captures, "the check found a capture and no win"
        mine = st[8][0]
        if len(mine) > 1:
            captures = [mv + (k,) for mv in captures for k in range(len(mine))]
        make, quiesce = self.make, self._quiesce
        for mv in captures:
            self.nodes += 1
            if self.nodes >= self._next_check:
                self._check()
            child, ch = make(st, h, mv)
            score = -quiesce(child, ch, -beta, -alpha, ply + 1, qdepth - 1)
            if score > stand:
                stand = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return stand

    def _pv(self, st: SearchState, h: int, move: SearchMove, depth: int) -> list[SearchMove]:
        pv = [move]
        seen = {h}
        for _ in range(depth - 1):
            if move[5]:
                break
            st, h = self.make(st, h, move)
            entry = self._tt_get(h)
            if entry is None or h in seen or entry[3] not in self.moves(st):
                break
            seen.add(h)
            move = entry[3]
            pv.append(move)
        return pv

"""An exact full-width prover of forced wins, independent of the evaluation and of the
search's pruning: the yardstick for the tactics suite and the search's tests.

``wins_within(engine, st, n)``: the side to move can force a win within ``n`` plies (its
own winning move being one of them), whatever the other side does. It walks the whole tree
(an OR node stops at its first proof, an AND node at its first refutation) with a table of
results per (state, plies left).
"""

from __future__ import annotations

from companion.rules.engine import Engine


class Budget(Exception):
    """The prover's node budget ran out: no answer."""


class Prover:
    def __init__(self, engine: Engine, max_nodes: int | None = None):
        self.engine = engine
        self.max_nodes = max_nodes
        self.nodes = 0
        self._memo: dict[tuple, bool] = {}

    def wins_within(self, st: tuple, n: int) -> bool:
        if n <= 0:
            return False
        key = (st, n, True)
        got = self._memo.get(key)
        if got is not None:
            return got
        self._count()
        moves = self.engine.moves(st)
        if any(mv[5] for mv in moves):
            result = True
        elif n < 3:
            result = False
        else:
            apply = self.engine.apply
            result = any(self.loses_within(apply(st, mv), n - 1) for mv in moves)
        self._memo[key] = result
        return result

    def loses_within(self, st: tuple, n: int) -> bool:
        """Every move of the side to move lets the other side force a win within ``n - 1``."""
        if n < 2:
            return False
        key = (st, n, False)
        got = self._memo.get(key)
        if got is not None:
            return got
        self._count()
        moves = self.engine.moves(st)
        apply = self.engine.apply
        result = not any(mv[5] for mv in moves) and all(
            self.wins_within(apply(st, mv), n - 1) for mv in moves)
        self._memo[key] = result
        return result

    def shortest_win(self, st: tuple, most: int) -> int | None:
        """The fewest plies (odd, up to ``most``) in which the mover forces a win."""
        for n in range(1, most + 1, 2):
            if self.wins_within(st, n):
                return n
        return None

    def winning_moves(self, st: tuple, n: int) -> list[tuple]:
        """The mover's moves that keep a forced win within ``n`` plies."""
        apply = self.engine.apply
        return [mv for mv in self.engine.moves(st)
                if mv[5] or (n >= 3 and self.loses_within(apply(st, mv), n - 1))]

    def _count(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Budget

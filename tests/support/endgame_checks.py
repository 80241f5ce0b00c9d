"""Independent checks of an endgame table (companion/ai/endgame.py), for tests/ai and
benchmarks/bench_tablebase.py: each value against an exact full-width search of the rules'
own move generator (companion/ai/solve.py), against its children's values one ply down,
and the hints' words and grades against the value of each move."""

from __future__ import annotations

import random

from companion.ai.endgame import INVALID, Endgames
from companion.ai.hints import hint_table
from companion.ai.search import WIN, search_state
from companion.ai.solve import Prover
from companion.ai.view import SeatView
from companion.rules.engine import Engine
from companion.rules.squares import square_name
from companion.rules.variants import ClassicReferee


def sample(table: Endgames, n: int, rng: random.Random, *, longest: int | None = None) -> list[int]:
    """``n`` random indices of positions the table holds (with a value up to ``longest``)."""
    values = table.values
    out: list[int] = []
    while len(out) < n:
        i = rng.randrange(table.layout.size)
        v = values[i]
        if v != INVALID and (longest is None or v <= longest):
            out.append(i)
    return out


def by_search(engine: Engine, st: tuple, v: int, horizon: int) -> bool:
    """The exact search agrees with value ``v``: a win (odd) or a loss (even) in exactly
    ``v`` plies, or for 0 neither side forcing a win within ``horizon`` plies."""
    p = Prover(engine)
    if v == 0:
        return not p.wins_within(st, horizon) and not p.loses_within(st, horizon + 1)
    if v & 1:
        return p.wins_within(st, v) and not p.wins_within(st, v - 2)
    return p.loses_within(st, v) and not p.loses_within(st, v - 2)


def move_values(table: Endgames, engine: Engine, st: tuple) -> list[tuple[tuple, int]]:
    """Each move of ``st`` with its value for the mover: -1 for a move that wins at once,
    else the child's table value (for the opponent)."""
    out = []
    for mv in engine.moves(st):
        if mv[5]:
            out.append((mv, -1))
            continue
        child = table.value(engine.apply(st, mv))
        assert child is not None, "a move out of the table"
        out.append((mv, child))
    return out


def one_ply(table: Endgames, engine: Engine, st: tuple) -> int:
    """The value ``st`` must have given its children's: the fastest win (a child lost), else
    the slowest loss (every child won), else no result."""
    kids = [v for _, v in move_values(table, engine, st)]
    if -1 in kids:
        return 1
    losses = [v for v in kids if v and not v & 1]
    if losses:
        return min(losses) + 1
    if all(v & 1 for v in kids):
        return max(kids) + 1
    return 0


def mover_score(child: int) -> int:
    """A move's exact score for its mover (search conventions, from the position moved from)."""
    if child == -1:
        return WIN - 1
    if child == 0:
        return 0
    # The child's mover wins (odd) or loses (even) with the child-th ply from the child.
    return -(WIN - 1 - child) if child & 1 else WIN - 1 - child


def check_hint(table: Endgames, engine: Engine, st: tuple) -> None:
    """The hint of a solved position: every destination's words say its exact outcome, and
    its grade is right: a win good; with a win to be had, a move with no result risky; with
    none, such a move good; a loss losing."""
    pos = Engine.position(st)
    view = SeatView.from_view(ClassicReferee(str(pos)).view("red" if st[5] == 0 else "blue"))
    hint = hint_table(view, nodes=20_000)
    best: dict[tuple[str, str], int] = {}
    for mv, child in move_values(table, engine, st):
        if mv[1] < 0:
            continue        # a pass: no pawn to lift
        key = (square_name(mv[1]), square_name(mv[2]))
        best[key] = max(best.get(key, -WIN), mover_score(child))
    top = max(best.values(), default=0)
    for (frm, to), score in best.items():
        plies = WIN - abs(score)
        words = ("no forced win" if score == 0 else
                 f"wins in {(plies + 1) // 2}" if score > 0 else f"loses in {plies // 2}")
        assert hint.exact[frm][to] == words, (str(pos), frm, to)
        grade = ("good" if score > 0 else "losing" if score < 0 else "risky" if top > 0 else "good")
        assert hint[frm][to] == grade, (str(pos), frm, to)
    assert set(hint) == {frm for frm, _ in best}


def state(table: Endgames, i: int) -> tuple:
    """The search state (both side stacks) of index ``i``."""
    st = table.layout.state(i)
    return search_state(Engine.position(st))

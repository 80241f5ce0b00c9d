"""Shared by the AI benchmarks: playing one game between two agents, and Elo from a score."""

from __future__ import annotations

import math
from typing import Callable

from companion.ai.view import SeatView
from companion.rules.ways import new_referee

Agent = Callable[[SeatView], str]


def play(variant: str, seed: int, red: Agent, blue: Agent, *, max_plies: int = 200) -> tuple[str | None, int]:
    """(winner seat or None, plies) of one game; each agent sees only its seat's view."""
    ref = new_referee(variant, seed=seed)
    agents = {"red": red, "blue": blue}
    while ref.result is None and len(ref.log) < max_plies:
        seat = ref.to_act()[0]
        ref.act(seat, agents[seat](SeatView.from_view(ref.view(seat))))
    return (None if ref.result is None else ref.result.winner), len(ref.log)


def elo(points: float, games: int) -> tuple[float, float, float]:
    """Elo difference for ``points`` of ``games`` (a draw half a point), with a 95 % interval
    from the score's binomial standard error."""
    def diff(p: float) -> float:
        p = min(max(p, 0.5 / games), 1 - 0.5 / games)
        return 400 * math.log10(p / (1 - p))
    p = points / games
    se = math.sqrt(max(p * (1 - p), 0.25 / games) / games)
    return diff(p), diff(p - 1.96 * se), diff(p + 1.96 * se)

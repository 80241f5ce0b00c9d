"""Levels of play. Each is a search budget (depth, seconds, nodes) and a deliberate
imprecision: the six lower levels draw their move from a softmax over the root moves'
scores, so they prefer good moves without always finding the best (``keen`` at a low
temperature, on an uncapped depth); ``strong``, ``advanced`` and ``expert`` play the best
move of a principal variation search on a fraction of ``hard``'s budget (their imprecision
is their horizon). ``docs/benchmarks.md`` ("Levels") has the match results that calibrate
them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TypeVar

from .search import WON, Limits


_Choice = TypeVar("_Choice")   # a search move, or a Light & Shadow action


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    depth: int
    seconds: float | None
    nodes: int | None
    temperature: float      # softmax temperature in hundredths of a student; 0: always the best

    def limits(self, *, seconds: float | None = None, nodes: int | None = None) -> Limits:
        """This level's budget. ``nodes`` replaces the clock (a match at a node budget is
        repeatable, one at a time budget is not); ``seconds`` sets the open-ended level's
        time. A level's own caps stay: they are part of what makes it weaker."""
        if nodes is not None:
            return Limits(self.depth, None, min(nodes, self.nodes) if self.nodes else nodes)
        if seconds is not None and self.nodes is None:
            return Limits(self.depth, seconds, None)
        return Limits(self.depth, self.seconds, self.nodes)

    def pick(self, scored: list[tuple[_Choice, int]], rng: random.Random) -> _Choice:
        """A root move from ``(move, score)`` pairs: the best at temperature 0, else drawn
        with probability ``exp((score - best) / temperature)``; a forced win is never
        passed over, and a move that loses by force is chosen only when all do."""
        best = max(s for _, s in scored)
        if self.temperature <= 0 or best >= WON:
            return next(m for m, s in scored if s == best)
        pool = [(m, s) for m, s in scored if s > -WON] or scored
        weights = [math.exp(max(-50.0, (s - best) / self.temperature)) for _, s in pool]
        return rng.choices([m for m, _ in pool], weights)[0]


LEVELS = {lv.name: lv for lv in (
    Level("easy", 3, 0.05, 3_000, 60.0),
    Level("casual", 3, 0.05, 3_000, 35.0),
    Level("medium", 3, 0.05, 3_000, 18.0),
    Level("solid", 4, 0.1, 6_000, 14.0),
    Level("club", 4, 0.2, 10_000, 6.0),
    Level("keen", 64, 0.1, 6_000, 1.5),
    Level("strong", 64, 0.1, 8_000, 0.0),
    Level("advanced", 64, 0.15, 13_000, 0.0),
    Level("expert", 64, 0.35, 30_000, 0.0),
    Level("hard", 64, 0.5, None, 0.0),
)}
NAMES = tuple(LEVELS)


def level(name: str | Level) -> Level:
    if isinstance(name, Level):
        return name
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r} (known: {', '.join(NAMES)})") from None


"""Per-key debounce as a pure function of samples and time.

A key (a square, a button name) changes in the stable set only after every sample for
``window`` seconds has disagreed with it. A bounce burst or a pawn brushing across a square for
less than the window never shows. Nothing here reads a clock or sleeps: the scan loop feeds it
real time, a trace replay feeds it simulated time, and both get the same answers.

    d = Debouncer(window=0.025)
    d = d.update(sample, t)      # a new Debouncer; d.stable is the debounced set
    d.next_deadline              # when a pending change would land if the samples hold, or None
"""

from __future__ import annotations

from collections.abc import Hashable, Set
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)   # a key: a square (int) or a button name (str)


@dataclass(frozen=True)
class Debouncer(Generic[K]):
    window: float
    stable: frozenset[K] = frozenset()
    # Keys whose samples currently disagree with ``stable``, each with the time of the first
    # sample of the current disagreeing run.
    pending: frozenset[tuple[K, float]] = field(default=frozenset())

    def update(self, sample: Set[K], t: float) -> Debouncer[K]:
        """The state after a sample taken at time ``t`` (times never go backwards)."""
        differing = self.stable.symmetric_difference(sample)
        if not differing and not self.pending:
            return self
        since = dict(self.pending)
        flipped = set()
        pending = set()
        for key in differing:
            first = since.get(key, t)
            # Same expression as next_deadline, so a sample taken at the deadline always lands.
            if t >= first + self.window:
                flipped.add(key)
            else:
                pending.add((key, first))
        return Debouncer(self.window, self.stable.symmetric_difference(flipped), frozenset(pending))

    @property
    def settled(self) -> bool:
        """True when no change is pending: identical samples cannot change anything."""
        return not self.pending

    @property
    def next_deadline(self) -> float | None:
        """The earliest time a pending change lands if its samples hold, or None if settled."""
        if not self.pending:
            return None
        return min(first for _, first in self.pending) + self.window

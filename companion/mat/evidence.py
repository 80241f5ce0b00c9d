"""What the hands showed on the mat: the squares seen emptied and refilled since the evidence was
last reset, which occupancy alone cannot show (companion/mat/readings.py says which turns need
which).

A square counts as emptied when it stayed empty at least ``clear`` seconds (longer than a
brushing hand, shorter than any real lift). Two squares count as emptied *together* when both
were empty at once that long (a swap). A *landing* (s, u) is u refilled after being emptied
while s was empty (the Spirit set down where a pawn just left, after leaving its own square).
Each group is counted, so a reply's capture on a square the turn before it used can be told
from that turn's own hands.
"""

from __future__ import annotations

from collections.abc import Iterable

from .readings import Reading

Group = frozenset[int]


class Evidence:
    def __init__(self, empty: Iterable[int], t: float, clear: float):
        self.clear = clear
        self._empty_since = {sq: t for sq in empty}
        self._seen: dict[Group, int] = {}          # group -> times seen emptied and refilled
        self._landed: set[tuple[int, int]] = set()

    def track(self, t: float, old: frozenset[int], new: frozenset[int]) -> None:
        """The occupancy changed from ``old`` to ``new`` at ``t``."""
        for sq in old - new:
            self._empty_since[sq] = t
        refilled = new - old
        for sq in refilled:
            since = self._empty_since[sq]
            if t - since >= self.clear:
                self._see(frozenset((sq,)))
                self._landed |= {(other, sq) for other in self._empty_since if other != sq}
            for other, other_since in self._empty_since.items():
                if other != sq and t - max(since, other_since) >= self.clear:
                    self._see(frozenset((sq, other)))
        for sq in refilled:
            del self._empty_since[sq]

    def forget(self, t: float) -> None:
        """Start afresh: what happened before ``t`` proves nothing now."""
        self._seen.clear()
        self._landed.clear()
        for sq in self._empty_since:
            self._empty_since[sq] = t

    def groups(self) -> frozenset[Group]:
        return frozenset(self._seen)

    def has(self, groups: frozenset[Group], *, empty_now: frozenset[int] = frozenset(),
            also: frozenset[Group] = frozenset()) -> bool:
        """Were these groups seen emptied? A square in ``empty_now`` counts as emptied alone;
        ``also``: evidence kept from before the last reset."""
        groups = frozenset(g for g in groups if not (len(g) == 1 and g <= empty_now))
        return groups <= self._seen.keys() | also

    def shows(self, r: Reading) -> bool:
        """Has the mat shown the hands ``r`` needs (its groups emptied, its landings)?"""
        return self.has(r.groups) and r.landings <= self._landed

    def shows_after(self, first: Reading, r: Reading) -> bool:
        """The hands of ``r``, a reply to ``first``: a square ``first`` already used must have
        been emptied again since (seen twice)."""
        return (all(self._seen.get(g, 0) >= (2 if g & first.touched else 1) for g in r.groups)
                and r.landings <= self._landed)

    def _see(self, group: Group) -> None:
        self._seen[group] = self._seen.get(group, 0) + 1

"""Pairing misplaced pawns with the squares they belong on: a pure function for the mat's
out-of-sync lights and the phones' hints."""

from __future__ import annotations

from typing import Any, Sequence

from ..rules.squares import square_distance


def pair_up(extra: frozenset[int], missing: frozenset[int]) -> tuple[tuple[int, int], ...]:
    """Pair each pawn standing where none belongs with a square missing one, for the least
    total distance; left-overs stay unpaired (a pawn too many, or one off the mat)."""
    src, dst = sorted(extra), sorted(missing)
    swap = len(src) > len(dst)
    small, large = (dst, src) if swap else (src, dst)
    if not small:
        return ()
    matched: Sequence[tuple[int, int]]
    if len(small) > 8:
        # A mat in that much disorder is being set up again: nearest free square will do.
        matched, free = [], list(large)
        for a in small:
            b = min(free, key=lambda sq: square_distance(a, sq))
            free.remove(b)
            matched.append((a, b))
        return tuple(sorted((b, a) if swap else (a, b) for a, b in matched))
    # Over the squares of the larger side in turn, best[mask] is the least total distance
    # with the smaller side's squares in ``mask`` paired so far (at most 25 x 2^8 steps).
    inf = float("inf")
    full = (1 << len(small)) - 1
    best: dict[int, tuple[float, tuple[Any, ...]]] = {0: (0, ())}
    for b in large:
        nxt = dict(best)
        for mask, (cost, chosen) in best.items():
            for i, a in enumerate(small):
                if not mask >> i & 1:
                    key, value = mask | 1 << i, cost + square_distance(a, b)
                    if value < nxt.get(key, (inf,))[0]:
                        nxt[key] = (value, chosen + ((a, b),))
        best = nxt
    matched = best[full][1]  # reachable: the larger side has a square for each
    return tuple(sorted((b, a) if swap else (a, b) for a, b in matched))

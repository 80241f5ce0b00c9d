"""The maps a prune keeps: every way the hands went that the mat's histories explain at their
least noise, not only the first one found for each history.

``histories.explain`` gives each history one map (the first at its least noise): enough to
read the mat. But the maps of one board that differ only by which piece went where (their
trails and what is in the hand: relabellings) are the same reading to the eye, and only the
next hands tell them apart. Knock 78: Blue's Hornet d3d2 captures a red pawn on d2 while its
hand knocks Red's pawn off e3 and puts it back; that is also the captured pawn set down on
e3 (a pawn like the one e3 lost) with e3's own in the hand, at the same noise. The prune kept
the second only (found first), and when Red moved its e3 pawn on to d3, no map had that pawn
walk e3 -> d3 (the captured pawn's trail went d2 -> e3): nothing was read until the next turn
rested, 4.75 s late.
"""

from __future__ import annotations

from collections.abc import Hashable

from .histories import Explanation, explain
from .pieces import PieceMap, settled
from .victims import GONE


def least_maps(found: list[Explanation], maps: list[PieceMap], now: float,
               since: float) -> list[PieceMap]:
    """The maps of ``maps`` that the cheapest histories of ``found`` (``explain``'s, at
    ``now`` since ``since``) leave at their least noise, each settled (a piece in the hand
    its history did not take is dropped): the maps ``found`` names, and the others of their
    boards those histories explain as cheaply, one for each way the pieces can go on (see
    :func:`_ahead`)."""
    if not found:
        return []
    least = found[0].cost
    named = [e for e in found if e.cost == least]
    out = [settled(e.map, e.node.taken) for e in named]
    ahead = {_ahead(m, since) for m in out}
    ids = {id(e.map) for e in named}
    boards = {e.map.pieces for e in named}
    nodes = [e.node for e in named]
    for m in maps:
        if id(m) in ids or m.cost > least or m.pieces not in boards:
            continue
        cheapest = explain(nodes, [m], now, since)[:1]   # (explain sorts by noise)
        if cheapest and cheapest[0].cost == least:
            kept = settled(m, cheapest[0].node.taken)
            key = _ahead(kept, since)
            if key not in ahead:
                ahead.add(key)
                out.append(kept)
    return out


def _ahead(m: PieceMap, since: float) -> Hashable:
    """What of ``m`` a later reading can tell apart: its board, the live pieces in the hand
    (each with the square it left, and when), and the squares each piece stood on since
    ``since`` (the anchor only moves on). The pieces turns took off for good, and where
    pieces went before ``since``, are no history's business again: maps that differ only
    there are one (knock 76: eight such relabellings of a Hawk's rest, kept, crowded the
    beam until a Bat's Spirit in the hand was no longer read part-way)."""
    live = tuple(e[:3] for e in m.air if e[2] != GONE)
    trails = tuple(None if tr is None else tuple(v for v in tr if v[2] > since)
                   for tr in m.trails)
    return (m.pieces, live, trails)

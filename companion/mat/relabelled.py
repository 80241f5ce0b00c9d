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

from .histories import Explanation, explain
from .pieces import PieceMap, settled


def least_maps(found: list[Explanation], maps: list[PieceMap], now: float,
               since: float) -> list[PieceMap]:
    """The maps of ``maps`` that the cheapest histories of ``found`` (``explain``'s, at
    ``now`` since ``since``) leave at their least noise, each settled (a piece in the hand
    its history did not take is dropped): the maps ``found`` names, and the others of their
    boards those histories explain as cheaply."""
    if not found:
        return []
    least = found[0].cost
    named = [e for e in found if e.cost == least]
    out = [settled(e.map, e.node.taken) for e in named]
    ids = {id(e.map) for e in named}
    boards = {e.map.pieces for e in named}
    nodes = [e.node for e in named]
    for m in maps:
        if id(m) in ids or m.cost > least or m.pieces not in boards:
            continue
        for e in explain(nodes, [m], now, since):
            if e.cost == least:
                out.append(settled(m, e.node.taken))
                break
    return out

"""Hints: how good each destination of a lifted pawn is, for the LEDs.

``hint_scores(view, from_square)`` searches the seat's position once, scoring every root move
with a full window, and grades the moves of the piece on ``from_square`` (a pawn, or the
Wind Spirit) against the best move there is:

- ``good``: a forced win, or within ``RISKY`` of the best move's score;
- ``losing``: a forced loss found, or ``LOSING`` or more below the best;
- ``risky``: in between (and any move that lets a forced win go).

A destination reached with two cards (or with several Spirit steps of a Wind Spirit card)
takes its best grade. Only the seat's view is used; in the hidden modes the scores are the
belief-sampled averages of :mod:`companion.ai.hidden`.
"""

from __future__ import annotations

from companion.rules.squares import square_name
from companion.rules.ways import HIDDEN_SEARCH, WAYS

from .agent import Player
from .search import WON
from .view import SeatView

RISKY = 40      # hundredths of a student below the best move
LOSING = 150


def grade(score: int, best: int) -> str:
    if score >= WON:
        return "good"
    if score <= -WON:
        return "losing"
    if best >= WON:
        return "risky"          # it lets a forced win go
    if score <= best - LOSING:
        return "losing"
    return "good" if score >= best - RISKY else "risky"


def hint_table(view: SeatView, *, nodes: int | None = 20_000,
               seconds: float | None = None) -> dict[str, dict[str, str]]:
    """``{from square name: {destination square name: grade}}`` for every piece the seat
    may move now, from one search (the table computes it once per turn and lights the
    lifted pawn's row); empty when it is not the seat's turn to move a piece."""
    if not isinstance(view, SeatView):
        raise TypeError("hints are computed from a SeatView only")
    if view.seat not in view.to_act or view.phase not in ("move", "ninja"):
        return {}
    player = Player("hard", nodes=nodes, seconds=seconds)
    scored: list[tuple[int, int, int]] = []     # (from, to, score)
    if view.mode in WAYS and WAYS[view.mode].computer == HIDDEN_SEARCH:
        from .hidden import HiddenPlayer
        for action, score in HiddenPlayer(player).scored(view):
            frm = getattr(action, "frm", getattr(action, "from_sq", None))
            to = getattr(action, "to", getattr(action, "to_sq", None))
            if frm is not None and to is not None:
                scored.append((frm, to, score))
    else:
        searcher = player.searcher(view)
        result = searcher.search(player.state(view), player.limits(), root_scores=True)
        for mv, score in result.root:
            frm, to = (mv[1], mv[2]) if mv[1] >= 0 else (mv[3], mv[4])
            if frm >= 0:
                scored.append((frm, to, score))
    if not scored:
        return {}
    best = max(s for _, _, s in scored)
    out: dict[str, dict[str, str]] = {}
    rank = {"good": 2, "risky": 1, "losing": 0}
    for frm, to, score in scored:
        g = grade(score, best)
        row = out.setdefault(square_name(frm), {})
        name = square_name(to)
        if name not in row or rank[g] > rank[row[name]]:
            row[name] = g
    return out


def hint_scores(view: SeatView, from_square: int, *, nodes: int | None = 20_000,
                seconds: float | None = None) -> dict[str, str]:
    """``{destination square name: "good" | "risky" | "losing"}`` for the piece on
    ``from_square``; empty when it has no legal move (or it is not the seat's turn)."""
    return hint_table(view, nodes=nodes, seconds=seconds).get(square_name(from_square), {})

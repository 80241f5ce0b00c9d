"""When the mat showed turns published while the players are asked about the turns after them.
A turn is shown once its pieces landed, and before the next player's hands lift theirs: the
lifts after that time are the next turn's (``window_of``), and the next turn's steps land
after it (``walks.walked``). Dated at the mat's last change, turns the hands went on from are
shown after the steps of the turns that follow them, and no history can walk those again
(snatch 182: Spider b2b1 c2d3 published while Phoenix d3e2, or Phoenix d3c2 and Rabbit c2e2,
were asked; dated at Rabbit's landing, Rabbit's own steps came before the anchor the answer
moved to, and the game's last three turns were never read)."""

from __future__ import annotations

from ..rules.moves import Move


def before_next(paths: list[tuple[Move, ...]], common: int, lifts: list[tuple[float, int]],
                after: float, shown: float | None, changed: float) -> float | None:
    """When the mat showed the first ``common`` turns of ``paths`` (published now; ``shown``
    its time else, None for the mat's last change, ``changed``): if every history goes on
    past them, no later than the hands of the turn
    after them began, in the history whose hands began first (the true one is among them).
    A turn began at the last lift, after ``after`` (when the game as published was shown), of
    a square it leaves (its pawn's, its Spirit's: earlier lifts of that square may be the
    published turns' own hands)."""
    if not paths or any(len(p) <= common for p in paths):
        return shown
    at = changed if shown is None else shown
    began = []
    for p in paths:
        leaves = {sq for sq in (p[common].from_sq, p[common].spirit_from) if sq is not None}
        began += [max((t0 for t0, sq in lifts if sq in leaves and t0 > after), default=at)]
    capped = [t0 - 1e-6 for t0 in began if t0 < at]
    return min(capped) if capped else shown

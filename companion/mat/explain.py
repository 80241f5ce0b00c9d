"""The explanation search: every way the game as recognized can have reached the mat at rest.

A plan is one explanation of the mat: the steps that lead from the game as recognized to it.
("play", r): push r's move (or take the last move back, r being the undo reading);
("amend", r): the last move's mover changed it into r's move (played from the same position).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from .evidence import Evidence
from .readings import Reading
from .turns import Turns
from .window import Window, move_of

PLAY, AMEND = "play", "amend"
Step = tuple[str, Reading]
Plan = tuple[Step, ...]


def offered(options: Mapping[str, list[Plan]]) -> list[Reading]:
    """The turns a standing question offers."""
    return list(dict.fromkeys(plan[0][1] for plans in options.values()
                              for plan in plans if plan[0][0] == PLAY))


def explain(occ: frozenset[int], turns: Turns, window: Window | None, evidence: Evidence,
            firsts: list[Reading], asked: list[Reading]) -> list[Plan]:
    """Every way the game can have reached the mat ``occ`` with the evidence seen: one turn
    (or the takeback), the last move amended by its mover, or a turn not yet committed
    and the reply to it (``firsts``: turns shown or offered; ``asked``: those offered). The
    explanations that account for the most evidence win."""
    plans: list[Plan] = [((PLAY, r),) for r in turns.candidates()
                         if r.occupancy == occ and evidence.shows(r)]
    if window is not None:
        plans += [((AMEND, r),) for r in window.amendments(occ, evidence)]
    # A turn a standing question offers, and the reply to it; when nothing else explains
    # the mat, also a turn the mat showed complete without resting on it.
    for r in firsts if not plans else asked:
        if r.occupancy != occ:
            plans += [((PLAY, r), (PLAY, m)) for m in turns.replies(r)
                      if m.occupancy == occ and evidence.shows_after(r, m)]
    plans = list(dict.fromkeys(plans))
    # An amendment is judged by the evidence it needs beyond what the move showed
    # (amendments come only from an open window).
    extra = window.extra if window is not None else {}
    shown = [frozenset().union(*(extra[r] if kind == AMEND else r.evidence
                                 for kind, r in plan)) for plan in plans]
    return [p for p, e in zip(plans, shown) if not any(e < o for o in shown)]


def amended_then_replied(occ: frozenset[int], window: Window, evidence: Evidence) -> list[Plan]:
    """The last move amended (or amended back) and the opponent's reply to it: the mat a
    reply explains when nothing else does. Hands that fitted an amendment can be the
    opponent's start (a student swapped by the Spirit stands where the Spirit's move could
    have left it); the rest of the reply shows whose they were."""
    return [((AMEND, a), (PLAY, m)) for a in window.readings for m in window.replies(a)
            if m.occupancy == occ and evidence.has(window.needs[a], also=window.seen)
            and evidence.shows_after(a, m)]


def in_progress(occ: frozenset[int], base: frozenset[int], turns: Turns,
                window: Window | None, firsts: list[Reading]) -> bool:
    """A mat part-way through something legal: only lifts, or differences all on squares
    that one legal turn (the takeback, an amendment, a reply to a turn shown) visits, with
    something lifted for whatever was set down (a pawn never comes from nowhere)."""
    if occ <= base:
        return True
    differ = occ ^ base
    if base - occ:
        if any(differ <= r.touched for r in turns.candidates()):
            return True
        if window is not None and any(differ <= r.touched | window.reading.touched
                                      for r in window.readings):
            return True
    for r in firsts:
        d = occ ^ r.occupancy
        if occ <= r.occupancy or (r.occupancy - occ and any(d <= m.touched for m in turns.replies(r))):
            return True
    return False


def _near(step: Step, window: Window | None, readings: Iterable[Reading], turn: int) -> tuple[frozenset[int], int]:
    """The squares where a turn's mover may still be at work, and the mover."""
    kind, r = step
    if kind == AMEND:
        assert window is not None, "an amendment is read only while its window is open"
        return r.touched | window.reading.touched, window.mover
    # Not a square the turn visits, nor one a Wind Spirit card going on from it would.
    move = move_of(r)
    return r.touched.union(*(
        x.touched for x in readings
        if move.spirit_from is None and move_of(x).spirit_from is not None
        and (move_of(x).from_sq, move_of(x).to_sq) == (move.from_sq, move.to_sq))), turn


def ended_by_lift(plans: list[Plan], sq: int, window: Window | None,
                  readings: list[Reading], turn: int) -> bool:
    """Does lifting ``sq`` end the turn the ``plans`` read (fast play): every plan a single
    turn, and the lifted piece the next player's own, away from the mover's squares?"""
    if not plans or not all(len(p) == 1 and p[0][1].move is not None for p in plans):
        return False
    for (step,) in plans:
        near, mover = _near(step, window, readings, turn)
        piece = step[1].pieces[sq]
        if sq in near or piece is None or piece not in ("Bb" if mover == 0 else "Rr") + "W":
            return False
    return True

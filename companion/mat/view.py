"""What the recognizer shows (docs/recognizer.md, "LED grammar"): the LEDs and the OLED from the
record, the question standing, the mat out of sync and the piece maps; and how a mat no
history explains is judged (a piece in the hand, a turn part-way, or out of sync)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..rules.position import COLORS
from .asking import Question
from .destinations import destinations, window_lights
from .explaining import half_made
from .histories import Node, Tree
from .pieces import PieceMap
from .readings import Reading
from .record import Record
from .scene import Feedback, Light
from .scene import lifting_own, mismatch_view, outcome_view, play_oled, prompt_view, stray_step
from .window import move_of, open_window

NEAR = 12   # the nodes a mat out of step is compared with (the anchor, then its turns)


@dataclass(frozen=True)
class MatView:
    """The mat as the hands left it: occupancy, piece maps, the seat waited on, and when out
    of sync the differing squares and the board the pawns are led back to."""
    occ: frozenset[int]
    maps: list[PieceMap]
    waiting: str | None
    mismatch: tuple[frozenset[int], frozenset[int]] | None


def unfinished(tree: Tree, nodes: list[Node], maps: list[PieceMap], occ: frozenset[int],
               lifted: Counter[int], halves: list[Node]) -> str | None:
    """A mat no history leaves: ``"held"`` when pieces are only in the hand (some history's
    pieces, some missing, or a Wind Spirit card of ``halves`` half made with its Spirit in
    the hand: a way the hands went, before any board no way leads to, takeback-wind 74), the
    seat whose turn is part-way when the mat differs from a history only on squares one of
    its next turns visits, else None (out of sync)."""
    if half_made(halves, maps[:NEAR]) is not None:
        return "held"
    for m in maps[:NEAR]:
        standing = frozenset(sq for sq, p in enumerate(m.pieces) if p is not None)
        for n in nodes[:NEAR]:
            if standing <= n.occupancy and all(p is None or p == q
                                               for p, q in zip(m.pieces, n.pieces)):
                return "held"
    for n in nodes[:NEAR]:
        ms = tree.moves_from(n.position)
        if not (ms.over or ms.must_pass or n.over) and ms.visiting(lifted, occ ^ n.occupancy):
            return COLORS[n.position.turn]
    return None


def nearest(occ: frozenset[int], published: frozenset[int], nodes: list[Node]) -> frozenset[int]:
    """The board a mat out of sync is led back to: the game as published, or a history's
    board fewer squares away."""
    best = published
    for n in nodes[:NEAR]:
        if len(n.occupancy ^ occ) < len(best ^ occ):
            best = n.occupancy
    return best


def feedback(record: Record, tree: Tree, question: Question | None, passing: bool,
             view: MatView) -> Feedback:
    pairs: tuple[tuple[int, int], ...] = ()
    stray = None
    board = record.board
    outcome = board.outcome()
    if view.mismatch is not None:
        squares, toward = view.mismatch
        scene, pairs, oled = mismatch_view(squares, view.occ, toward)
        stray = stray_step(squares, view.occ, toward)
    elif question is not None:
        scene, oled = prompt_view(question.prompt, question.squares, passing)
    elif outcome is not None:
        scene, oled = outcome_view(outcome.winner, outcome.how, board.position)
    else:
        scene, oled = _play(record, tree, view)
    if record.flash is not None:
        for sq in record.flash[0]:
            scene[sq] = Light("green", "flash")
    return Feedback(scene, pairs, oled, stray)


def _play(record: Record, tree: Tree, view: MatView) -> tuple[dict[int, Light], tuple[str, ...]]:
    """Play going on: the player to move lifting a pawn of theirs sees its destinations; until
    then a last move still open shows only what its mover may still do."""
    pos = record.position
    base = pos.occupied()
    opened = tuple(move_of(r) for r in record.open)
    end = tree.follow(opened)
    readings = tree.readings(end) if end is not None else []
    window = None
    before = tree.follow(opened[:-1]) if opened else None
    if before is not None:
        window = open_window(record.open[-1], before.position, tree.readings(before))
    hand = pos.hands[pos.turn]

    def shown(r: Reading) -> bool:
        # A Wind Spirit card's pawn step is made when its pawn stands on its square in
        # some map (not while the pawn it captures is still there).
        m = move_of(r)
        piece = pos.piece_at(m.from_sq) if m.from_sq is not None else None
        return any(x.pieces[m.to_sq] == piece for x in view.maps if m.to_sq is not None)

    lifted = base - view.occ
    # The Spirit and the student it swaps with, both in the hand, are the last mover's Wind
    # Spirit card going on, whoever's student it is.
    going_on = window is not None and pos.spirit in lifted and lifted <= window.reading.touched.union(
        *(r.touched for r in window.readings))
    moving = lifting_own(pos, lifted) and not going_on
    lit = dict((not moving and window_lights(window, base, view.occ))
               or destinations(readings, base, view.occ, lambda c: hand.index(c), shown))
    announce = record.announce[0] if record.announce else None
    return lit, play_oled(pos, announce, view.waiting)

"""A chain of fast turns the hands followed, over an amendment of a published turn: when the
mat never rested between fast Spirit moves, ``seen_at_rest`` keeps only the histories whose
turns each end on a board it rested on, and a change to a published turn (no turn after it
to have been seen) passes that test however the hands moved (snatch 8: Cat c3e3 amended to
c3b3 over Cat c3e3, Steer e3d4, Nessie d4e3, Lobster e3d2, Moth d2d3, Nessie d3b3)."""

from __future__ import annotations

from .explaining import agreement, shown_at
from .histories import Explanation, Node
from .undoing import steps
from ..rules.moves import Move


def going_on(found: list[Explanation], seen: list[Explanation], opened: tuple[Move, ...],
             lifts: list[tuple[float, int]], shown: list[float]) -> list[Explanation]:
    """``seen`` (what ``seen_at_rest`` kept of ``found``), or the histories of ``found`` that
    keep a published turn each of ``seen`` changes, at no noise, the Spirit carried from turn
    to turn, whose later turns leave untouched fewer of the squares lifted since that turn was
    shown than each change does: the hands went on from it. Of such chains, those that leave
    the fewest untouched (snatch 46: Nessie c4b3, Goat b3c3, Sasori c3e3 set down on d3 on its
    way, not Nessie c4d3, Goat d3e3 set down on b3 and c3)."""
    if not seen or len(seen) == len(found):
        return seen
    kept = max(agreement(e.node.moves, opened) for e in seen)
    if any(_finishes(e.node.moves, opened) for e in seen):
        return seen
    chains = [e for e in found if e.cost == 0 and agreement(e.node.moves, opened) > kept
              and _carried(e.node.moves, agreement(e.node.moves, opened))]
    if not chains:
        return seen
    return _fewest_missed(chains, seen, opened, kept, lifts, shown) or seen


def _fewest_missed(chains: list[Explanation], seen: list[Explanation], opened: tuple[Move, ...],
                   kept: int, lifts: list[tuple[float, int]],
                   shown: list[float]) -> list[Explanation]:
    """The ``chains`` that leave the fewest of the squares lifted since their first turn was
    shown untouched, if fewer than each change of ``seen`` leaves (else none)."""
    done = min(agreement(e.node.moves, opened) for e in chains)
    after = [sq for t0, sq in lifts if t0 > shown_at(shown, done)]
    fewest = min(len(_missed(e.node, kept, after)) for e in seen)
    missed = [(e, len(_missed(e.node, agreement(e.node.moves, opened), after))) for e in chains]
    least = min(n for _, n in missed)
    return [e for e, n in missed if n == least < fewest]


def _finishes(moves: tuple[Move, ...], opened: tuple[Move, ...]) -> bool:
    """Does the turn ``moves`` put in place of a published one make its steps and more (a
    Wind card's Spirit step after its pawn's, published alone: the mover's hand going on,
    hurried 36's Bat c1c2 a3c4 over Crab c1c2, Phoenix a3c3, Bear c3c4)?"""
    n = agreement(moves, opened)
    return n < min(len(moves), len(opened)) and steps(opened[n]) < steps(moves[n])


def _carried(moves: tuple[Move, ...], kept: int) -> bool:
    """Does each turn of ``moves`` after the first ``kept`` but the first of them lift a piece
    where the turn before it set one down (the Spirit carried on from hand to hand), not a
    piece elsewhere (the hands amending: a captured pawn set aside and put back, then the turn
    made again)? (The first may lift the Spirit where it stood: snatch 26's Turtle c3d2, a
    pawn, then Hornet b1d3, Goat d3c3, Otter c3d2.)"""
    return all({m.from_sq, m.spirit_from} & {p.to_sq, p.spirit_to} - {None}
               for p, m in zip(moves[kept:], moves[kept + 1:]))


def _missed(node: Node, kept: int, lifted: list[int]) -> set[int]:
    """The squares of ``lifted`` that none of ``node``'s turns after its first ``kept``
    touches."""
    squares = {sq for m in node.moves[kept:]
               for sq in (m.from_sq, m.to_sq, m.spirit_from, m.spirit_to)}
    return {sq for sq in lifted if sq not in squares}

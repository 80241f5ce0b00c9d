"""When a turn published from the anchor was taken back: the mat rested on the anchor's
board again, and the hands before that rest were that turn's and its takeback's, no later
turn's (takeback-wind 36); a takeback answered once the hands went on from that rest
(no-answer 190); and the cards named for turns the mat has taken back (no-answer 176)."""

from __future__ import annotations

from ..rules.moves import Move
from .asking import TAKEBACK, Question
from .histories import Tree


def taken_back_at(tree: Tree, opened: tuple[Move, ...], shown: list[float],
                  rested: list[tuple[float, frozenset[int]]], since: float) -> float:
    """When the histories from the anchor step after (``since`` until now), once the first
    published turn ``opened[0]`` is taken back: the last rest on the anchor's board since the
    mat showed that turn, if later.
    Without that, a history that reads the turn and its takeback as two other turns (a
    Spirit moved there and straight back by both players) comes back each time a later turn
    is taken back, though the takeback was read and published (takeback-wind 36: Lion e3d2
    c4c3 taken back, Okija d3b1 played and taken back, read again as Okija c4c3 and Ox c3c4
    over the Lion's own lifts). ``since`` if the turn leaves the board as occupied as the anchor
    (a Spirit swap: a rest there is no takeback), or no such rest."""
    return max([since, *_rests_before(tree, opened, 0, shown, rested)])


def _rests_before(tree: Tree, opened: tuple[Move, ...], k: int, shown: list[float],
                  rested: list[tuple[float, frozenset[int]]]) -> list[float]:
    """The mat's rests on the board before the published turn ``opened[k]`` since it showed
    that turn (none if the turn leaves the board as occupied as before it: a Spirit swap)."""
    before, turn = tree.follow(opened[:k]), tree.follow(opened[:k + 1])
    if k >= min(len(opened), len(shown)) or before is None or turn is None \
            or turn.occupancy == before.occupancy:
        return []
    return [t0 for t0, occ in rested if occ == before.occupancy and t0 > shown[k]]


def still_named(named: list[tuple[tuple[Move, ...], str]], tree: Tree,
                opened: tuple[Move, ...], shown: list[float],
                rested: list[tuple[float, frozenset[int]]]) -> list[tuple[tuple[Move, ...], str]]:
    """The cards ``named`` (the moves before a turn, its card) that still apply: not that of
    a published turn the mat has rested again on the board before since it showed that turn
    (the test of ``taken_back_at``: a Spirit moved straight back by the next player leaves
    another board, and keeps it). A named card names the turn it answered; the hands took
    that turn back, and the turn made in its place is read afresh, though no takeback was
    asked or published yet (no-answer 176: Red's Hawk c1b2 e1c1, asked and answered "Hawk",
    taken back by Red's hands and Rhinoceros e3d4 made in its place, was read as Hawk e3d4,
    the only card left, with no question)."""
    return [(p, c) for p, c in named
            if opened[:len(p)] != p or not _rests_before(tree, opened, len(p), shown, rested)]


def answered_late(q: Question, key: str, tree: Tree, opened: tuple[Move, ...],
                  shown: list[float], rested: list[tuple[float, frozenset[int]]]) -> float | None:
    """A takeback answered after the hands went on: the takeback's rest (the last on the
    anchor's board since the mat showed the turn taken back, ``opened[0]``), when the mat has
    rested on another board since; else None (the mat still shows the takeback, or the
    question asks of a later turn).
    An answer that comes late filters the histories back to the point it answers, and the
    hands since are read from there: the takeback is published at once, as of that rest, and
    the turns made after it are read afresh. Its rule-outs (the turn taken back and a reply
    moving its pieces back, ``answering.other_cards``) are about the hands before that rest;
    kept, they would rule out the same turns made after it (no-answer 190: Blue's takeback of
    Red's Otter c2d1 came once Red had made Iguana c2d1 in its place; Blue's Viper d1c2,
    moving the Spirit back, was then read as Iguana's takeback too, and the game wedged).
    This is the issue's rule ("an answer that comes late filters the histories back to the
    point it answers, and everything played since stands if one history still explains it"):
    the point answered is the takeback's rest, the anchor's board; what was played since (the
    turn made again and its reply) is kept if one history read from there explains it
    (tests/mat/traces/late_takeback_answer_stands_as_of_its_rest_...jsonl)."""
    if key != TAKEBACK or q.depth != 0:
        return None
    back = _rests_before(tree, opened, 0, shown, rested)
    if not back or rested[-1][1] == tree.root.occupancy:
        return None
    return back[-1]

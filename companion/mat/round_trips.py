"""A Spirit moved away and back by the two players leaves the mat as it was: a history that
stops at a turn and one that goes on from it with such a round trip explain one mat, and only
the players can tell them apart (session 42's spirit-back 21: Sheep d2d1, or Sheep d2d1, Dragon
d1c2 and Cobra c2d1; read as the first until the hands went on, 6.4 s late). The turns they
agree on are published at once; the round trip is asked as its last mover made it: its card,
or its first turn taken back (session 44)."""

from __future__ import annotations

from ..rules.moves import Move
from .asking import TAKEBACK, Question, ask
from .explaining import common_prefix
from .histories import Node, Tree


def round_trip(paths: list[tuple[Move, ...]], opened: tuple[Move, ...]) -> bool:
    """Does some history of ``paths`` stop at the last turn they all agree on, not published
    yet (``opened``), while another goes on from it?"""
    common = common_prefix(paths)
    return (common > len(opened) and any(len(p) == common for p in paths)
            and len(set(paths)) > 1)


def trip_question(nodes: list[Node], opened: int, asked: Question | None = None
                  ) -> Question | None:
    """The question for histories ``nodes`` of which the shortest stop where the others go
    on from them with a round trip: asked of the round trip's last mover, as the players see
    it: its card, or the round trip's first turn taken back (the short histories; a card
    answer for a later turn cannot pick them). The turns before are published at once, with
    :func:`shown_then`'s time (``opened``: published turns after the anchor). None when the
    histories are not of that shape (each round trip from the same first turn, by one last
    mover). ``asked``, the question open (asked from the same anchor), stays if it asks
    about the round trip's first turn: its answer, however late, says whether it was made
    (late-answer 142: Red's "Sheep, turn 18" came just after "Sheep" was no longer shown);
    not if it asks of a turn the histories that stop do not make, with no takeback to offer
    them (spirit-back 130: "Crane, or Blue's Sasori or Rabbit?", the twin of a Spirit set
    down a moment on d2; Blue's Rabbit b2c3 then moved the Spirit back, and the round trip is
    asked: "Rabbit, or take back Crane?")."""
    short = min(len(n.moves) for n in nodes)
    stops = {n.moves for n in nodes if len(n.moves) == short}
    trips = [n for n in nodes if len(n.moves) > short]
    # (A round trip is two turns or more: one turn that leaves the mat as it was is a
    # capture set down on its origin, or a swap, asked as any turn is: capture_aside_on_origin_wins.)
    if (short < opened or not trips or any(n.moves[:short] not in stops for n in trips)
            or any(len(n.moves) < short + 2 for n in trips)):
        return None
    firsts = {str(n.moves[short]) for n in trips}
    movers = {n.movers[-1] for n in trips}
    if len(firsts) != 1 or len(movers) != 1:
        return None
    if asked is not None and _stays(asked, trips, short):
        return asked
    # (The round trip's first turn is not published, but taking it back is what the short
    # histories say: offered as a published turn's takeback is, to the same seat.)
    return ask(nodes, short, short + 1, movers.pop(), firsts.pop())


def _stays(asked: Question, trips: list[Node], short: int) -> bool:
    """Does the question open, ``asked``, ask about the first turn of the round trips
    ``trips`` (after ``short`` turns), of a turn the histories that stop make too, or with
    a takeback to offer them?"""
    return (any(n.moves[:short + 1] in ps for n in trips for ps in asked.prefixes.values())
            and (asked.depth < short or TAKEBACK in asked.prefixes))


def ask_apart(nodes: list[Node], common: int, opened: int, turn: int,
              takeback: str | None, asked: Question | None = None,
              anchor: int | None = None) -> Question | None:
    """The question that tells ``nodes`` apart (see :func:`.asking.ask`): a round trip's
    first (:func:`trip_question`). ``asked``: the question open; it counts only if it was
    asked from ``anchor`` (the number of the first turn open), as a round trip since the
    turns the histories agree on is asked as its last mover saw it."""
    here = asked if asked is not None and asked.number - asked.depth == anchor else None
    return trip_question(nodes, opened, here) or ask(nodes, common, opened, turn, takeback)


def which_card_next(paths: list[tuple[Move, ...]], opened: tuple[Move, ...], common: int) -> bool:
    """Do ``paths`` go on from their first ``common`` turns, published now, by one turn each
    on the same squares (its card asked)? Those turns were shown before that turn's hands,
    whose lifts the mat's last change comes after (spirit-back 77: Red's Lobster a2b3
    answered after Blue's Viper b3d3 lifted b3, then Red's Sable d3b3 moved the Spirit back;
    dated at the mat's last change, Viper's lift was before it and the round trip was never
    read). Not for histories of other shapes: a takeback then read as a round trip too
    (no-answer 26)."""
    return (common > len(opened) and all(len(p) == common + 1 for p in paths)
            and len({(p[common].from_sq, p[common].to_sq) for p in paths}) == 1)


def shown_then(tree: Tree, paths: list[tuple[Move, ...]], opened: tuple[Move, ...], common: int,
               mat: tuple[list[tuple[float, frozenset[int]]], list[tuple[float, int]]],
               after: float, shown: float | None) -> float | None:
    """When the mat showed the board of the first ``common`` turns of ``paths``, published
    while a :func:`round_trip` after them, or :func:`which_card_next`, is asked about: its
    first rest there after
    ``after`` (when the game as published was shown), not its last change (the round
    trip's end: the turns after are read from the lifts since that time); else ``shown``.
    ``mat``: its rests and lifts. Not after the round trip began: in fast play the first
    rest on that board is the round trip's end (snatch 164), and the turns after it would
    have no lifts left; then just before the last lift of a square its first turn leaves."""
    asked = round_trip(paths, opened) or which_card_next(paths, opened, common)
    node = tree.follow(paths[0][:common]) if asked else None
    if node is None:
        return shown
    rested, lifts = mat
    first = min((t0 for t0, occ in rested if occ == node.occupancy and t0 > after), default=shown)
    leaves = {sq for p in paths if len(p) > common
              for sq in (p[common].from_sq, p[common].spirit_from) if sq is not None}
    began = max((t0 for t0, sq in lifts if sq in leaves and t0 > after), default=None)
    if began is None or (first is not None and first < began):
        return first
    return began - 1e-6

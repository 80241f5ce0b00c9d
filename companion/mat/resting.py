"""Which histories the mat's rests allow: a turn ends where the next player saw it. The turns
after the game as published must each end on a board the mat rested on since it first rested
on that game; and so must the turns an amendment puts in place of published ones, since the
mat showed the board they go on from (set-down 34: Blue's pawn set down on b4 for 0.7 s, read as
Eagle c5b4 -, then on d4, its Octopus card's Spirit lifted 33 ms later: the mat is that
turn amended, not Eagle c5d4 - and Red's Rabbit moving the Spirit, with no rest between)."""

from __future__ import annotations

from typing import NamedTuple

from ..rules.moves import Move
from .explaining import agreement, between, shown_at
from .glimpses import Rests, glimpses_pass, rested_boards, stood
from .knocks import knocked
from .moment import Moment
from .histories import Explanation, Node, Tree
from .pieces import Pieces
from .record import Record


def seen_at_rest(found: list[Explanation], record: Record, lifts: list[tuple[float, int]],
                 shown: list[float], rested: list[tuple[float, frozenset[int]]],
                 at_once: float, laid: list[tuple[float, frozenset[Pieces]]]) -> list[Explanation]:
    """The histories of ``found`` whose turns each end on a board the mat rested on (the
    next player saw it), or all of them if none does: a history whose turns follow one
    another on boards the mat never rested on is one hand going on, if another says so.
    One board not rested on is let pass where the next player's Spirit step carried the
    Spirit on from it at once (a glimpse, :mod:`.glimpses`: the edges of a set-down on the
    way). Rests count from the first on the game as published (a later one may be a history's end
    on the same board), and before the hands' last lift (after it is the mat now); for the
    turns a history puts in place of published ones, from when the mat showed the last
    published turn it keeps (:func:`replaced_rested`). A board rested on is one some map had
    at a rest (``laid``), pieces and all: the squares filled alone may be a capture's piece
    still in the hand (onlooker 24). Of those, a knock goes before a capture (:func:`knocked`;
    ``at_once``: the recognizer's ``clear``, two lifts this close being one motion of one
    hand)."""
    opened = record.moves_open()
    pieces = {board for _, boards in laid for board in boards}
    boards = rested_boards(record, lifts, shown, rested)
    # (Not while a history replaces a published turn: the Spirit lifted may be its mover's
    # hand going on, hurried 36's Bat c1c2 a3c4 over Crab c1c2, Phoenix a3c3, Bear c3c4.)
    glimpses = all(agreement(e.node.moves, opened) == len(opened) for e in found)
    seen = (record.position.occupied(), stood(lifts, shown, rested), lifts) if glimpses else None
    kept = [e for e in found
            if replaced_rested(e.node, opened, lifts, shown, rested, pieces)
            and _unseen_glimpse(e.node, between(e.node, len(opened)), boards, pieces,
                                seen)]
    kept = kept or found
    if record.pair:
        # The pair's first turn ended on a board the mat never rested on: a history that puts
        # its mover's one turn in its place is one hand going on (set-down 4: Hawk b1a2 a3c4,
        # not Elephant b1a2, Blue's Panda a3b4 and Red's Rooster b4c4).
        kept = [e for e in kept if agreement(e.node.moves, opened) < len(opened) - 1] or kept
    return knocked(kept, lifts, at_once, opened, shown)


def glimpse_only(seen: list[Explanation], record: Record, lifts: list[tuple[float, int]],
                 shown: list[float], rested: Rests,
                 laid: list[tuple[float, frozenset[Pieces]]]) -> list[Twin]:
    """The histories of ``seen`` (what :func:`seen_at_rest` kept) that pass through a board
    the mat did not rest on: kept only as glimpses (the twins of a Spirit set down a moment
    on its way, :func:`rested_reading`), each with how many such boards it passes."""
    opened = len(record.moves_open())
    pieces = {board for _, boards in laid for board in boards}
    boards = rested_boards(record, lifts, shown, rested)
    out = []
    for e in seen:
        unseen = _unseen(between(e.node, opened), boards, pieces)
        if unseen:
            out.append(Twin(e.node, len(unseen)))
    return out


class Twin(NamedTuple):
    """A history kept only as glimpses, and how many boards it passes that the mat did not
    rest on (its glimpses: two or more are a chain)."""
    node: Node
    glimpses: int


def _unseen(passed: list[Node], boards: set[frozenset[int]], pieces: set[Pieces]) -> list[Node]:
    """The boards of ``passed`` the mat did not rest on, pieces and all."""
    return [n for n in passed if n.occupancy not in boards or n.pieces not in pieces]


def _unseen_glimpse(node: Node, passed: list[Node], boards: set[frozenset[int]],
                    pieces: set[Pieces],
                    seen: tuple[frozenset[int], Rests, list[tuple[float, int]]] | None) -> bool:
    """Did the mat rest on each board ``node`` passes through (``passed``), pieces and all,
    but those that (if ``seen``: the board as published and the boards stood on since) are
    glimpses (:func:`.glimpses.glimpses_pass`)?"""
    unseen = _unseen(passed, boards, pieces)
    if not unseen:
        return True
    return seen is not None and glimpses_pass(node, passed, unseen, *seen)


def replaced_rested(node: Node, opened: tuple[Move, ...], lifts: list[tuple[float, int]],
                    shown: list[float], rested: list[tuple[float, frozenset[int]]],
                    pieces: set[Pieces]) -> bool:
    """Do the turns ``node`` puts in place of the published ``opened`` each end on a board the
    mat rested on after it showed the last published turn ``node`` keeps (``shown``; since
    the anchor if it keeps none), before the hands' last lift? A turn published and rested
    on, then read otherwise, counts its own rests (captured_pawn_set_aside_read_as_amendment_
    then_back: Monkey e4d3 amended to Turtle e4c4, then back to Monkey with Red's reply);
    only those since the last shown board (``rested_ends``) would drop it. Only a history
    that moves the published turn's own piece on (an amendment: the hand that made it going
    on) is held so; one that puts another piece's turn in its place takes it back, which the
    players are asked about (spirit-back 36). ``pieces``: the maps' boards at the rests."""
    kept = agreement(node.moves, opened)
    if kept in (len(opened), len(node.moves)) or node.moves[kept].from_sq != opened[kept].from_sq:
        return True   # (nothing put in place of a published turn, or another piece's turn)
    last_lift = max((t0 for t0, _ in lifts), default=float("-inf"))
    since = shown_at(shown, kept)
    boards = {occ for t0, occ in rested if since < t0 < last_lift}
    return all(n.occupancy in boards and n.pieces in pieces for n in between(node, kept))


def unseen_first(tree: Tree, pair: tuple[Move, ...], rested: list[tuple[float, frozenset[int]]],
                 shown: float | None) -> bool:
    """Published at a rest (``shown`` None: not at the next player's lift, which proves the
    turns before it done, nor at an answer), do the last two turns of ``pair`` (from the
    anchor) read a reply that moved the Spirit alone, nobody's piece, after a turn that ends on
    a board the mat did not rest on since the anchor's move was shown (``rested``)? Then the
    hands that went on may be the first turn's mover's (a piece set down for a moment where it
    does not end, read as the next player's reply, story 6): the two stay open
    (:attr:`.record.Record.pair`). Not a turn the mat rested on: read or asked about there, the
    next hands went on from it (spirit-back 34), or read back to it (set-down 146: its
    amendment was the next player's Spirit step). Not a reply that lifted a piece of the next
    player's: that proves it started (snatch 62: such a pair, amended at a later lift, was a
    commit before rest)."""
    node = tree.follow(pair[:-1])
    if shown is not None or node is None or len(pair) < 2:
        return False
    reply = pair[-1]
    lifts = {sq for sq in (reply.from_sq, reply.spirit_from) if sq is not None}
    return (lifts == {node.position.spirit}
            and all(occ != node.occupancy for _, occ in rested))


def rested_reading(found: list[Node], twins: list[Twin], opened: tuple[Move, ...],
                   moment: Moment | None = None) -> list[Node] | None:
    """The histories of ``found`` to publish at a rest before the others are asked about,
    if any: beside ``twins`` (kept only as glimpses), those the mat rested on at each turn's
    end, when they read one game a turn or more past the published one (``opened``). It is
    published at its rest as if no twin were there, and the twins are only asked about: an
    answer that names a twin's card amends it, and with no answer it stands (a later rest
    that the twins need a glimpse to reach drops them). A twin nobody answers never holds
    the record (spirit-back 113: Boar c3b3, its Spirit set down 0.17 s on c4, asked "Boar,
    or Red's Crane?" and left open, took Blue's "Mantis" meant for turn 24; spirit-back 55,
    90: the twin open, then the Spirit moved straight back; 159: five turns held). Else
    the one hand of a Spirit's ``moment``, beside its two players' turns, if the others read one
    game: those are only asked about, an answer that names the reply's card reads them (knock
    86), and with no answer the one hand stands (set-down 66: nobody made a reply, nobody
    answers)."""
    lead = _one_game_beside(found, [t.node for t in twins])
    rested = _rested_lead(lead, twins, opened) if lead else None
    return rested or (_one_game_beside(found, moment.two) if moment is not None else None)


def _one_game_beside(found: list[Node], aside: list[Node]) -> list[Node] | None:
    """The histories of ``found`` but those ``aside`` (only asked about), if some are aside
    and the others read one game."""
    ids = {id(n) for n in aside}
    lead = [n for n in found if id(n) not in ids]
    return lead if lead and len(lead) < len(found) and len({n.moves for n in lead}) == 1 else None


def _rested_lead(lead: list[Node], twins: list[Twin], opened: tuple[Move, ...]
                 ) -> list[Node] | None:
    """``lead`` (one game), unless it publishes nothing new, or the twins are not one turn
    set down on its way."""
    moves = lead[0].moves
    # Not when every twin goes on from it: that is published with the twins asked about, as
    # a round trip is, shown before their lifts (snatch 60's Fox c4d4, then Dog d4e5 and
    # Turtle e5d4 or Sea-Snake e5d4). Nor beside a chain of glimpses, a twin that passes two
    # boards or more the mat did not rest on (snatch 36's Spider e5d4 c3b2, Centipede b2a2,
    # Sasori a2c2, each Spirit stop 0.2 s, over Spider e5d4 c3c2): the hands made it and go
    # on from it, and a turn published before its lifts would hide them from its turns.
    # A twin longer by turns the mat rested on is one glimpse still (set-down 128: Mouse
    # b4c4, its Spirit a moment on d4 and 0.47 s back on c3, over Turtle b4d4, Phoenix d4c3,
    # Mouse c3c4: held, "Turtle or Mouse?" unanswered, the anchor stayed turns behind and a
    # pawn set down on c2 was read as the twin's cousin, Turtle b4d4, Phoenix d5c4, Mouse
    # c1c2, published whole).
    # And only a twin of its last turn: one that puts other turns in place of those before
    # it would be lost once they stand (spirit-back 162: Hawk b2a3 e3c3 and Whale c3c2 read
    # over Hawk b2a3 e3c4, Whale c4c3, Butterfly c3c2, its Spirit a moment on c4; 76).
    if (all(t.node.moves[:len(moves)] == moves for t in twins)
            or any(t.glimpses > 1 or t.node.moves[:len(moves) - 1] != moves[:-1]
                   for t in twins)):
        return None
    return lead if len(moves) > len(opened) and moves[:len(opened)] == opened else None

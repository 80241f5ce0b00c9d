"""Fast replies that begin on the turn before them (issue 21's story 4): the next player's
first lift is of a piece that turn placed, or of one they capture, not of their own. Whose
hand it is the switches cannot say (the mover may be amending), so the turn ends only when the
next player lifts a piece of their own away from it (``Recognizer._snatched``)."""

from __future__ import annotations

from .explaining import fast_squares, near
from .histories import Node, Tree
from .pieces import PIECES
from .record import Record
from .window import move_of


def snatches(node: Node, lifted: frozenset[int]) -> bool:
    """Is ``lifted`` a pawn (or master) the last turn of ``node`` placed: the next player's
    capture begun, or the mover's hand amending?"""
    return any(node.pieces[sq] not in (None, "W") for sq in lifted & node.steps[-1].touched)


def spirit_snatch(node: Node, lifted: frozenset[int]) -> bool:
    """Is ``lifted`` the Spirit the last turn of ``node`` placed: the next player's Spirit
    move begun, or the mover's hand still at work (a slide, a Wind card's Spirit step)?"""
    return any(node.pieces[sq] == "W" for sq in lifted & node.steps[-1].touched)


def chained(chain: list[Node], node: Node, lifted: frozenset[int],
            mine: list[int]) -> list[Node]:
    """``chain`` and ``node``, the whole turn the mat showed, if ``lifted`` (no square of
    it ``mine``, the end of that turn) is a piece its last turn placed: the Spirit (the next
    player's Spirit move begun, hurried 30) or a pawn of its mover's (their capture begun,
    snatch 30: a chain of Spirit moves the last rest read as one hand's, then a turn only the
    chain allows, whose pawn the next player lifts at once), or that turn's mover still at
    work."""
    if (mine or not (spirit_snatch(node, lifted) or _placed_by_mover(node, lifted))
            or any(c is node for c in chain)):
        return chain
    return chain + [node]


def _placed_by_mover(node: Node, lifted: frozenset[int]) -> bool:
    """Is ``lifted`` a pawn (or master) of the last mover's that its last turn placed? (Not
    the next player's own student a Spirit swap placed: hurried 0.)"""
    movers = PIECES[1 - node.position.turn]
    return any(node.pieces[sq] in movers for sq in lifted & node.steps[-1].touched)


def captures(tree: Tree, node: Node, lifted: frozenset[int]) -> bool:
    """Is ``lifted`` a piece the next player after ``node`` may capture (their capture begun,
    the captured piece first: hurried 6), or the last mover's hand amending?"""
    return any(node.pieces[sq] not in (None, "W")
               and any(m.to_sq == sq for m in tree.moves_from(node.position).moves)
               for sq in lifted)


def amending(tree: Tree, node: Node) -> frozenset[int]:
    """The squares the last mover of ``node`` could move the piece it moved to instead
    (its other turns from the same square), but a student of the next player's that such a
    turn's Spirit would swap with (a lift there is the next player's: hurried 6)."""
    move, parent = move_of(node.steps[-1]), node.parent
    if parent is None:
        return frozenset()
    theirs = PIECES[node.position.turn]
    return frozenset(sq for m in tree.moves_from(parent.position).moves
                     if m.from_sq == move.from_sq
                     for sq in (m.to_sq, m.spirit_from, m.spirit_to) if sq is not None
                     and (sq == m.to_sq or node.pieces[sq] not in theirs))


def snatch_of(tree: Tree, record: Record, explained: list[Node], node: Node,
              lifted: frozenset[int], mine: list[int],
              lifts: tuple[list[tuple[float, int]], float, float]
              ) -> dict[int, tuple[Node, float]] | None:
    """Is ``lifted`` (none of it the next player's own pieces away from the turn, ``mine``)
    a snatch after the whole turn ``node`` the mat showed: of a pawn that turn placed, or of
    a piece the next player may capture (hurried 6: the captured piece lifted first)? None if
    not, else the turns that are over with it, by square of ``lifted``: for a pawn the turn
    placed, those before it (see ``turns_before``; the mover may be amending the turn); for a
    captured piece, the turn itself, unless its mover could have moved there instead or is
    still at work there (``amending``, ``near``). Not of what an
    amendment placed (aside-empty 25: a captured pawn set aside where its own turn could
    have gone is that turn amended; its lift is the mover's hand going on), nor of a turn
    that settles what the histories at the last rest (``explained``) do not agree on
    (no-answer 11: a pawn set down for a moment read as a turn that only one card allows)."""
    opened = record.moves_open()
    if mine or node.moves[:len(opened)] != opened or not all(
            x.moves[:len(node.moves)] == node.moves[:len(x.moves)] for x in explained):
        return None
    if snatches(node, lifted):
        return {sq: over for over in turns_before(node, record, *lifts) for sq in lifted}
    if not captures(tree, node, lifted):
        return None
    # A piece of the mover's that it could not have moved onto instead is the next player's
    # capture begun, not the mover amending: the turn is over with it (hurried 5, the
    # captured master lifted 0.14 s after the turn landed, the capturing piece 0.57 s later).
    # (Not a student of the next player's own that their Spirit could swap with: late-answer
    # 26, the mover's hands taking the turn back.)
    theirs = PIECES[node.position.turn]
    return {sq: (node, lifts[2]) for sq in lifted - amending(tree, node) - near(tree, node)
            if node.pieces[sq] not in theirs and captures(tree, node, frozenset((sq,)))}


def turns_before(node: Node, record: Record, lifts: list[tuple[float, int]], shown_at: float,
                 t: float) -> list[tuple[Node, float]]:
    """The turns before the last of ``node``, if more than those published and whole: a
    whole turn followed them on the mat (story 4). With when the mat last showed them: at
    the first lift of that last turn's squares after ``shown_at`` (else ``t``)."""
    over = node.parent
    if over is None or over.pending is not None or len(over.moves) <= len(record.open):
        return []
    return [(over, min((t0 for t0, sq in lifts if t0 > shown_at and sq in node.steps[-1].touched),
                       default=t))]


def snatch_ends(tree: Tree, node: Node, midway: list[Node], lifted: frozenset[int]) -> set[int]:
    """The squares of ``lifted`` that end ``node`` after a snatch: the next player's own
    pieces away from its last turn, and from where its mover could amend it to (a capture:
    takeback 2)."""
    return set(fast_squares(tree, node, midway, lifted)) - amending(tree, node)


def split_in_two(explained: list[Node], unseen: list[Node]) -> tuple[Node, ...]:
    """The histories of ``unseen`` with one turn more than one of ``explained``: a turn read
    as one hand's split in two, the next player's after it (a Spirit snatched; a slide over
    two squares read as three Spirit moves is not: slides 32)."""
    turns = {len(n.moves) + 1 for n in explained}
    return tuple(n for n in unseen if len(n.moves) in turns)

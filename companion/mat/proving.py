"""What a lift of the next player's proves (rule 7): that they started (``proves_start``, the
one check every publication at a lift passes, ``Recognizer._fast_lift``; a rest needs none),
and which turns it ends (``kept_at_lift``).

A lift ends a turn only if it is a piece the next player may move and the last mover may not
still be handling. The Spirit is nobody's piece: while a history replaces published turns (an
amendment, a takeback), their mover may be at work on them, and the Spirit lifted from where
the published turns left it may be in the mover's hand (takeback-wind 150: a Wind Spirit
card's turn taken back, its pawn home first, then its Spirit lifted to go back; with that
square empty the mat is the turn amended, and the lift read as the next player's ended it).
Such a reading waits for the mat's rest. (Not the Spirit where the history alone has it: that
is often the next player's hand carrying it on, hurried 146.)

A lift proves here what it proves for the amend window (``starting.starts``: the next player
started). Not a lift made at once after a lift of a piece that is not theirs: one motion of
one hand, the mover's (knock 132: Blue's hand lifts the Spirit again and knocks Red's c2 70 ms
later, read as Red's reply to Octopus c4d3 c3d3, a Spirit swap the mat cannot see). And not,
after a turn read as a capture, a lift where the capturing piece could have gone instead:
that "capture" may be a neighbour knocked and put back, the piece still in the mover's hand,
about to take the piece it lands on (story 7; knock 105, 119: the mover's lift of its victim
read as the next player's start), if the victim came off at once with the mover's lift, as
the amend window asks (``starting.knocked_off``), here over ``KNOCK_SPAN`` clears: as debounced,
knock 108's knock came 90 ms after the lift, over one. (Asked of every capture, it made real
fast replies that start there wait for their rest: hurried 122 wedged, 136 and 154 late.)"""

from __future__ import annotations

from .explaining import agreement
from .histories import Explanation, Node, Tree
from .knocking import KNOCK_SPAN
from .pieces import PIECES, PieceMaps
from .record import Record
from .starting import knocked_off
from .window import move_of


def proves_start(node: Node, record: Record, sq: int, occupied: frozenset[int],
                 lifts: list[tuple[float, int]], at_once: float, tree: Tree) -> bool:
    """Is a lift of ``sq`` (still off the mat: ``occupied`` is the mat's squares) proof that
    the player to move after ``node`` started (``record``: the turns published; ``lifts``:
    when each square was lifted; ``at_once``: two lifts this close are one hand's)?"""
    if sq in occupied:
        return False   # (put back: a brush)
    if (with_another(node, sq, lifts, at_once)
            or instead_of_capture(tree, node, sq, lifts, KNOCK_SPAN * at_once)):
        return False
    opened = record.moves_open()
    if agreement(node.moves, opened) == len(opened):
        return True   # (the history keeps every published turn: plain fast play)
    return record.position.piece_at(sq) != "W"


def shown_whole(maps: PieceMaps, fitting: set[int], node: Node, mine: list[int],
                lifted: frozenset[int], occupied: frozenset[int],
                lifts: list[tuple[float, int]], t: float, record: Record, tree: Tree) -> None:
    """The mat showed ``node``'s turn whole, and the next player lifted ``lifted`` from it at
    ``t`` (not yet in ``lifts``; ``occupied``: the mat before), ``mine`` of them their own
    pieces: fast play, which never rests. If that lift proves, once it lasts, that they
    started, the ``maps`` no history explains (``fitting``: those some history does) pay as at
    a rest on the turn (``PieceMaps.rested``, ``ended``): fast 60, maps that put the Spirit
    where no turn did stayed cheapest and crowded the hands' map out of the beam. Not for a
    lift that may be the mover's own hand (knock 105)."""
    now = lifts + [(t, sq) for sq in lifted]
    if any(proves_start(node, record, sq, occupied - lifted, now, maps.clear, tree)
           for sq in mine):
        maps.rested(fitting, node.taken, ended=True)


def kept_at_lift(found: list[Explanation], unseen: list[Node], record: Record) -> list[Node]:
    """The histories a lift of the next player's ends: those of ``found``, unless its one
    history amends (or takes back) a published turn while others as cheap, which only the
    mat's rests put after it (``unseen``), keep every published turn: then those (rule 4: of
    the histories, the one that changes least of what was published stands). Both end at the
    next player's start, so it proves no amendment: fast 74, Blue's Octopus c5d4 b3c4, Red's
    Mouse moving the Spirit straight back and Blue's Serow d4c4 0.32 s later, no rest between,
    read at Red's lift as Octopus amended to Serow c5c4 (the rests' preference: one hand going
    on), published before rest, then wedged."""
    nodes = [e.node for e in found]
    opened = record.moves_open()
    if len({id(n) for n in nodes}) != 1 or agreement(nodes[0].moves, opened) == len(opened):
        return nodes
    return [n for n in unseen if agreement(n.moves, opened) == len(opened)] or nodes


def with_another(node: Node, sq: int, lifts: list[tuple[float, int]], at_once: float) -> bool:
    """Was the last lift of ``sq`` made at once after a lift of a square where ``node`` has
    no piece of the next player's (the mover's piece, the Spirit, or a square its turns
    emptied): one motion of one hand, the mover's? (Not a lift after it: by the time ``sq``'s
    lift proves real that one may be a brush still, fast 12: the next player's hand brushing
    the piece just moved as it lifts its own.)"""
    when = max((t0 for t0, s in lifts if s == sq), default=None)
    theirs = PIECES[node.position.turn]
    return when is not None and any(0 <= when - t0 < at_once for t0, s in lifts
                                    if s != sq and node.pieces[s] not in theirs)


def instead_of_capture(tree: Tree, node: Node, sq: int, lifts: list[tuple[float, int]],
                       at_once: float) -> bool:
    """Is ``node``'s last turn a capture (by a pawn or master) whose victim came off at once
    with the mover's own lift (``starting.knocked_off``: it may be a knock), and ``sq`` a
    square its piece could have gone to instead from the same square?"""
    parent = node.parent
    if parent is None or not node.steps or node.pending is not None:
        return False
    move = move_of(node.steps[-1])
    if (move.from_sq is None or move.to_sq is None or parent.pieces[move.from_sq] == "W"
            or not knocked_off(move, parent.pieces, lifts, at_once)):
        return False
    return any(m.from_sq == move.from_sq and m.to_sq == sq
               for m in tree.moves_from(parent.position).moves)

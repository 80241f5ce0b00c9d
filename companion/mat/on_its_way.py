"""A Wind Spirit card part-way whose Spirit, set down off its square a moment ago, is still in
the hand on its way (issue 21 story 9), and when a rest read part-way is read again: such a
reading holds only while a piece set down may be aside (``sides.ASIDE_S``)."""

from __future__ import annotations

from ..rules.moves import Move
from .explaining import agreement, rested_ends
from .growth import after_step
from .histories import ASIDE, Explanation, Node, Tree, cheapest
from .pieces import PieceMaps, Pieces
from .record import Record


def on_its_way(every: list[Explanation], found: list[Explanation], record: Record,
               lifts: list[tuple[float, int]], shown: list[float],
               rested: list[tuple[float, frozenset[int]]]) -> list[Explanation]:
    """The Wind Spirit cards part-way about as likely as the whole readings ``found`` (their
    Spirit set down on its way for a moment: ``ASIDE``), cheapest first, when each of those
    passes a board the mat never rested on (:func:`rested_ends`, the turns they put in place
    of published ones too) and is the same turns, the card's pawn step as a turn of its own,
    then one more turn; else ``found``. A Spirit set down on its way is then not the next
    player's Spirit move made in the same breath (story 9). Such a reading lasts only while
    the Spirit may be on its way (its ``aside``: the mat is looked at again then)."""
    if (not found or any(e.node.pending is not None for e in found)
            or rested_ends(found, record, lifts, shown, rested, amended=True)):
        return found
    return cheapest([e for e in every if e.node.pending is not None
                     and e.cost <= found[0].cost + ASIDE
                     and all(_step_then_one(e.node, w.node) for w in found)],
                    found[0].cost) or found


def whole_first(found: list[Explanation], asked: int | None = None) -> list[Explanation]:
    """The whole readings of ``found``, if any: a Wind Spirit card part-way explains the mat
    only while nothing whole does as cheaply (then the mover's hands are at work). Not over
    a part-way reading that the whole ones all leave first at the turn still asked about
    (``asked``: its index from the anchor), by another card, and go on past: the mat does
    not tell that turn, the mover's hands may be at work, and both are kept (no-answer 16,
    40, 58, 124, 160: "Hawk or Dog?" open for Red's d3c4, Red's Hawk c4b5 c3e3 rested on
    its pawn step, which with Dog in Red's hand is Dog c4b5, whole: Hawk d3c4 was
    published). Only there: a whole reading that leaves it at a turn not asked about (knock
    18: Frog d2c3 for Sheep twelve turns on) settles it as before; and only where the whole
    reading makes the pawn step with the card the part-way one played at that turn: the
    mat does not tell at which of the two turns that card was played. A whole reading that
    makes it with a card of its own (its card asked about, passed back: spirit-back 185's
    Phoenix b4a5, then Phoenix a2b1) settles it as before. Nor over one that the whole ones
    all leave first at the turn asked about by the same card, its Spirit elsewhere, reading
    fewer turns (the Spirit snatched on from hand to hand, or set down on its way: snatch
    116's Bat d3d4 b1c2, Ox c2c3, Rat c3d2, then Blue's Bat a5a4 d2e1 part-way, or Bat
    d3d4 b1d2 and Blue's Ox a5a4 whole): the mat does not tell how far that Spirit went."""
    if all(e.node.pending is not None for e in found):
        return found
    whole = [e.node.moves for e in found if e.node.pending is None]
    return [e for e in found if e.node.pending is None
            or (asked is not None
                and all(asked in (_apart_at(e.node, w), _spirit_apart(e.node, w))
                        for w in whole))]


def held_open(found: list[Explanation], record: Record) -> tuple[list[Explanation], list[Node]]:
    """A rest read whole and part-way (:func:`whole_first` kept both): the whole readings, to
    publish at the rest, and the turns before each part-way one's pawn step, to keep explained
    beside them. The mat cannot tell them apart there (spirit-back 161: "Crane or Steer?" open
    for Red's b2c1, the whole Steer b2c1, Cat d3d2, Crane a2a3 is the truth; no-answer 40: the
    same mat, the truth Viper e3d4, Serow b1b2, Bat d4d3 c3e2, its Spirit step after a pause).
    The mat as it rests is a turn whole, so it is published; but the turns from the one asked
    about stay open until the next publication (``record.hold``), so the Spirit step, if it
    comes, reads the part-way history again, the turn asked about as it was (the record
    amends back to it, or asks again); else the next player's turn, published, closes it."""
    half = [e for e in found if e.node.pending is not None]
    whole = [e for e in found if e.node.pending is None]
    record.hold = None
    if not half or not whole:
        return found, []
    at = (_apart_at(e.node, w.node.moves) for e in half for w in whole)
    record.hold = min((k for k in at if k is not None), default=None)
    parents = [e.node.parent for e in half if e.node.parent is not None]
    return whole, list({id(n): n for n in parents}.values())


def amends_back(paths: list[tuple[Move, ...]], common: int, record: Record) -> bool:
    """Do all the histories ``paths`` change the turns :func:`held_open` kept open the same
    way (their first ``common`` turns replace a published one)? Those turns are published at
    once, the rest asked about (no-answer 40: Blue's "Viper" for e3d4, after Bat d4d3 c3e2's
    Spirit step, publishes Viper e3d4 and Serow b1b2 in place of Turtle e3d4, Serow b1b2 and
    Viper d4d3: the reading published at the pawn step's rest)."""
    opened = record.moves_open()
    return (record.held is not None and bool(paths)
            and agreement(paths[0][:common], opened) < min(common, len(opened)))


def _apart_at(half: Node, moves: tuple[Move, ...]) -> int | None:
    """The first turn where whole reading ``moves`` plays another card than part-way reading
    ``half`` (the same squares), going on to make ``half``'s pawn step with the card ``half``
    played there; None if it is ``half``'s own (shorter: a takeback or an amendment of its
    turns), or differs otherwise."""
    turns, step = half.moves, half.pending
    if step is None or len(moves) <= len(turns):
        return None
    k = next((i for i, (a, b) in enumerate(zip(turns, moves)) if a != b), None)
    if k is None or not _same_squares(turns[k], moves[k]):
        return None
    made = moves[len(turns)]
    return k if _same_squares(step, made) and made.card == turns[k].card else None


def _spirit_apart(half: Node, moves: tuple[Move, ...]) -> int | None:
    """The first turn where whole reading ``moves`` plays the card part-way reading ``half``
    played there with its Spirit to another square, having read fewer turns since; None if
    it differs otherwise."""
    turns = half.moves
    k = next((i for i, (a, b) in enumerate(zip(turns, moves)) if a != b), None)
    if k is None or len(moves) >= len(turns) or turns[k].card != moves[k].card:
        return None
    return k if turns[k].spirit_to != moves[k].spirit_to else None


def _same_squares(a: Move, b: Move) -> bool:
    return (a.from_sq, a.to_sq) == (b.from_sq, b.to_sq)


def whole(maps: PieceMaps, tree: Tree, record: Record) -> None:
    """The turns that stand now were declared away from the mat (``Recognizer.declared``),
    whole: the maps with nothing in the hand that read the game as published otherwise (a
    Wind Spirit card's pawn step with its Spirit still on its square, where the card's Spirit
    step swapped it with that pawn) rest where no history puts them. Else such a map, free,
    reads the opponent's swap of that Spirit and pawn made next as the card's own Spirit
    step, and the mat says nothing (the robot's wind2 computer 7: Blue's Mantis b3c2 after
    the computer's Spider a2b3 c2b3, both pieces set down in one scan)."""
    node = tree.follow(record.moves_open())
    if node is not None:
        maps.rested({id(m) for m in maps.maps if m.pieces == node.pieces})


def look_again(found: list[Explanation], due: float | None) -> float | None:
    """When to read the mat again (``due``: already set), if the readings ``found`` hold
    only while a piece set down in them may be aside, or a Spirit on its way (story 9: a
    rest left part-way without a look is left "waiting for the rest of the turn")."""
    ends = [e.aside for e in found if e.aside is not None]
    return max(ends) if ends else due


def _step_then_one(half: Node, whole: Node) -> bool:
    """Is ``whole`` the turns of ``half``, then its Wind card's pawn step as a turn, then one
    more turn?"""
    k, card = len(half.moves), half.pending
    assert card is not None
    return (len(whole.moves) == k + 2 and whole.moves[:k] == half.moves
            and (whole.moves[k].from_sq, whole.moves[k].to_sq) == (card.from_sq, card.to_sq))


def part_way(found: list[Explanation]) -> Pieces | None:
    """The board of the first history ``found`` with its last turn, a Wind Spirit card's with
    a Spirit step, part-way: its pawn step made, the Spirit where it stood. A hand may stop
    between the two steps, and the mat read the turn whole meanwhile (knock 18: Rhinoceros
    c2b3 with the Spirit knocked off b2 and put back, read as the Spirit swapped onto b3;
    the Spirit's step to d2 then amends it, which only the maps with the Spirit on b2 read)."""
    node = found[0].node if found else None
    move = node.moves[-1] if node is not None and node.moves else None
    if node is None or node.parent is None or move is None or not move.wind_card:
        return None
    f, t = move.from_sq, move.to_sq
    if f is None or t is None or move.spirit_from is None:
        return None
    return after_step(node.parent.pieces, f, t)

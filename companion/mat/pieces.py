"""The noise model: every way the hands can have moved the pieces, given the switch edges.

A presence mat sees squares, not pieces, but a piece only leaves a square it stood on and
only lands from the air. So each edge is replayed on *piece maps*: what stands on each square
(``R r B b W``) and what is in the air, with the square each piece in the air came from. A
lift is certain (the piece on that square goes up); a placement is a choice among the pieces
in the air, and each choice is one map. That one model covers the noise hands make:

- a piece in the air for any time: it stays in the air;
- a piece set down for a moment where it does not end: it lands, and leaves again;
- a neighbour knocked off its switch and put back: it goes up and comes down on its square
  (free, once the piece whose lift knocked it moved: ``knocking``);
- bounce and brushes: a square refilled within ``clear`` seconds gets back the piece it lost
  (a brush never swaps pieces; a capture or a swap needs a real lift).

Maps are ranked by the noise they need: a piece set back where it was lifted from costs
``PUT_BACK`` (two pieces lifted and each put back is a fidget; swapped, a move: the move is
the likelier reading), a captured piece put on the mat again ``DEAD``. The set is a beam:
equal maps merge at their least noise, the ``BEAM`` cheapest are kept.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .expecting import Expected, expected_of, unexpected
from .expecting import Pieces as Pieces   # (the home of the alias every module imports from here)
from .expecting import InAir, Trail as Trail, Visit as Visit
from .knocking import KNOCK_SPAN, Lift, knocked_by, moved
from .landing import PUT_BACK as PUT_BACK, landing_cost
from .victims import GONE, alike_again, captured_first, victim

Trails = tuple[Trail | None, ...]           # each square's piece's trail
NOW = float("inf")                          # ``until`` of the square a piece stands on
Air = tuple[InAir, ...]                     # the pieces in the hand
Held = tuple[Pieces, int]   # the board before a turn, and the square it lifted its first piece off

# Each seat's pieces (red 0, blue 1), master first. A tuple, not "Rr": an empty square's
# None is simply no one's.
PIECES: tuple[tuple[str, str], tuple[str, str]] = (("R", "r"), ("B", "b"))

# A map no history explains at a rest on a turn (published, or a Wind Spirit card's part-way):
# its pieces rested where no turn puts them (set down on the way, seen by the whole rest). More
# than a piece put back: the robot's hands put the Spirit back for a moment in the same scan
# as its pawn step landed (wind1 102, wind5 104), and the labels that swap the two read a
# pawn set down where the Spirit was, then moved back, at no noise.
RESTED = 2
FOREIGN = 20      # a piece from nowhere (more pieces on the mat than the game has)
BEAM = 32         # maps kept
WIDTH = 8         # ... no more noise than this above the cheapest
TRAIL = 16        # the squares a trail remembers (a few turns' worth of set-downs)


def trails_of(pieces: Pieces) -> Trails:
    """Every piece standing where it is, since before anything the trails know of."""
    return tuple(((sq, float("-inf"), NOW),) if p is not None else None
                 for sq, p in enumerate(pieces))


@dataclass(frozen=True, slots=True)
class PieceMap:
    """One way the hands went: the pieces on the mat, the pieces in the air, the noise, and
    the squares each piece stood on (its trail: a history must have moved it along them)."""
    pieces: Pieces
    air: Air
    cost: int
    trails: Trails
    # The squares whose piece this map put back (``PUT_BACK`` paid) while no other live piece
    # in the hand could have landed there, nor was put back while it was in the hand, since
    # the mat last rested on a reading (``PieceMaps.settle``): lifted again, the piece was
    # only set down on its way.
    back: frozenset[int] = frozenset()
    paid: float = GONE   # when this map last paid ``PUT_BACK`` for a piece put back
    knock: float = GONE  # when it last put a knocked piece back free (``knocking.moved``)

    def costing(self, cost: int) -> "PieceMap":
        """This map at noise ``cost`` (every other field carried: ``rested`` once dropped
        ``back``, and robot 81 was read part-way)."""
        return PieceMap(self.pieces, self.air, cost, self.trails, self.back, self.paid,
                        self.knock)

    def flying(self, air: Air) -> "PieceMap":
        """This map with ``air`` in the hand, every other field carried."""
        return PieceMap(self.pieces, air, self.cost, self.trails, self.back, self.paid,
                        self.knock)

    def lifted(self, sq: int, t: float) -> "PieceMap":
        """The piece on ``sq`` goes up. One this map put back there (``back``) and now lifted
        again was set down for a moment on its way, as on any other square: its ``PUT_BACK``
        is refunded (robot 81: the Spirit set on its own square for 0.13 s, then moved on)."""
        piece, trail = self.pieces[sq], self.trails[sq]
        if piece is None or trail is None:
            return self   # a switch opening under no piece of this map: nothing to track
        pieces = self.pieces[:sq] + (None,) + self.pieces[sq + 1:]
        trails = self.trails[:sq] + (None,) + self.trails[sq + 1:]
        left = trail[:-1] + ((sq, trail[-1][1], t),)
        air = tuple(sorted(self.air + ((piece, sq, t, left),)))
        if sq in self.back:
            return PieceMap(pieces, air, self.cost - PUT_BACK, trails, self.back - {sq},
                            self.paid, self.knock)
        return PieceMap(pieces, air, self.cost, trails, self.back, self.paid, self.knock)

    def placed(self, sq: int, brushed: bool, t: float, knocked: bool = False) -> list["PieceMap"]:
        """Every piece in the air that can have landed on ``sq``. ``brushed``: the square was
        empty for less than a real lift, so it gets back the piece it lost (``knocked``: free)."""
        out = []
        # Only a live piece comes back to its square: one a standing turn took off from
        # here is dead, and a brush never revives it.
        # A brush gives back the piece the square lost last: a piece lifted from it earlier
        # (one a capture there took off) comes back only after a real lift, at a put-back.
        # Nor is a piece like that one's ("alike") a put-back's likelihood: the square lost
        # another piece since (onlooker 66, fast 60: a pawn capturing where a pawn like it was
        # captured the turn before is the capture, free).
        lost = [since for _, origin, since, _ in self.air if origin == sq and since != GONE]
        last = max(lost, default=None)
        returning = {p for p, origin, since, _ in self.air
                     if origin == sq and since != GONE and since == last}
        landings = self._landings(sq, brushed, returning, last, knocked)
        # A put-back is refunded if lifted again only when no other live piece in the hand
        # could have landed there, and none was put back while it was in the hand: two pieces
        # each put back, or swapped, is what ``PUT_BACK`` tells apart (snatch 4; hurried 6: a
        # pawn put back while a pawn like it, lifted with it, could land there too).
        alone = not any(not back and self.air[i][2] != GONE for i, _, back in landings)
        out = [self._landed(i, sq, t, cost, back and not (brushed or knocked),
                            alone and self.air[i][2] > self.paid, back and knocked)
               for i, cost, back in landings]
        if not out:
            pieces = self.pieces[:sq] + ("?",) + self.pieces[sq + 1:]
            trails = self.trails[:sq] + (((sq, t, NOW),),) + self.trails[sq + 1:]
            out.append(PieceMap(pieces, self.air, self.cost + FOREIGN, trails, self.back,
                                self.paid, self.knock))
        return out

    def _landings(self, sq: int, brushed: bool, returning: set[str],
                  last: float | None, knocked: bool = False) -> list[tuple[int, int, bool]]:
        """The pieces in the air (by index) that can land on ``sq``, with the noise of each
        and whether it lands back where it was lifted (``last``: when the piece ``sq`` lost
        last was lifted, if it is in the air: a capture's victim landing there in its place
        is put on the mat again, ``DEAD``: see ``victims``). Of two alike pieces lifted off
        one square, one lands (``alike_again``): the second if the first was captured there."""
        out = []
        first = captured_first(self.air, zip(self.pieces, self.trails))
        for i, (piece, origin, since, _) in enumerate(self.air):
            back = origin == sq and since != GONE and (since == last or not brushed)
            if i in first or (alike_again(self.air, i) and not (brushed and back)
                              and i - 1 not in first):
                continue
            cost = landing_cost(back, piece in returning and not back,
                                brushed or (knocked and back), bool(returning), since == GONE
                                or (last is not None and not back
                                    and victim(self.pieces, piece, origin)))
            if cost is not None:
                out.append((i, cost, back))
        return out

    def _landed(self, i: int, sq: int, t: float, cost: int, put_back: bool,
                alone: bool, knock: bool = False) -> "PieceMap":
        """The map with the ``i``-th piece in the air landed on ``sq`` at ``t`` (``put_back``
        where it was lifted, at ``PUT_BACK``; ``alone``: where no other live piece could have
        landed, and none was put back while it was in the air: see ``back``; ``knock``: put
        back free, knocked, and its ``knock`` time is ``t``)."""
        piece, _, _, trail = self.air[i]
        pieces = self.pieces[:sq] + (piece,) + self.pieces[sq + 1:]
        if trail and trail[-1][0] == sq:
            moved = trail[:-1] + ((sq, trail[-1][1], NOW),)   # back where it was
        else:
            moved = (trail + ((sq, t, NOW),))[-TRAIL:]
        trails = self.trails[:sq] + (moved,) + self.trails[sq + 1:]
        air = self.air[:i] + self.air[i + 1:]
        if not put_back:
            return PieceMap(pieces, air, self.cost + cost, trails, self.back, self.paid,
                            t if knock else self.knock)
        back = self.back | {sq} if alone else self.back
        return PieceMap(pieces, air, self.cost + cost, trails, back, t, self.knock)

    def in_air(self) -> Counter[str]:
        """The pieces in the air that count: not those a standing turn took off."""
        return Counter([piece for piece, _, since, _ in self.air if since != GONE])

    def surplus(self, taken: tuple[str, ...]) -> dict[str, int]:
        """The pieces in the air that count, less ``taken``, by piece: ``in_air() -
        Counter(taken)`` without its three Counters (asked of every map at every rest)."""
        out: dict[str, int] = {}
        for piece, _, since, _ in self.air:
            if since != GONE:
                out[piece] = out.get(piece, 0) + 1
        if not out:
            return out
        for piece in taken:
            if piece in out:
                out[piece] -= 1
        return {piece: n for piece, n in out.items() if n > 0}


def _at_work(m: PieceMap, taken: tuple[str, ...]) -> bool:
    """Has ``m`` a piece in the hand that no history took, whose square is empty: a hand at
    work, that may still put it back (knock 22: a knocked pawn off its switch)? One whose
    square another piece filled is no hand at work but a relabelling: onlooker 94's brushed
    red pawn "lifted" as Blue's pawn "landed" there, held in the hand at no noise through
    every rest, until no map was left with the pieces where the hands had put them."""
    surplus = m.surplus(taken)
    return bool(surplus) and any(m.pieces[o] is None for p, o, since, _ in m.air
                                 if since != GONE and o >= 0 and p in surplus)


def settled(m: PieceMap, taken: tuple[str, ...], before: float = NOW) -> PieceMap:
    """``m`` once a history that took ``taken`` off explains it, after a long rest: a piece in
    the air the history did not take is one the maps lost track of (its noise is paid), and
    it is dropped, so that it never lands later as a piece from nowhere at no cost. Only
    pieces lifted ``before`` (the next player's first lift, in fast play) may be dropped."""
    surplus = m.surplus(taken)
    if not surplus:
        return m
    air = []
    for entry in sorted(m.air, key=lambda e: -e[2]):   # the latest lifts are the lost ones
        piece, _, since, _ = entry
        if since != GONE and since < before and surplus.get(piece, 0) > 0:
            surplus[piece] -= 1
            continue
        air.append(entry)
    return m.flying(tuple(sorted(air)))


def _stood(m: PieceMap) -> PieceMap:
    """``m`` once the mat rested on a reading: its put-backs stood, and a later lift of such a
    piece is a new move of it, not a set-down on its way (``back`` forgotten)."""
    return PieceMap(m.pieces, m.air, m.cost, m.trails, frozenset(), m.paid,
                    m.knock) if m.back else m


def holding(maps: list[PieceMap], held: Held | None) -> list[PieceMap]:
    """The maps in which a turn is not made yet: the piece it lifted first (``held``: the
    board before the turn, and that square) is still in the hand, every other piece where it
    stood before the turn. Air-touch 8: Blue holds its pawn while Red lifts and re-seats a
    pawn Blue's could capture; that is the capture made, at one put-back less, and when
    Blue's pawn lands elsewhere only such a map reads the turn played. The piece is held
    wherever the hand set it down for a moment since (its trail went by ``origin``, not only
    left it last): onlooker 29, Blue's pawn lifted off b4 hovers over a4 for 90 ms while an
    onlooker's brush of c3 reads as its capture there, and lands on b3 4 s later."""
    if held is None:
        return []
    before, origin = held
    pieces = before[:origin] + (None,) + before[origin + 1:]
    return [m for m in maps if m.pieces == pieces
            and any(p == before[origin] and since != GONE and any(v[0] == origin for v in trail)
                    for p, _, since, trail in m.air)]


class PieceMaps:
    """The beam of maps of where the pieces are, fed the mat's edges."""

    def __init__(self, pieces: Pieces, t: float, clear: float, taken: tuple[str, ...] = (),
                 trails: Trails | None = None,
                 laid: list[tuple[float, frozenset[Pieces]]] | None = None):
        self.clear = clear
        # The maps' boards at each rest since the anchor (``lay``): the pieces a history's
        # turn puts down must have rested so, not only its squares filled (onlooker 24).
        self.laid: list[tuple[float, frozenset[Pieces]]] = list(laid or [])
        # ``taken``: pieces off the mat that a turn not yet standing took (they may come back).
        # ``trails``: how the pieces came there, if known (a history read from the board).
        air = tuple(sorted((p, -1, t, ()) for p in taken))
        self.maps: list[PieceMap] = [PieceMap(pieces, air, 0, trails or trails_of(pieces))]
        self._emptied: dict[int, float] = {}
        # A square knocked off: the lifts that may have knocked it, and when it came off.
        self._knocked: dict[int, tuple[frozenset[Lift], float]] = {}
        # The pieces each square may hold in the game as published, or after a turn the hands
        # may be making from it: of maps that need as little noise, those that agree with them
        # are kept first (a cut at ``BEAM`` must drop neither the truth for a relabelling no
        # edge has asked for, nor a capture's or a swap's true labels for the pieces put back).
        self.expected: Expected = expected_of([pieces])

    def change(self, t: float, before: frozenset[int], after: frozenset[int]) -> None:
        """The occupancy went from ``before`` to ``after`` at ``t``: lifts first (a piece
        must be in the air to land), then placements."""
        maps = self.maps
        for sq in sorted(before - after):
            by = knocked_by(self._emptied, sq, t, KNOCK_SPAN * self.clear)
            if by:
                self._knocked[sq] = by, t
            self._emptied[sq] = t
            maps = [m.lifted(sq, t) for m in maps]
        # (Knocked squares last: a knocker may land in the scan its neighbour comes back.)
        for sq in sorted(after - before, key=lambda sq: (sq in self._knocked, sq)):
            brushed = t - self._emptied.pop(sq, float("-inf")) < self.clear
            by, knock = self._knocked.pop(sq, (frozenset(), t))
            # (Free where the knocking piece moved: see ``knocking``.)
            maps = [n for m in maps for n in m.placed(
                sq, brushed, t, bool(by) and moved(by, knock, t, m.trails, m.air))]
        self.maps = _beam(maps, self.expected)

    def lay(self, t: float) -> None:
        """The mat rests at ``t`` on the maps' boards."""
        self.laid.append((t, frozenset(m.pieces for m in self.maps)))

    def forget(self, cut: float) -> None:
        """The rests up to ``cut`` are before the anchor."""
        self.laid = [(t0, boards) for t0, boards in self.laid if t0 > cut]

    def keep(self, maps: list[PieceMap], held: Held | None = None,
             part_way: Pieces | None = None) -> None:
        """Only ``maps`` go on: the mat rested in what they explain long enough that the
        other ways the hands might have gone no longer count; but those of the maps that
        still hold the piece of ``held`` (see :func:`holding`), or stand on the board
        ``part_way`` (a Wind Spirit card's turn read whole, its Spirit step yet to come:
        see ``on_its_way.part_way``), at one put-back more do."""
        if maps:
            least = min(m.cost for m in maps)
            more = holding(self.maps, held) + [m for m in self.maps if m.pieces == part_way]
            self.maps = _beam(list(maps) + [m for m in more if m.cost <= least + PUT_BACK],
                              self.expected)

    def settle(self, explained: dict[int, tuple[str, ...]], before: float = NOW,
               others: tuple[str, ...] | None = None, held: Held | None = None) -> None:
        """The maps the resting mat's histories explain (by ``id``, with what each history
        took off) lose the pieces in the air those histories did not take (see
        :func:`settled`); the others lose those ``others`` (what the history published
        took off) did not, if given, else stay as they are, as do those that hold the piece
        of ``held``."""
        keep = {id(m) for m in holding(self.maps, held)}
        self.maps = _beam([_stood(settled(m, explained[id(m)], before) if id(m) in explained
                                  else m if others is None or id(m) in keep
                                  else settled(m, others, before))
                           for m in self.maps], self.expected)

    def rested(self, explained: set[int], taken: tuple[str, ...] = (), ended: bool = False
               ) -> None:
        """The mat rested on a turn (whole, or a Wind Spirit card's part-way) that the maps
        ``explained`` (by ``id``) show: the others pay ``RESTED``, their pieces resting where
        no history puts them, unless a hand is at work (``_at_work``). The pieces that
        turn's history took off (``taken``) are off the mat, not in a hand (the table robot's
        wind3 103: a map that read the turn's pawn and Spirit swapped rested free beside the
        captured pieces, and a swap made next was read as both put back). ``ended``: the next
        player went on from the turn at once (fast play): a piece in the hand is no hand at
        work on it then."""
        self.maps = sorted((m if id(m) in explained or (_at_work(m, taken) and not ended) else
                            m.costing(m.cost + RESTED)
                            for m in self.maps), key=lambda m: m.cost)   # the same maps

    def bury(self, piece: str, square: int) -> None:
        """``piece``, taken off ``square`` by a turn that now stands, is off for good: in
        each map that has it in the air, putting it on the mat again is noise."""
        out = []
        for m in self.maps:
            air = list(m.air)
            live = [i for i, (p, _, since, _) in enumerate(air) if p == piece and since != GONE]
            live.sort(key=lambda i: air[i][1] != square)   # the one from its square first
            if live:
                _, origin, _, trail = air[live[0]]
                air[live[0]] = (piece, origin, GONE, trail)
            out.append(m.flying(tuple(sorted(air))))
        self.maps = out

    @property
    def least(self) -> int:
        return self.maps[0].cost


def _beam(maps: list[PieceMap], expected: Expected) -> list[PieceMap]:
    """Equal maps merged at their least noise, the cheapest ``BEAM`` kept, cheapest first
    (among equals, those whose pieces stand where the game may have them: ``expected``),
    their noise counted from the cheapest."""
    # Keyed without the trails, compared only among maps alike otherwise: hashing every
    # map's trails was most of an edge's time, and maps made from one map share most of
    # their trails (``==`` on tuples skips the items they share).
    best: dict[tuple[Pieces, tuple[tuple[str, int], ...]], list[int]] = {}
    order: list[PieceMap] = []   # (the first of each, at its least noise)
    for m in maps:
        alike = best.setdefault((m.pieces, tuple(e[:2] for e in m.air)), [])
        for i in alike:
            if order[i].trails == m.trails:
                if m.cost < order[i].cost:
                    order[i] = m
                break
        else:
            alike.append(len(order))
            order.append(m)
    if not order:
        return order
    # Ranked by noise, then by the squares unexpected: only maps that can be kept (no
    # noisier than the BEAM-th, within WIDTH of the cheapest) have those squares counted (a
    # map's 25 squares at every edge were a third of the beam's time).
    order.sort(key=lambda m: m.cost)
    least = order[0].cost
    cut = least + WIDTH if len(order) <= BEAM else min(least + WIDTH, order[BEAM - 1].cost)
    kept = sorted((m for m in order if m.cost <= cut),
                  key=lambda m: (m.cost, unexpected(m.pieces, expected)))[:BEAM]
    return [m.costing(m.cost - least) for m in kept] if least else kept

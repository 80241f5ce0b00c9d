"""A knock as the piece maps see it (issue 21 story 7): the hand that lifts a piece to move it
knocks a neighbour off its switch at once, carries its own piece to where it goes, then puts
the neighbour back. That put-back is no noise: the hand made it, not the player's mind.

What makes it a knock is what the hand does, not only how soon the neighbour came off
(``KNOCK_SPAN`` clears of the lift): the robot's hand lifts two pieces 1-30 ms apart too (a
Wind card's pawn and Spirit, a swap's two pieces, a capture's pawn and victim). A knocked
neighbour is put back free only in a map where the piece whose lift knocked it has *moved*:
lifted, and landed on another square than the one it left, after the neighbour came off and
before it came back (the hand lifts its piece, knocks, carries, sets down, then puts back). A
swap's two pieces are in the hand together (the knocker is in the air at the put-back), and a
two-piece lift put down as it was (robot-hesitation 12: Octopus's Spirit b4 and the pawn on b5
lifted in one scan, set down in one scan, the Spirit read as put back on b4) moved nothing:
both are fidgets at ``PUT_BACK`` each, as any two pieces each put back."""

from __future__ import annotations

from ..rules.squares import square_distance
from .expecting import InAir, Trail

KNOCK_SPAN = 2    # a neighbour off within this many ``clear``s of a lift: knocked, put back free
Lift = tuple[int, float]   # a square emptied, and when


def knocked_by(emptied: dict[int, float], sq: int, t: float, span: float) -> frozenset[Lift]:
    """The lifts (of neighbours of ``sq``, up to ``span`` seconds before ``t``) that may
    have knocked the piece off ``sq`` at ``t`` (knock 94's d2, 11 ms after c1)."""
    return frozenset((s, t0) for s, t0 in emptied.items()
                     if s != sq and 0 <= t - t0 <= span and square_distance(s, sq) == 1)


def moved(by: frozenset[Lift], knock: float, now: float, trails: tuple[Trail | None, ...],
          air: tuple[InAir, ...]) -> bool:
    """Has a piece lifted off one of ``by``'s squares at its time landed on another square
    after the ``knock`` (when the neighbour came off) and by ``now`` (the put-back), in
    the map of ``trails`` (on the mat) and ``air`` (in the hand)? Its trail then has that
    visit, left at that time, and a next one begun between. (Put back where it was, its visit
    is open again, the lift's time gone; still in the hand, the visit is its trail's last.)
    Landed in the scan it was lifted in, before the neighbour came off, it was not carried
    by the hand that knocked (robot-hesitation 12: the Spirit read as lifted off b4 onto b3 in
    one scan, the pawn the robot lifted with it off b5 10 ms later read as knocked). Landed in
    the scan the neighbour comes back in (``PieceMaps.change`` places knocked squares last),
    it may have been set down first (knock 122: Blue's master lands on c5 2.6 ms before b5's
    pawn is back, one scan as debounced); the robot's swap sets its two pieces down in one
    instant too, but each on the other's square: the knocker never lands elsewhere then."""
    return any((v[0], v[2]) in by and knock < w[1] <= now
               for trail in [*trails, *(entry[3] for entry in air)] if trail
               for v, w in zip(trail, trail[1:]))

"""What a turn does to the mat: the occupancy a presence sensor sees afterwards, and the
evidence a hand must leave when occupancy alone cannot show the turn.

A presence sensor sees squares, not pieces. Most turns change occupancy in a way only they
explain. Where a square ends occupied but holds another piece (a captured pawn replaced by its
captor, the Wind Spirit and a student swapping places, the Spirit landing where a pawn just
left), the turn leaves the same occupancy as doing nothing there: such a square must have been
seen empty. A swap is one physical act on two squares, so its two squares must have been empty
*together*, which a student lifted and set back and then the Spirit lifted and set back
never are; and the square the Spirit lands on where a pawn just left must be refilled while
the Spirit's own square is empty (a *landing*). Each requirement is a *group* of squares that must have been empty at the same time.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import Any, Iterable, TypeVar

from ..rules.moves import Move
from ..rules.position import Position

Pieces = tuple[str | None, ...]
T = TypeVar("T")


# The small sets of squares readings and histories keep (the squares a turn visits, the
# groups it needs seen empty, the squares it lifts off) are few: each is kept once, and the
# empty one is shared. A frozenset is a new object each time it is made, and each kept is one
# more object the cyclic collector scans in every pass it survives, inside the call that
# triggers it (the readings live as long as their position's turns are known:
# docs/recognizer-hypotheses.md, session 37).
EMPTY: frozenset[Any] = frozenset()
_KEPT: dict[frozenset[Any], frozenset[Any]] = {}


def shared(items: Iterable[T]) -> frozenset[T]:
    """``frozenset(items)``, one object for equal sets (only small sets: a few squares)."""
    made = frozenset(items)
    return _KEPT.setdefault(made, made) if made else EMPTY


@dataclass(frozen=True, slots=True)
class Reading:
    """One way the mat can come to rest: a legal turn, or undoing the last one (``move`` None
    and ``undo`` set)."""
    move: Move | None
    pieces: Pieces                       # what stands where afterwards (R r B b W or None)
    occupancy: frozenset[int]
    groups: frozenset[frozenset[int]]    # squares that must have been seen empty together
    touched: frozenset[int]              # every square the turn's hands may visit
    midway: frozenset[int] | None = None  # a Wind Spirit card: occupancy after the pawn step
    midway_groups: frozenset[frozenset[int]] = EMPTY
    undo: Move | None = None
    landings: frozenset[tuple[int, int]] = EMPTY  # (s, u): u refilled while s was empty

    @property
    def card(self) -> str | None:
        return self.move.card if self.move is not None else None

    @property
    def evidence(self) -> frozenset[int]:
        """Every square this reading needs to have been seen empty."""
        return frozenset().union(*self.groups)

    @property
    def midway_evidence(self) -> frozenset[int]:
        return frozenset().union(*self.midway_groups)


def pieces_of(pos: Position) -> Pieces:
    return tuple(pos.piece_at(sq) for sq in range(25))


def occupancy_of(pieces: Pieces) -> frozenset[int]:
    # (A piece is a letter, never empty: the squares whose piece is true.)
    return frozenset(compress(range(len(pieces)), pieces))


def read_move(pos: Position, move: Move, before: Pieces | None = None) -> Reading:
    """The reading of a legal ``move`` from ``pos`` (a pass changes nothing on the mat);
    ``before``: ``pos``'s pieces, if known."""
    before = pieces_of(pos) if before is None else before
    board = list(before)
    groups: set[frozenset[int]] = set()
    landings: set[tuple[int, int]] = set()
    touched: set[int] = set()
    pawn_step = move.from_sq is not None and (move.wind_card or move.from_sq != pos.spirit)
    if pawn_step:
        f, t = move.from_sq, move.to_sq
        assert f is not None and t is not None, "a step's squares come in pairs"
        if board[t] is not None:
            groups.add(shared((t,)))   # a capture: the captured pawn must be seen to leave
        board[t], board[f] = board[f], None
        touched |= {f, t}
    midway = occupancy_of(tuple(board)) if move.wind_card and pawn_step else None
    midway_groups = shared(groups)
    spirit: tuple[int | None, int | None] | None
    if move.wind_card:
        spirit = (move.spirit_from, move.spirit_to) if move.spirit_from is not None else None
    elif not pawn_step and not move.is_pass:
        spirit = (move.from_sq, move.to_sq)
    else:
        spirit = None
    if spirit is not None:
        s, u = spirit
        assert s is not None and u is not None, "a step's squares come in pairs"
        if board[u] is not None:
            groups.add(shared((s, u)))  # a swap: both squares empty at once
            board[s], board[u] = board[u], "W"
        else:
            if before[u] is not None:
                # The Spirit lands where a pawn stood this turn: that square must be seen empty,
                # and refilled while the Spirit is off its own square (a pawn lifted and put
                # back before the Spirit moved is no such turn).
                groups.add(shared((u,)))
                landings.add((s, u))
            board[s], board[u] = None, "W"
        touched |= {s, u}
    after = tuple(board)
    return Reading(move, after, occupancy_of(after), shared(groups), shared(touched),
                   midway, midway_groups, landings=shared(landings))


def read_undo(last: Reading, before: Position) -> Reading:
    """Undoing ``last`` (played from ``before``): the same squares, seen the same way."""
    pieces = pieces_of(before)
    return Reading(None, pieces, occupancy_of(pieces), last.groups, last.touched, undo=last.move)

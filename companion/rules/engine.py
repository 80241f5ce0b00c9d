"""The move generator: every legal turn of the main board, fast enough for perft and a
computer opponent on a Pi.

The engine works on a plain tuple seen from the side to move,
``(own, opp, own_master, opp_master, spirit, colour, own_hand, opp_hand, side)``, with pawns
as bitmasks, and on internal moves ``(slot, frm, to, spirit_frm, spirit_to, wins)``: the hand
slot of the card played, the pawn step, the Spirit step (``-1`` where there is none) and
whether the turn ends the game. A regular card moving the Spirit has only a Spirit step; a
pass has neither. :class:`companion.rules.board.Board` wraps this in positions and Move values.
"""

from __future__ import annotations

from .cards import Card, CardTable, Offsets
from .position import BLUE, NO_SQUARE, RED, TEMPLE, Position

Hand = tuple[str, ...]
# (own, opp, own_master, opp_master, spirit, colour, own_hand, opp_hand, side)
State = tuple[int, int, int, int, int, int, Hand, Hand, Hand]
# (slot, frm, to, spirit_frm, spirit_to, wins)
EngineMove = tuple[int, int, int, int, int, bool]
# Per square: the targets of a step and their bits.
Steps = tuple[tuple[tuple[int, int], ...], ...]
# Per square: conditional targets (target, bit, capture).
CondSteps = tuple[tuple[tuple[int, int, bool], ...], ...]
Masks = tuple[int, ...]

FULL = (1 << 25) - 1
ANY, MASTER_ONLY, STUDENT_ONLY = 0, 1, 2
# The opponent's Temple Arch, by the colour of the master that would win on it.
_GOAL = (TEMPLE[BLUE], TEMPLE[RED])


def _targets(offsets: Offsets | None, color: int, sq: int) -> list[int]:
    sign = 1 if color == RED else -1
    file, rank = sq % 5, sq // 5
    out: list[int] = []
    for dx, dy in offsets or ():
        f, r = file + sign * dx, rank + sign * dy
        if 0 <= f < 5 and 0 <= r < 5:
            out.append(r * 5 + f)
    return out


class CardMoves:
    """One card's steps from every square, for one colour, precomputed."""

    __slots__ = ("wind", "simple", "conditional", "master", "student", "spirit", "master_mask", "student_mask",
                 "spirit_mask", "master_cond", "student_cond", "spirit_empty")

    wind: bool
    simple: bool
    conditional: bool
    master: Steps
    student: Steps
    spirit: Steps
    master_mask: Masks
    student_mask: Masks
    spirit_mask: Masks
    master_cond: CondSteps
    student_cond: CondSteps
    spirit_empty: Masks

    def __init__(self, card: Card, color: int):
        def lists(offsets: Offsets | None) -> Steps:
            return tuple(tuple((t, 1 << t) for t in _targets(offsets, color, sq)) for sq in range(25))

        def masks(offsets: Offsets | None) -> Masks:
            return tuple(sum(1 << t for t in _targets(offsets, color, sq)) for sq in range(25))

        def cond(pattern_owner_gets_it: bool) -> CondSteps:
            # Conditional offsets: (target, bit, capture) where capture=False means empty only.
            if not pattern_owner_gets_it:
                return tuple(() for _ in range(25))
            return tuple(tuple([(t, 1 << t, False) for t in _targets(card.move_only, color, sq)]
                               + [(t, 1 << t, True) for t in _targets(card.capture_only, color, sq)])
                         for sq in range(25))

        self.wind = card.is_wind_card
        self.master = lists(card.master_pattern())
        self.student = lists(card.student_pattern())
        self.spirit = lists(card.spirit_pattern())
        self.master_mask = masks(card.master_pattern())
        self.student_mask = masks(card.student_pattern())
        self.spirit_mask = masks(card.spirit_pattern())
        has_cond = bool(card.move_only or card.capture_only)
        self.master_cond = cond(has_cond)
        self.student_cond = cond(has_cond)
        # The Spirit captures nothing, so a capture-only offset never moves it, and a
        # move-only offset moves it to an empty square only (no swap).
        self.spirit_empty = tuple(sum(1 << t for t in _targets(card.move_only, color, sq))
                                  if not self.wind else 0 for sq in range(25))
        self.conditional = has_cond
        self.simple = not self.wind and not has_cond


class Engine:
    """Move generation and perft for one card table and one hand layout.

    ``roles`` gives, per hand slot, which pawns may use the card in it (the 3-card variants
    reserve slots for the master or the students); the base game is ``(ANY, ANY)``.
    """

    def __init__(self, cards: CardTable, roles: tuple[int, ...] = (ANY, ANY)):
        self.cards = cards
        self.roles = roles
        self._tables: dict[str, tuple[CardMoves, CardMoves]] = {}
        self._plain = all(r == ANY for r in roles)

    def table(self, name: str) -> tuple[CardMoves, CardMoves]:
        try:
            return self._tables[name]
        except KeyError:
            card = self.cards[name]
            entry = self._tables[name] = (CardMoves(card, RED), CardMoves(card, BLUE))
            return entry

    # -- state conversion ------------------------------------------------------------------

    @staticmethod
    def state(pos: Position) -> State:
        if pos.turn == RED:
            return (pos.red, pos.blue, pos.red_master, pos.blue_master, pos.spirit, RED,
                    pos.hands[RED], pos.hands[BLUE], pos.side)
        return (pos.blue, pos.red, pos.blue_master, pos.red_master, pos.spirit, BLUE,
                pos.hands[BLUE], pos.hands[RED], pos.side)

    @staticmethod
    def position(st: State) -> Position:
        own, opp, mo, mp, sp, color, ho, hp, side = st
        if color == RED:
            return Position(own, opp, mo, mp, sp, RED, (ho, hp), side)
        return Position(opp, own, mp, mo, sp, BLUE, (hp, ho), side)

    # -- generation ------------------------------------------------------------------------

    def moves(self, st: State) -> list[EngineMove]:
        """Every legal turn, passes included when nothing else is legal."""
        own, opp, mo, mp, sp, color, ho, hp, side = st
        blocked = own | ((1 << sp) if sp >= 0 else 0)
        goal = _GOAL[color]
        roles = self.roles
        out: list[EngineMove] = []
        for slot, name in enumerate(ho):
            cm = (self._tables.get(name) or self.table(name))[color]
            role = roles[slot]
            tops = _tops(cm, role, own, opp, blocked, mo, mp, goal)
            if cm.wind:
                _wind_card_moves(out, slot, cm, tops, st)
                continue
            out += [(slot, f, t, -1, -1, wins) for f, t, wins in tops]
            if sp >= 0 and role != MASTER_ONLY:
                _spirit_moves(out, slot, cm, st)
        if not out:
            out = [(slot, -1, -1, -1, -1, False) for slot in range(len(ho))]
        return out

    def count(self, st: State) -> int:
        """``len(self.moves(st))`` without building the moves, for perft's last ply."""
        own, opp, mo, mp, sp, color, ho, hp, side = st
        if not self._plain:
            return len(self.moves(st))
        free = FULL ^ own
        spirit_targets = 0
        if sp >= 0:
            free &= ~(1 << sp)
            masters = ((1 << mo) if mo >= 0 else 0) | ((1 << mp) if mp >= 0 else 0)
            spirit_targets = FULL ^ masters
        n = 0
        tables = self._tables
        for name in ho:
            cm = (tables.get(name) or self.table(name))[color]
            if not cm.simple:
                return len(self.moves(st))
            smask, mmask = cm.student_mask, cm.master_mask
            m = own
            while m:
                b = m & -m
                f = b.bit_length() - 1
                m ^= b
                n += ((mmask[f] if f == mo else smask[f]) & free).bit_count()
            if sp >= 0:
                n += (cm.spirit_mask[sp] & spirit_targets).bit_count()
        return n or len(ho)

    @staticmethod
    def apply(st: State, mv: EngineMove) -> State:
        """The state after ``mv``, with the card exchange done and the turn passed on."""
        own, opp, mo, mp, sp, color, ho, hp, side = st
        slot, f, t, sf, su, _ = mv
        if f >= 0:
            tb = 1 << t
            own ^= (1 << f) | tb
            if opp & tb:
                opp ^= tb
                if t == mp:
                    mp = NO_SQUARE
            if f == mo:
                mo = t
        if sf >= 0:
            # The Spirit swaps with a student it lands on: the student takes its old square.
            ub = 1 << su
            if own & ub:
                own ^= ub | (1 << sf)
            elif opp & ub:
                opp ^= ub | (1 << sf)
            sp = su
        card = ho[slot]
        hand = ho[:slot] + (side[0],) + ho[slot + 1:]
        return (opp, own, mp, mo, sp, color ^ 1, hp, hand, (card,))

    # -- perft -----------------------------------------------------------------------------

    def perft(self, st: State, depth: int, *, transpositions: bool = True) -> int:
        """Leaves of the game tree ``depth`` turns deep (``docs/positions.md``).

        Transpositions are counted once per (state, depth): the same position reached by two
        move orders has the same subtree, which is what makes depth 6 affordable. Without
        them the count walks every node (the benchmark measures the generator that way).
        """
        if depth == 0 or self.position(st).winner():
            return 1
        return self._perft(st, depth, {} if transpositions else None)

    def _perft(self, st: State, depth: int, seen: dict[tuple[State, int], int] | None) -> int:
        if depth == 1:
            return self.count(st)
        key = (st, depth)
        total = None if seen is None else seen.get(key)
        if total is not None:
            return total
        total = 0
        apply, perft = self.apply, self._perft
        for mv in self.moves(st):
            total += 1 if mv[5] else perft(apply(st, mv), depth - 1, seen)
        if seen is not None:
            seen[key] = total
        return total

    def divide(self, st: State, depth: int) -> list[tuple[EngineMove, int]]:
        """Each first move with the leaves below it."""
        seen: dict[tuple[State, int], int] = {}
        out: list[tuple[EngineMove, int]] = []
        for mv in self.moves(st):
            leaves = 1 if (mv[5] or depth <= 1) else self._perft(self.apply(st, mv), depth - 1, seen)
            out.append((mv, leaves))
        return out


def _masters(st: State) -> int:
    mo, mp = st[2], st[3]
    return ((1 << mo) if mo >= 0 else 0) | ((1 << mp) if mp >= 0 else 0)


def _tops(cm: CardMoves, role: int, own: int, opp: int, blocked: int, mo: int, mp: int,
          goal: int) -> list[tuple[int, int, bool]]:
    """A card's pawn steps ``(from, to, wins)``: the master's and the students' as the hand
    slot's role allows, the conditional offsets only onto an enemy (capture) or an empty
    square."""
    tops: list[tuple[int, int, bool]] = []
    m = own
    while m:
        b = m & -m
        f = b.bit_length() - 1
        m ^= b
        if f == mo:
            if role == STUDENT_ONLY:
                continue
            steps, cond, goals = cm.master[f], cm.master_cond[f], (mp, goal)
        else:
            if role == MASTER_ONLY:
                continue
            steps, cond, goals = cm.student[f], cm.student_cond[f], (mp, mp)
        for t, tb in steps:
            if not blocked & tb:
                tops.append((f, t, t in goals))
        if not cm.simple:
            for t, tb, capture in cond:
                if (opp & tb) if capture else not (blocked | opp) & tb:
                    tops.append((f, t, t in goals))
    return tops


def _spirit_moves(out: list[EngineMove], slot: int, cm: CardMoves, st: State) -> None:
    """A regular card moving the Wind Spirit instead of a pawn: never onto a master, and its
    empty-square offsets only onto an empty square."""
    own, opp, sp = st[0], st[1], st[4]
    masters = _masters(st)
    for u, ub in cm.spirit[sp]:
        if not masters & ub:
            out.append((slot, -1, -1, sp, u, False))
    empty = cm.spirit_empty[sp] & ~(own | opp)
    while empty:
        b = empty & -empty
        out.append((slot, -1, -1, sp, b.bit_length() - 1, False))
        empty ^= b


def _wind_card_moves(out: list[EngineMove], slot: int, cm: CardMoves,
                     tops: list[tuple[int, int, bool]], st: State) -> None:
    """A Wind Spirit card: the top step moves a pawn, then the Spirit must take the bottom
    step if it can; a step with no option is skipped, a win ends the turn."""
    mo, sp = st[2], st[4]
    masters = _masters(st)
    if not tops:
        for u, ub in cm.spirit[sp]:
            if not masters & ub:
                out.append((slot, -1, -1, sp, u, False))
        return
    for f, t, wins in tops:
        if wins:
            out.append((slot, f, t, -1, -1, True))
            continue
        after = masters ^ ((1 << f) | (1 << t)) if f == mo else masters
        stepped = False
        for u, ub in cm.spirit[sp]:
            if not after & ub:
                out.append((slot, f, t, sp, u, False))
                stepped = True
        if not stepped:
            out.append((slot, f, t, -1, -1, False))

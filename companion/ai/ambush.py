"""The ambushes the seat's master can walk into over the enemy's next two turns.

The sampled worlds of :mod:`companion.ai.hidden` are searched two turns deep, and in each of
them the seat's own next turn is played knowing where the enemy's Ninjas stand. So they miss
what decides most losses of the Light Master: an enemy who sees everything steps a hidden
Ninja, on its first turn, to where the seat's master will stand after the seat's blind reply,
and takes it on its second. The seat only learns the enemy's card (and where a Ninja took a
student, if one did), so its reply is one choice for every placement that sight leaves
possible.

:class:`Ambush` counts this over the whole belief, exactly, for each action of the seat: the
share of the enemy's placements from which, whatever the seat then does knowing only what it
saw, a Ninja takes the master on the enemy's second turn. The seat's reply is taken
to be the master's least exposed square among those it can reach (or keeps) with its next
hand, judged on the belief it will then hold, as :class:`~companion.ai.hidden.Strata` judges
it now; the enemy is taken to foresee it. The first turn's own exposure is not counted here
(Strata counts it). :meth:`Ambush.lantern` values a Lantern by the ambushes its answer saves.

Every input is the seat's: its view's board and the placements of its belief (read from its
public record).
"""

from __future__ import annotations

from typing import Callable

from companion.rules.actions import Action, Lantern
from companion.rules.engine import Engine
from companion.rules.moves import Move
from companion.rules.position import TEMPLE

from .view import SeatView


# A placement that takes the master at the enemy's third turn (and not before) counts as this
# much of one that takes it at the second: the count takes the enemy to foresee every line,
# so it rates most moves exposed, the more so the longer the line. At 1 the Light Master
# scored the same against today's agent (45.5 % of 100 deals, seed 3000) and lost
# tests/table/test_computer.py's Light game to random moves; at 0.5 it won it.
THIRD_WEIGHT = 0.5
# At `medium`'s 3,000 nodes, six Light games' counts of three turns stepped at most 5,244
# placements (median 298); at 300 nodes (the table's tests), most counts stop at 600.
STEPS = 2


class Late(Exception):
    """The clock passed the count's end before it was done."""


class Ambush:
    """``share(action)``: the seat's risk of losing its master at the enemy's second turn
    (with ``turns=3``, or at its third)."""

    def __init__(self, view: SeatView, places: list[tuple[int, ...]], engine: Engine,
                 turns: int = 2, nodes: int | None = None):
        pos = view.board()
        c = view.color
        e = 1 - c
        self.engine = engine
        self.c, self.e = c, e
        self.master = pos.red_master if c == 0 else pos.blue_master
        self.own = pos.pawns(c)
        self.pawns = pos.red | pos.blue
        self.hand = tuple(pos.hands[c])
        self.enemy_hand = tuple(pos.hands[e])
        self.side = pos.side[0]
        self.temple = TEMPLE[e]
        self.must_move = view.mode == "light"
        self.placements = [sum(1 << s for s in p) for p in places]
        self.turns = turns
        # At most this many placements stepped, ``STEPS`` per node of the level's budget (a
        # node budget stands for time where there is no clock): beyond it the count is late.
        self.steps = None if nodes is None else STEPS * nodes
        self._clock: Callable[[], float] | None = None
        self._by: float | None = None
        self.late = False           # the last Lantern count was cut short by its clock
        self._attack: dict[tuple[int, tuple[str, ...]], int] = {}
        self._reach: dict[str, tuple[int, ...]] = {}
        self._by_key: dict[tuple[int, str, int, int], float] = {}
        self._areas: dict[tuple[int, str], int] = {}
        self._successor_cache: dict[tuple[int, str, int, int], tuple[tuple[int, frozenset[int], int], ...]] = {}

    # -- the pieces ------------------------------------------------------------------------

    def attack(self, square: int, cards: tuple[str, ...]) -> int:
        """The squares from which an enemy Ninja steps onto ``square`` with one of ``cards``."""
        key = (square, cards)
        found = self._attack.get(key)
        if found is None:
            found = 0
            for card in cards:
                reach = self.engine.table(card)[self.e].student_mask
                found |= sum(1 << f for f in range(25) if reach[f] >> square & 1)
            self._attack[key] = found
        return found

    def reach(self, card: str) -> tuple[int, ...]:
        """For each square, where an enemy Ninja on it steps with ``card``."""
        found = self._reach.get(card)
        if found is None:
            found = self._reach[card] = tuple(self.engine.table(card)[self.e].student_mask)
        return found

    def master_squares(self, master: int, hand: tuple[str, ...], own: int) -> list[int]:
        """Where the seat's master can stand after its next turn: where it is, or a step with
        a card of ``hand`` onto a square without its own pawns."""
        out = [master]
        for card in hand:
            m = self.engine.table(card)[self.c].master_mask[master] & ~own
            while m:
                b = m & -m
                m ^= b
                sq = b.bit_length() - 1
                if sq not in out:
                    out.append(sq)
        return out

    # -- the count -------------------------------------------------------------------------

    def share(self, action: Action) -> float:
        """For a pawn move (or a pass) of the seat: the share of the belief's placements that
        take its master at the enemy's second turn and not at the first. Other actions (a
        Ninja's step, a strike, a Lantern) do not move the master: 0."""
        if not self.placements or self.master < 0 or not isinstance(action, Move):
            return 0.0
        master, landed, own, pawns = self.master, -1, self.own, self.pawns
        if not action.is_pass and action.from_sq is not None and action.to_sq is not None:
            landed = action.to_sq
            own = own ^ (1 << action.from_sq) ^ (1 << landed)
            pawns = (pawns & ~(1 << action.from_sq)) | (1 << landed)
            if action.from_sq == master:
                master = landed
        if master == self.temple:
            return 0.0
        key = (master, action.card, landed, pawns)
        found = self._by_key.get(key)
        if found is None:
            hand = tuple(self.side if h == action.card else h for h in self.hand)
            keep = ~(1 << landed) if landed >= 0 else -1
            # A Ninja on the pawn's landing square was taken by it.
            places = [pm & keep for pm in self.placements]
            found = self._by_key[key] = self._lost(places, master, hand, action.card, own, pawns) / len(places)
        return found

    def _lost(self, places: list[int], master: int, hand: tuple[str, ...], given: str, own: int,
              pawns: int) -> float:
        """How many of ``places`` take the master at the enemy's second turn and not at its
        first (counting three turns, those that take it only at the third add
        ``THIRD_WEIGHT`` each), once the seat's turn is over: its master on ``master``,
        ``hand`` in hand, ``given`` the card the enemy takes after its turn."""
        squares = self.master_squares(master, hand, own)
        if self.temple in squares:
            return 0            # the master enters the Temple on the seat's next turn
        first = self.attack(master, self.enemy_hand)
        survivors = [pm for pm in places if not pm & first]
        lost: set[int] = set()
        third: set[int] = set()
        students = own & ~(1 << master)
        for k in self.enemy_hand:
            cards = tuple(given if h == k else h for h in self.enemy_hand)
            for group, (after, reached) in self._enemy_turn(survivors, k, pawns, students).items():
                blind = self._blind_square(squares, cards, after)
                danger = self.attack(blind, cards)
                now = {i for i, u in reached.items() if u & danger}
                lost.update(now)
                if self.turns >= 3:
                    escaped = {i: survivors[i] for i in reached if i not in now}
                    third.update(self._third(escaped, (k, group), (master, blind), hand, cards, own, pawns))
        return len(lost) + THIRD_WEIGHT * len(third - lost)

    def _third(self, escaped: dict[int, int], sight: tuple[str, int], path: tuple[int, int],
               hand: tuple[str, ...], cards: tuple[str, ...], own: int, pawns: int) -> set[int]:
        """Of the placements ``escaped`` (by index) that one ``sight`` of the enemy's first
        turn (its card, and what the seat saw) leaves and its second turn does not take the
        master from, those that take it at the third turn. The master went ``path`` (from,
        to) on the seat's blind reply, with the first card of ``hand`` that reaches it (any,
        where it stayed), and the seat's second blind reply is chosen on its belief after
        the enemy's second turn; the enemy, seeing all, takes any line open to it."""
        if self._clock is not None and self._by is not None and self._clock() > self._by:
            raise Late
        k = sight[0]
        master, blind = path
        played = next((x for x in hand if blind == master
                       or self.engine.table(x)[self.c].master_mask[master] >> blind & 1), hand[0])
        own2 = own & ~(1 << master) | (1 << blind)
        squares = self.master_squares(blind, tuple(k if h == played else h for h in hand), own2)
        if self.temple in squares:
            return set()
        students = own & ~(1 << master)
        pawns2 = pawns & ~(1 << master) | (1 << blind)
        out: set[int] = set()
        for (k2, _), (belief, reached) in self._second_turn(escaped, sight, cards, (pawns, pawns2),
                                                            students).items():
            cards2 = tuple(played if h == k2 else h for h in cards)
            danger = self.attack(self._blind_square(squares, cards2, belief), cards2)
            out.update(i for i, u in reached.items() if u & danger)
        return out

    def _second_turn(self, escaped: dict[int, int], sight: tuple[str, int], cards: tuple[str, ...],
                     pawns: tuple[int, int], students: int) -> dict[tuple[str, int], tuple[set[int], dict[int, int]]]:
        """For :meth:`_third`: the enemy's second turn from the placements ``escaped`` its
        first turn left in ``sight``, grouped by what the seat sees of it (the card and a
        capture's square). For each: the seat's belief then, and every square each placement's
        Ninjas may then stand on. ``pawns``: before and after the master's blind step."""
        k, group = sight
        lines: dict[tuple[str, int], tuple[set[int], dict[int, int]]] = {}
        for i, pm in escaped.items():
            firsts = next((after for g, after, _ in self._successors(pm, k, pawns[0], students)
                           if g == group), frozenset())
            for k2 in cards:
                for q in firsts:
                    for g2, after2, reached2 in self._successors(q, k2, pawns[1], students):
                        entry = lines.setdefault((k2, g2), (set(), {}))
                        entry[0].update(after2)
                        entry[1][i] = entry[1].get(i, 0) | reached2
        return lines

    def shares(self, actions: list[Action], clock: Callable[[], float],
               by: float | None) -> dict[Action, float] | None:
        """:meth:`share` of each action, or None if ``clock`` passes ``by`` before all are
        counted."""
        self._clock, self._by = clock, by
        out = {}
        try:
            for a in actions:
                if by is not None and clock() > by:
                    return None
                out[a] = self.share(a)
        except Late:
            return None
        return out

    def lantern(self, lines: list[tuple[Lantern, int]], clock: Callable[[], float] | None = None,
                by: float | None = None) -> tuple[Lantern | None, float]:
        """The Lantern phase, the seat's turn over: of ``lines`` (a Lantern and its squares),
        the one whose answer saves the master most often at the enemy's second turn, and that
        share of the placements (of the lines counted before ``clock`` passes ``by``). The
        answer changes nothing of the enemy's first turn; it sharpens the seat's blind
        reply, and so the ambushes it walks into."""
        if not self.placements or self.master < 0:
            return None, 0.0
        places = self.placements
        self._clock, self._by = clock, by
        self.late = False
        best: Lantern | None = None
        gain = 0.0
        try:
            lost = self._lost(places, self.master, self.hand, self.side, self.own, self.pawns)
            for lantern, line in lines:
                if clock is not None and by is not None and clock() > by:
                    self.late = True
                    break
                yes = [pm for pm in places if pm & line]
                no = [pm for pm in places if not pm & line]
                if not yes or not no:
                    continue            # a foregone answer tells nothing
                after = sum(self._lost(part, self.master, self.hand, self.side, self.own, self.pawns)
                            for part in (yes, no))
                if (lost - after) / len(places) > gain:
                    best, gain = lantern, (lost - after) / len(places)
        except Late:
            self.late = True            # the lines counted in time decide
        return best, gain

    def _enemy_turn(self, survivors: list[int], card: str, pawns: int,
                    students: int) -> dict[int, tuple[set[int], dict[int, int]]]:
        """The enemy's Ninja turn with ``card`` from each placement, grouped by what the seat
        sees of it: a quiet turn (-1), or a Ninja taking the seat's student on a square (its
        Ninja seen there). For each: the seat's belief then, and for each placement (by its
        index) every square its Ninjas may then stand on."""
        seen: dict[int, tuple[set[int], dict[int, int]]] = {}
        for i, pm in enumerate(survivors):
            for group, after, reached in self._successors(pm, card, pawns, students):
                entry = seen.get(group)
                if entry is None:
                    entry = seen[group] = (set(), {})
                entry[0].update(after)
                entry[1][i] = reached
        return seen

    def _successors(self, pm: int, card: str, pawns: int,
                    students: int) -> tuple[tuple[int, frozenset[int], int], ...]:
        """For :meth:`_enemy_turn`, one placement: for each group of what the seat sees, the
        placements the enemy's turn can leave and every square on which they stand. Kept
        by the pawns within the Ninjas' reach only, so that the seat's actions, which each
        move one pawn, share what they do not touch."""
        area = self._areas.get((pm, card))
        if area is None:
            area = self._areas[(pm, card)] = self._or_reach(pm, self.reach(card)) & ~pm
        key = (pm, card, pawns & area, students & area)
        found = self._successor_cache.get(key)
        if found is None:
            if self.steps is not None:
                self.steps -= 1
                if self.steps < 0:
                    raise Late
            found = self._successor_cache[key] = self._step_from(pm, card, pawns, students)
        return found

    @staticmethod
    def _or_reach(pm: int, reach: tuple[int, ...]) -> int:
        out = 0
        m = pm
        while m:
            b = m & -m
            m ^= b
            out |= reach[b.bit_length() - 1]
        return out

    def _step_from(self, pm: int, card: str, pawns: int,
                   students: int) -> tuple[tuple[int, frozenset[int], int], ...]:
        reach = self.reach(card)
        groups: dict[int, set[int]] = {}
        moved = False
        m = pm
        while m:
            b = m & -m
            m ^= b
            r = reach[b.bit_length() - 1] & ~pm
            steps = r & ~pawns
            taken = r & students
            moved = moved or bool(steps or taken)
            for targets, quiet in ((steps, True), (taken, False)):
                while targets:
                    t = targets & -targets
                    targets ^= t
                    groups.setdefault(-1 if quiet else t.bit_length() - 1, set()).add(pm ^ b ^ t)
        if not self.must_move or not moved:
            groups.setdefault(-1, set()).add(pm)
        out = []
        for group, after in groups.items():
            reached = 0
            for q in after:
                reached |= q
            out.append((group, frozenset(after), reached))
        return tuple(out)

    def _blind_square(self, squares: list[int], cards: tuple[str, ...], after: set[int]) -> int:
        """The master's square the seat picks knowing only the enemy's card: the one the
        fewest of ``after`` (its belief then) can reach with ``cards``; where it stands when
        that ties."""
        best, fewest = squares[0], len(after) + 1
        for sq in squares:
            danger = self.attack(sq, cards)
            n = sum(1 for pm in after if pm & danger)
            if n < fewest:
                best, fewest = sq, n
        return best


def turns(view: SeatView) -> int:
    """How many enemy turns the seat counts: three for the Light Master (its losses came
    from a master cornered one turn past the second, ``docs/ai-strength.md``), two else."""
    return 3 if view.mode == "light" else 2


def counted(view: SeatView, places: list[tuple[int, ...]], engine: Engine, actions: list[Action],
            clock: Callable[[], float], by: tuple[float | None, float | None],
            nodes: int | None = None) -> dict[Action, float]:
    """Each action's share of ambushes: of the enemy's second turn, counted by ``by[0]`` on
    ``clock`` (else none: counted for some actions only, they would favour the others); then,
    where :func:`turns` says three, of its third, by ``by[1]`` and within the level's
    ``nodes`` (else the second's stand)."""
    second = Ambush(view, places, engine).shares(actions, clock, by[0]) or {}
    if second and turns(view) == 3:
        return Ambush(view, places, engine, 3, nodes).shares(actions, clock, by[1]) or second
    return second


def lantern(view: SeatView, places: list[tuple[int, ...]], engine: Engine,
            lines: list[tuple[Lantern, int]], clock: Callable[[], float],
            by: tuple[float | None, float | None], nodes: int | None = None) -> tuple[Lantern | None, float]:
    """:meth:`Ambush.lantern` over :func:`turns` turns, by ``by[0]`` on ``clock`` and within
    the level's ``nodes`` where that is three; cut short there, over two turns by ``by[1]``."""
    if turns(view) == 3:
        count = Ambush(view, places, engine, 3, nodes)
        found = count.lantern(lines, clock, by[0])
        if not count.late:
            return found
    return Ambush(view, places, engine).lantern(lines, clock, by[1])

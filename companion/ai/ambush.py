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
(Strata counts it). With ``turns`` over two, the count goes on the same way: each line the
enemy's turn has not closed, the seat's next blind reply, the enemy's next turn.
:meth:`Ambush.lantern` values a Lantern by the ambushes its answer saves.

Every input is the seat's: its view's board and the placements of its belief (read from its
public record).
"""

from __future__ import annotations

from typing import Callable, Collection, Mapping, NamedTuple

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
# And one taken only at the fourth (``turns=4``), as much of one taken at the third.
FOURTH_WEIGHT = THIRD_WEIGHT * 0.5
# At `medium`'s 3,000 nodes, six Light games' counts of three turns stepped at most 5,244
# placements (median 298); at 300 nodes (the table's tests), most counts stop at 600.
STEPS = 2
# The enemy turns the Light Master counts (:func:`turns`). Four (with an unsearched exposed
# part of the worlds counted as lost) scored 98.5 of 200 against today's agent where three
# scored 86.5 (seeds 7000-7199), then 37.5 and 46.5 of 100 where three score 48 and 47 (seeds
# 3000, 3100): no gain over the 400 games, at up to five times the count's work
# (docs/ai-strength.md, session 33). So three.
LIGHT_TURNS = 3


def weight(turn: int) -> float:
    """What a placement that takes the master first at the enemy's ``turn`` counts for."""
    return 1.0 if turn <= 2 else THIRD_WEIGHT if turn == 3 else FOURTH_WEIGHT


class Line(NamedTuple):
    """Where the seat stands on one line of the count, its turn over: its master on
    ``master``, which can reach ``squares`` on its next turn with ``hand``; the enemy holds
    ``enemy`` and takes ``given`` after its turn."""
    master: int
    squares: list[int]
    hand: tuple[str, ...]
    enemy: tuple[str, ...]
    given: str
    own: int
    pawns: int


class Late(Exception):
    """The clock passed the count's end before it was done."""


class Ambush:
    """``share(action)``: the seat's risk of losing its master at the enemy's second turn
    (with ``turns=3``, or at its third)."""

    def __init__(self, view: SeatView, places: list[tuple[int, ...]], engine: Engine,
                 turns: int = 2, nodes: int | None = None, weights: list[float] | None = None):
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
        # Each placement's weight (companion/ai/odds.py; the set's: 1 each, a share a count).
        self.weights = weights if weights is not None else [1.0] * len(places)
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
            found = self._by_key[key] = self._lost(places, self.weights, master, hand, action.card, own,
                                                   pawns) / sum(self.weights)
        return found

    def _lost(self, places: list[int], weights: list[float], master: int, hand: tuple[str, ...], given: str,
              own: int, pawns: int) -> float:
        """How many of ``places`` (each counted by its ``weights``) take the master at the enemy's
        second turn and not at its first (more turns: those taking it only at turn ``t`` add
        ``weight(t)`` each), the seat's turn over: its master on ``master``, ``hand`` in hand,
        ``given`` the card the enemy takes after its turn."""
        squares = self.master_squares(master, hand, own)
        if self.temple in squares:
            return 0            # the master enters the Temple on the seat's next turn
        first = self.attack(master, self.enemy_hand)
        states: dict[int, Collection[int]] = {i: (pm,) for i, pm in enumerate(places) if not pm & first}
        taken: dict[int, int] = {}      # placement (by index) -> the first enemy turn taking the master
        line = Line(master, squares, hand, self.enemy_hand, given, own, pawns)
        self._ahead(states, 2, line, own & ~(1 << master), taken)
        return sum(weights[i] * weight(t) for i, t in taken.items())

    def _ahead(self, states: Mapping[int, Collection[int]], turn: int, line: Line, students: int,
               taken: dict[int, int]) -> None:
        """The enemy's turn before ``turn``, from each placement's ``states`` (where its
        Ninjas may stand, by what the seat has seen), grouped by what the seat sees of it
        (the card, a capture's square); then the seat's blind reply, the master's least
        exposed square of ``line.squares`` on its belief then; then whether the enemy's
        ``turn`` takes the master there. Each placement's first such turn goes into
        ``taken``; those it does not take go on while ``turn`` is under ``self.turns``."""
        if turn > 2 and self._clock is not None and self._by is not None and self._clock() > self._by:
            raise Late
        on = turn < self.turns
        for k in line.enemy:
            cards = tuple(line.given if h == k else h for h in line.enemy)
            for belief, reach, nxt in self._enemy_turn(states, k, line.pawns, students, on).values():
                blind = self._blind_square(line.squares, cards, belief)
                danger = self.attack(blind, cards)
                for i, r in reach.items():
                    if r & danger:
                        taken[i] = min(taken.get(i, turn), turn)
                if on:
                    escaped = {i: nxt[i] for i, r in reach.items() if not r & danger}
                    after_reply = self._reply(line, blind, k, cards)
                    if escaped and self.temple not in after_reply.squares:
                        self._ahead(escaped, turn + 1, after_reply, students, taken)

    def _reply(self, line: Line, blind: int, k: str, cards: tuple[str, ...]) -> Line:
        """``line`` after the seat's blind reply, its master stepped to ``blind`` (with the first
        card of its hand that reaches it; any, where it stayed), the enemy having played
        ``k`` and holding ``cards``."""
        master, hand = line.master, line.hand
        played = next((x for x in hand if blind == master
                       or self.engine.table(x)[self.c].master_mask[master] >> blind & 1), hand[0])
        hand = tuple(k if h == played else h for h in hand)
        own = line.own & ~(1 << master) | (1 << blind)
        return Line(blind, self.master_squares(blind, hand, own), hand, cards, played, own,
                    line.pawns & ~(1 << master) | (1 << blind))

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
        places, weights, total = self.placements, self.weights, sum(self.weights)
        self._clock, self._by = clock, by
        self.late = False
        best: Lantern | None = None
        gain = 0.0
        try:
            lost = self._lost(places, weights, self.master, self.hand, self.side, self.own, self.pawns)
            for lantern, line in lines:
                if clock is not None and by is not None and clock() > by:
                    self.late = True
                    break
                parts = ([i for i, pm in enumerate(places) if pm & line],
                         [i for i, pm in enumerate(places) if not pm & line])
                if not parts[0] or not parts[1]:
                    continue            # a foregone answer tells nothing
                after = sum(self._lost([places[i] for i in part], [weights[i] for i in part], self.master,
                                       self.hand, self.side, self.own, self.pawns) for part in parts)
                if (lost - after) / total > gain:
                    best, gain = lantern, (lost - after) / total
        except Late:
            self.late = True            # the lines counted in time decide
        return best, gain

    def _enemy_turn(self, states: Mapping[int, Collection[int]], card: str, pawns: int, students: int,
                    on: bool = False) -> dict[int, tuple[set[int], dict[int, int], dict[int, set[int]]]]:
        """The enemy's Ninja turn with ``card`` from each placement's ``states`` (by its index),
        grouped by what the seat sees of it: a quiet turn (-1), or a Ninja taking the seat's
        student on a square (its Ninja seen there). For each: the seat's belief then; for each
        placement every square its Ninjas may then stand on; and, ``on`` (the count goes on),
        where they may then stand."""
        seen: dict[int, tuple[set[int], dict[int, int], dict[int, set[int]]]] = {}
        for i, qs in states.items():
            for q in qs:
                for group, after, reached in self._successors(q, card, pawns, students):
                    entry = seen.get(group)
                    if entry is None:
                        entry = seen[group] = (set(), {}, {})
                    entry[0].update(after)
                    entry[1][i] = entry[1].get(i, 0) | reached
                    if on:
                        entry[2].setdefault(i, set()).update(after)
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
    """How many enemy turns the seat counts: ``LIGHT_TURNS`` for the Light Master (its losses
    came from a master cornered past the second turn, ``docs/ai-strength.md``), two else."""
    return LIGHT_TURNS if view.mode == "light" else 2


def counted(view: SeatView, places: list[tuple[int, ...]], engine: Engine, actions: list[Action],
            clock: Callable[[], float], by: tuple[float | None, float | None],
            nodes: int | None = None, weights: list[float] | None = None) -> dict[Action, float]:
    """Each action's share of ambushes: of the enemy's second turn, counted by ``by[0]`` on
    ``clock`` (else none: counted for some actions only, they would favour the others); then
    of each later turn up to :func:`turns`, each count by ``by[1]`` and within the level's
    ``nodes`` (else the last one finished stands)."""
    found = Ambush(view, places, engine, weights=weights).shares(actions, clock, by[0]) or {}
    for n in range(3, turns(view) + 1) if found else ():
        more = Ambush(view, places, engine, n, nodes, weights).shares(actions, clock, by[1])
        if not more:
            break
        found = more
    return found


def lantern(view: SeatView, places: list[tuple[int, ...]], engine: Engine,
            lines: list[tuple[Lantern, int]], clock: Callable[[], float],
            by: tuple[float | None, float | None], nodes: int | None = None,
            weights: list[float] | None = None) -> tuple[Lantern | None, float]:
    """:meth:`Ambush.lantern` over :func:`turns` turns, by ``by[0]`` on ``clock`` and within
    the level's ``nodes`` where that is more than two (then over three); cut short there,
    over two turns by ``by[1]``."""
    for n in range(turns(view), 2, -1):
        count = Ambush(view, places, engine, n, nodes, weights)
        found = count.lantern(lines, clock, by[0])
        if not count.late:
            return found
    return Ambush(view, places, engine, weights=weights).lantern(lines, clock, by[1])

"""Sampled worlds of Way of the Shadow and Way of the Light: full-information states and the
short search :mod:`companion.ai.hidden` runs in each of them.

A world is one placement of the enemy's hidden Ninjas taken as true. :class:`Rules` makes
every turn of it (pawn steps, Ninja steps, strikes that hit, the exchange of cards), judges
it, and searches it a few turns deep; the enemy's last reply can be chosen blind to the
seat's own hidden Ninjas (``Rules.blind``), by what the public record tells the enemy of
them.
"""

from __future__ import annotations

import time
from typing import Callable

from companion.rules.engine import Engine
from companion.rules.position import TEMPLE

from .evaluate import Evaluator
from .search import WIN

NINJA = {"shadow": 130, "light": 170}   # a Ninja's worth, in hundredths of a student
CLOCK_EVERY = 16                         # nodes between two looks at the clock


class World:
    """A full-information state of Light & Shadow for one sampled placement:
    ``pawns``, ``masters`` (``-2``: none, ``-1``: captured), ``ninjas`` (masks), ``hands``,
    ``side`` and ``turn``."""

    __slots__ = ("pawns", "masters", "ninjas", "hands", "side", "turn")

    def __init__(self, pawns: tuple[int, ...], masters: tuple[int, ...],
                 ninjas: tuple[int, ...], hands: tuple[tuple[str, ...], ...], side: str,
                 turn: int) -> None:
        self.pawns, self.masters, self.ninjas = pawns, masters, ninjas
        self.hands, self.side, self.turn = hands, side, turn


class OutOfBudget(Exception):
    """The decision's time or node budget ran out inside a sampled world."""


class Sighting:
    """What the enemy can make of the seat's hidden Ninjas after one turn of the seat: its
    placements of them (masks), from the public record, and the share of them that reach
    a set of squares, counted once per set."""

    __slots__ = ("masks", "_shares")

    def __init__(self, masks: list[int]):
        self.masks = masks
        self._shares: dict[int, float] = {}

    def share(self, squares: int) -> float:
        found = self._shares.get(squares)
        if found is None:
            masks = self.masks
            found = self._shares[squares] = (
                sum(1 for pm in masks if pm & squares) / len(masks) if masks and squares else 0.0)
        return found


class Rules:
    """Turn generation and evaluation of sampled worlds for one mode."""

    def __init__(self, mode: str, light: int | None, engine: Engine, evaluator: Evaluator,
                 *, deadline: float | None = None, max_nodes: int | None = None,
                 clock: Callable[[], float] = time.perf_counter, scale: int = 1):
        self.mode = mode
        self.light = light
        self.engine = engine
        self.evaluate_board = evaluator
        # The evaluation times this, against a lost game's -WIN and the shares of one the Light
        # Master counts (hidden.LIGHT_EVAL_SCALE, in the Light Master's worlds; 1 elsewhere).
        self.scale = scale
        self.nodes = 0
        # (pawns, masters, hands, side card, side to move) -> the board's evaluation
        self._evaluated: dict[tuple[tuple[int, ...], tuple[int, ...],
                                    tuple[tuple[str, ...], ...], str, int], int] = {}
        self.deadline = deadline    # on ``clock``
        self.max_nodes = max_nodes
        self.clock = clock
        self._check_at = 0          # the node count at which the budget is looked at next
        # The enemy's reply to the seat's action, when the enemy cannot see the seat's hidden
        # Ninjas: (the seat's colour, for each square the odds that the enemy finds one of
        # them there, and its placements of them, all from what the public record tells it).
        # None: the enemy sees them.
        self.blind: tuple[int, list[float], Sighting] | None = None
        self._reverse: dict[tuple[str, int], tuple[list[int], list[int]]] = {}

    def has_pawns(self, c: int) -> bool:
        return self.mode == "shadow" or c == self.light

    def winner(self, w: World) -> int | None:
        if self.mode == "shadow":
            for c in (0, 1):
                if w.masters[1 - c] == -1 or w.masters[c] == TEMPLE[1 - c]:
                    return c
            return None
        assert self.light is not None, "Way of the Light: the Light Master has a colour"
        light, shadow = self.light, 1 - self.light
        if w.masters[light] == -1:
            return shadow
        if w.masters[light] == TEMPLE[shadow] or not w.ninjas[shadow]:
            return light
        return None

    # -- steps -----------------------------------------------------------------------------

    def pawn_step(self, w: World, c: int, f: int, t: int) -> World:
        e = 1 - c
        pawns, masters, ninjas = list(w.pawns), list(w.masters), list(w.ninjas)
        tb = 1 << t
        pawns[c] ^= (1 << f) | tb
        if masters[c] == f:
            masters[c] = t
        if pawns[e] & tb:
            pawns[e] ^= tb
            if masters[e] == t:
                masters[e] = -1
        ninjas[e] &= ~tb            # a pawn landing on a Ninja captures it
        return World(tuple(pawns), tuple(masters), tuple(ninjas), w.hands, w.side, w.turn)

    def ninja_step(self, w: World, c: int, f: int, t: int, strike: bool) -> World:
        e = 1 - c
        pawns, masters, ninjas = list(w.pawns), list(w.masters), list(w.ninjas)
        tb = 1 << t
        ninjas[c] ^= (1 << f) | tb
        if pawns[e] & tb:
            pawns[e] ^= tb
            if masters[e] == t:
                masters[e] = -1
        elif strike:
            ninjas[e] &= ~tb
        return World(tuple(pawns), tuple(masters), tuple(ninjas), w.hands, w.side, w.turn)

    @staticmethod
    def exchange(w: World, c: int, card: str) -> World:
        hands = list(w.hands)
        hands[c] = tuple(w.side if h == card else h for h in w.hands[c])
        return World(w.pawns, w.masters, w.ninjas, tuple(hands), card, 1 - c)

    def main_moves(self, w: World, c: int) -> list[tuple[str, int, int]]:
        """(card, from, to) of the pawn moves; empty when the side must pass."""
        out = []
        own = w.pawns[c]
        blocked = own | w.ninjas[c]
        for card in w.hands[c]:
            cm = self.engine.table(card)[c]
            m = own
            while m:
                b = m & -m
                f = b.bit_length() - 1
                m ^= b
                targets = (cm.master_mask[f] if f == w.masters[c] else cm.student_mask[f]) & ~blocked
                while targets:
                    tb = targets & -targets
                    out.append((card, f, tb.bit_length() - 1))
                    targets ^= tb
        return out

    def ninja_moves(self, w: World, c: int, card: str) -> list[tuple[int, int]]:
        cm = self.engine.table(card)[c]
        blocked = w.pawns[c] | w.ninjas[c]
        out = []
        m = w.ninjas[c]
        while m:
            b = m & -m
            f = b.bit_length() - 1
            m ^= b
            targets = cm.student_mask[f] & ~blocked
            while targets:
                tb = targets & -targets
                out.append((f, tb.bit_length() - 1))
                targets ^= tb
        return out

    def turns(self, w: World) -> list[World]:
        """Every way the side to move can finish its turn (the sampled world is fully
        known: a strike is made only where it hits)."""
        c = w.turn
        e = 1 - c
        out = []
        if not self.has_pawns(c):
            for card in w.hands[c]:
                for f, t in self.ninja_moves(w, c, card):
                    out.append(self.exchange(self.ninja_step(w, c, f, t, False), c, card))
            return out or [self.exchange(w, c, w.hands[c][0])]
        mains = self.main_moves(w, c)
        starts = ([(card, self.pawn_step(w, c, f, t)) for card, f, t in mains]
                  or [(card, w) for card in w.hands[c]])
        for card, after in starts:
            out.append(self.exchange(after, c, card))
            if self.mode != "shadow" or not after.ninjas[c] or self.winner(after) is not None:
                continue
            for f, t in self.ninja_moves(after, c, card):
                strike = bool(after.ninjas[e] >> t & 1)
                out.append(self.exchange(self.ninja_step(after, c, f, t, strike), c, card))
        return out

    # -- evaluation ------------------------------------------------------------------------

    def evaluate(self, w: World) -> int:
        """From the side to move's point of view. The Ninjas count, not their squares, so
        the many worlds of one decision share most evaluations (kept in ``_evaluated``)."""
        c = w.turn
        e = 1 - c
        key = (w.pawns, w.masters, w.hands, w.side, c)
        board = self._evaluated.get(key)
        if board is None:
            # Met for the first time, it may build the evaluation's tables of a new hand (a
            # few milliseconds on a Pi): the clock is looked at again at the next node.
            self._check_at = self.nodes + 1
            board = self._evaluated[key] = self.evaluate_board(
                (w.pawns[c], w.pawns[e], w.masters[c], w.masters[e], -1, c, w.hands[c], w.hands[e],
                 ((w.side,), ())))
        return self.scale * (board + NINJA[self.mode] * (w.ninjas[c].bit_count() - w.ninjas[e].bit_count()))

    def reverse(self, card: str, c: int) -> tuple[list[int], list[int]]:
        """For each square, the squares from which a student (first list) or the master
        (second) of colour ``c`` reaches it with ``card``."""
        key = (card, c)
        found = self._reverse.get(key)
        if found is None:
            cm = self.engine.table(card)[c]
            found = self._reverse[key] = (
                [sum(1 << f for f in range(25) if cm.student_mask[f] >> t & 1) for t in range(25)],
                [sum(1 << f for f in range(25) if cm.master_mask[f] >> t & 1) for t in range(25)])
        return found

    def wins_next(self, w: World) -> bool:
        """The side to move can take the enemy's master (with a pawn or a Ninja) or move
        its master into the enemy's Temple."""
        c = w.turn
        e = 1 - c
        target = w.masters[e]
        mine = w.masters[c]
        pawns = w.pawns[c] if self.has_pawns(c) else 0
        master_bit = 1 << mine if mine >= 0 else 0
        temple = TEMPLE[e]
        temple_free = not ((w.pawns[c] | w.ninjas[c]) >> temple & 1)
        for card in w.hands[c]:
            student, master = self.reverse(card, c)
            if target >= 0 and (((pawns & ~master_bit) | w.ninjas[c]) & student[target]
                                or pawns & master_bit & master[target]):
                return True
            if pawns & master_bit and temple_free and master_bit & master[temple]:
                return True
        return False

    def blind_reply(self, w: World, ply: int) -> int:
        """The enemy's last reply when it cannot see the seat's hidden Ninjas: it cannot aim
        at them (a pawn landing where one of them may stand takes it with the odds of
        ``blind``), and it dodges them only as well as the public record lets it: a reply
        that leaves its master where one of the seat's Ninjas may reach it is worth to it
        the share of its placements of them from which one can (it steps where that share
        is small, which is where an ambush pays). The value is the chosen turn's real
        outcome in this world."""
        assert self.blind is not None, "blind_reply needs the enemy's odds"
        me, odds, seen_by = self.blind
        e = w.turn
        mine = w.ninjas[me]
        chosen, best = None, -WIN * 2.0
        for child in self.turns(w):
            self.spend()
            ninjas = list(child.ninjas)
            ninjas[me] = mine
            seen = World(child.pawns, child.masters, tuple(ninjas), child.hands, child.side, child.turn)
            won = self.winner(seen)
            value: float = (WIN if won == e else -WIN) if won is not None else -self.evaluate(seen)
            if won is None:
                ninjas[me] = 0          # what the enemy sees of the seat's threats
                if self.wins_next(World(child.pawns, child.masters, tuple(ninjas), child.hands,
                                        child.side, child.turn)):
                    value = -WIN
                else:
                    exposed = self.exposure(child, me, seen_by)
                    value += exposed * (-WIN - value)
            landed = seen.pawns[e] & ~w.pawns[e]
            p = odds[landed.bit_length() - 1] if landed and won is None else 0.0
            if p > 0 and value > -WIN:
                last = self.mode == "light" and mine.bit_count() == 1
                value += p * ((WIN - value) if last else NINJA[self.mode])
            if value > best:
                chosen, best = child, value
        assert chosen is not None, "a side always has a turn (a pass at worst)"
        return -self.negamax(chosen, 0, -WIN * 2, WIN * 2, ply + 1)

    def exposure(self, w: World, me: int, seen_by: Sighting) -> float:
        """The share of the enemy's placements of the seat's Ninjas (``seen_by``) from which
        one of them takes the enemy's master next, the seat to move in ``w``."""
        m = w.masters[1 - me]
        if m < 0:
            return 0.0
        attack = 0
        for card in w.hands[me]:
            attack |= self.reverse(card, me)[0][m]
        return seen_by.share(attack & ~w.pawns[1 - me])

    def spend(self) -> None:
        """Count a node; raise :class:`OutOfBudget` once the budget is spent. The clock is
        read every ``CLOCK_EVERY`` nodes (a few tenths of a millisecond here, a few
        milliseconds on a Pi), the node budget is met exactly. A node count that only
        looked at multiples of 256 missed most of them: the blind reply counts its
        children in a run."""
        self.nodes += 1
        if self.nodes < self._check_at:
            return
        self._check_at = self.nodes + CLOCK_EVERY
        if self.max_nodes is not None:
            if self.nodes >= self.max_nodes:
                raise OutOfBudget
            self._check_at = min(self._check_at, self.max_nodes)
        if self.deadline is not None and self.clock() >= self.deadline:
            raise OutOfBudget

    def negamax(self, w: World, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.spend()
        won = self.winner(w)
        if won is not None:
            return -(WIN - ply) if won != w.turn else WIN - ply
        if depth <= 0:
            # The side to move takes the master or enters the Temple next: as good as done.
            return WIN - ply - 1 if self.wins_next(w) else self.evaluate(w)
        if depth == 1 and ply == 1 and self.blind is not None and w.turn != self.blind[0]:
            return self.blind_reply(w, ply)
        children = self.turns(w)
        best = -WIN * 2
        c = w.turn
        for child in children:
            if self.winner(child) == c:
                return WIN - ply - 1
        for child in children:
            score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

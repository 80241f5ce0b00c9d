"""Playing Way of the Shadow and Way of the Light without peeking.

The seat's view gives the public board and its own Ninjas; :class:`~companion.ai.belief.Belief`
gives the enemy's possible Ninja placements. The player samples placements from the belief
(determinizations), searches each sampled world with full information for a few turns, and
plays the action whose average score is best (with the level's imprecision on those
averages). A strike that misses in a sampled world costs the reveal of the striking Ninja.
Lanterns are spent on the line that best splits the belief; Ninjas start on a square drawn
at random. Every random choice is seeded by the seed and the seat's view only, so two games
that look the same to the seat get the same decisions.
"""

from __future__ import annotations

import random
import time

from companion.rules.actions import LANTERNS, Action, Lantern, NinjaMove, Skip, Strike
from companion.rules.engine import Engine
from companion.rules.moves import Move
from companion.rules.position import COLORS, TEMPLE

from .belief import Belief
from .evaluate import Evaluator
from .search import WIN
from .view import SeatView

NINJA = {"shadow": 130, "light": 170}   # a Ninja's worth, in hundredths of a student
MISSED_STRIKE = 40                      # a strike that misses shows the Ninja to the enemy
# Samples and turns searched per sampled world, by level.
BUDGET = {"easy": (4, 1), "casual": (6, 2), "medium": (8, 2), "club": (10, 2), "strong": (12, 2),
          "advanced": (14, 2), "expert": (16, 2), "hard": (24, 3)}


class World:
    """A full-information state of Light & Shadow for one sampled placement:
    ``pawns``, ``masters`` (``-2``: none, ``-1``: captured), ``ninjas`` (masks), ``hands``,
    ``side`` and ``turn``."""

    __slots__ = ("pawns", "masters", "ninjas", "hands", "side", "turn")

    def __init__(self, pawns, masters, ninjas, hands, side, turn):
        self.pawns, self.masters, self.ninjas = pawns, masters, ninjas
        self.hands, self.side, self.turn = hands, side, turn


class OutOfBudget(Exception):
    """The decision's time or node budget ran out inside a sampled world."""


class Rules:
    """Turn generation and evaluation of sampled worlds for one mode."""

    def __init__(self, mode: str, light: int | None, engine: Engine, evaluator: Evaluator,
                 *, deadline: float | None = None, max_nodes: int | None = None):
        self.mode = mode
        self.light = light
        self.engine = engine
        self.evaluate_board = evaluator
        self.nodes = 0
        self.deadline = deadline
        self.max_nodes = max_nodes

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
        """From the side to move's point of view."""
        c = w.turn
        e = 1 - c
        st = (w.pawns[c], w.pawns[e], w.masters[c], w.masters[e], -1, c, w.hands[c], w.hands[e],
              ((w.side,), ()))
        score = self.evaluate_board(st)
        value = NINJA[self.mode]
        score += value * (w.ninjas[c].bit_count() - w.ninjas[e].bit_count())
        return score

    def negamax(self, w: World, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes & 255 == 0 and (
                (self.max_nodes is not None and self.nodes >= self.max_nodes)
                or (self.deadline is not None and time.perf_counter() >= self.deadline)):
            raise OutOfBudget
        won = self.winner(w)
        if won is not None:
            return -(WIN - ply) if won != w.turn else WIN - ply
        if depth <= 0:
            return self.evaluate(w)
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


class HiddenPlayer:
    """The Light & Shadow side of a :class:`~companion.ai.agent.Player`."""

    def __init__(self, player, *, uniform: bool = False):
        self.player = player
        self.uniform = uniform      # benchmarks: sample enemy Ninjas uniformly, ignoring the record
        self.last_belief: Belief | None = None

    def choose(self, view: SeatView) -> str:
        rng = self.player.rng(view)
        actions = view.actions()
        text = dict(zip(actions, view.legal))   # as the referee wrote it (with its card)
        if view.phase == "setup":
            return text[rng.choice(actions)]
        belief = Belief(view)
        self.last_belief = belief
        if view.phase == "lantern":
            if self.uniform:            # the baseline learns nothing from the answers
                return text[rng.choice(actions)]
            return text[self.lantern(belief, actions)]
        return text[self.search(view, belief, actions, rng)]

    # -- Lanterns --------------------------------------------------------------------------

    @staticmethod
    def lantern(belief: Belief, actions: list[Action]) -> Action:
        """The line whose yes/no answer leaves the fewest placements on average, when that
        is worth one of the two Lanterns: the belief spans 4 squares or more and the line
        at least halves it."""
        places = belief.placements
        if not places or len(belief.squares()) < 4:
            return Skip()
        n = len(places)
        best: Lantern | None = None
        best_left: float = n
        for lantern in LANTERNS:
            if lantern not in actions:
                continue
            line = lantern.squares()
            yes = sum(1 for p in places if any(s in line for s in p))
            left = (yes * yes + (n - yes) * (n - yes)) / n
            if left < best_left:
                best, best_left = lantern, left
        return best if best is not None and best_left <= n / 2 else Skip()

    # -- sampled worlds --------------------------------------------------------------------

    def samples(self, view: SeatView, belief: Belief, rng: random.Random, k: int) -> list[tuple[int, ...]]:
        if not belief.enemy_has_ninjas:
            return [()]
        if self.uniform:
            return [self._uniform(view, rng) for _ in range(k)]
        places = sorted(belief.placements)
        if not places:
            return [()]
        return [rng.choice(places) for _ in range(k)]

    def _uniform(self, view: SeatView, rng: random.Random) -> tuple[int, ...]:
        """The baseline: enemy Ninjas on random squares without pawns, revealed ones where
        they stand, nothing learnt from the record."""
        info = view.ninja_info(COLORS[1 - view.color])
        if info is None or not info.alive:
            return ()
        pos = view.board()
        free = [s for s in range(25) if not (pos.red | pos.blue) >> s & 1 and s not in info.revealed]
        hidden = info.alive - len(info.revealed)
        return tuple(sorted(set(info.revealed) | set(rng.sample(free, hidden))))

    def world(self, view: SeatView, placement: tuple[int, ...]) -> World:
        pos = view.board()
        c = view.color
        ninjas = [0, 0]
        ninjas[c] = sum(1 << s for s in view.own_ninjas)
        ninjas[1 - c] = sum(1 << s for s in placement)
        return World((pos.red, pos.blue), (pos.red_master, pos.blue_master), tuple(ninjas),
                     pos.hands, pos.side[0], pos.turn)

    def scored(self, view: SeatView) -> list[tuple[Action, int]]:
        """Every legal action of the seat with its belief-averaged score (for hints)."""
        belief = Belief(view)
        return self._scored(view, belief, view.actions(), self.player.rng(view))

    def search(self, view: SeatView, belief: Belief, actions: list[Action], rng: random.Random) -> Action:
        return self.player.level.pick(self._scored(view, belief, actions, rng), rng)

    def _scored(self, view: SeatView, belief: Belief, actions: list[Action],
                rng: random.Random) -> list[tuple[Action, int]]:
        player = self.player
        lv = player.level
        k, depth = BUDGET.get(lv.name, (8, 2))
        light = None if view.light is None else COLORS.index(view.light)
        searcher = player.searcher(view)
        limits = player.limits()
        deadline = None if limits.seconds is None else time.perf_counter() + limits.seconds
        rules = Rules(view.mode, light, searcher.engine, searcher.evaluate,
                      deadline=deadline, max_nodes=limits.nodes)
        totals = {a: 0.0 for a in actions}
        done = 0
        worlds = [self.world(view, p) for p in self.samples(view, belief, rng, k)]
        for w in worlds:
            try:
                scores = {a: self.score(rules, view, w, a, depth - 1) for a in actions}
            except OutOfBudget:
                break           # this world is unfinished: the others decide
            for a, s in scores.items():
                totals[a] += s
            done += 1
        if not done:
            # Not one world searched in time: judge the seat's own turn in the first one.
            rules.deadline = rules.max_nodes = None
            totals = {a: float(self.score(rules, view, worlds[0], a, 0)) for a in actions}
            done = 1
        return [(a, int(totals[a] / done)) for a in actions]

    def score(self, rules: Rules, view: SeatView, w: World, action: Action, depth: int) -> int:
        """The value for the seat of ``action`` now, then the rest of its turn at best, in
        world ``w``."""
        c = view.color
        e = 1 - c
        if isinstance(action, Move):
            if action.is_pass:
                after = w
            elif rules.has_pawns(c):
                # Shadow and Light deal no Wind cards: a move that is not a pass is a pawn step.
                assert action.from_sq is not None and action.to_sq is not None
                after = rules.pawn_step(w, c, action.from_sq, action.to_sq)
            else:
                after = w
            card = action.card
            if rules.has_pawns(c) and view.mode == "shadow" and after.ninjas[c] and rules.winner(after) is None:
                options = [rules.exchange(after, c, card)]
                for f, t in rules.ninja_moves(after, c, card):
                    options.append(rules.exchange(rules.ninja_step(after, c, f, t, bool(after.ninjas[e] >> t & 1)), c, card))
                return max(self._reply(rules, o, c, depth) for o in options)
            return self._reply(rules, rules.exchange(after, c, card), c, depth)
        if isinstance(action, NinjaMove):
            card = action.card
            after = rules.ninja_step(w, c, action.frm, action.to, False)
            return self._reply(rules, rules.exchange(after, c, card), c, depth)
        if isinstance(action, Strike):
            card = action.card
            hit = bool(w.ninjas[e] >> action.to & 1)
            after = rules.ninja_step(w, c, action.frm, action.to, True)
            return self._reply(rules, rules.exchange(after, c, card), c, depth) - (0 if hit else MISSED_STRIKE)
        # Skip of the Ninja step: the turn's card is exchanged.
        card = view.turn_card or w.hands[c][0]
        return self._reply(rules, rules.exchange(w, c, card), c, depth)

    @staticmethod
    def _reply(rules: Rules, w: World, c: int, depth: int) -> int:
        won = rules.winner(w)
        if won is not None:
            return WIN - 1 if won == c else -(WIN - 1)
        return -rules.negamax(w, depth, -WIN * 2, WIN * 2, 1)

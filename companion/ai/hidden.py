"""Playing Way of the Shadow and Way of the Light without peeking.

The seat's view gives the public board and its own Ninjas; :class:`~companion.ai.belief.Belief`
gives the enemy's possible Ninja placements. The player searches sampled worlds (determinizations,
:mod:`companion.ai.worlds`): every placement of the belief when there are few, else as many
different ones drawn at random as the level's budget allows. Each world is searched with full
information for a few turns; each action's scores are averaged over the worlds, with the share of
placements from which an enemy Ninja could take the seat's master counted exactly over the whole
belief (:class:`Strata`), and the level's imprecision on those averages. A strike that misses in a
sampled world costs the reveal of the striking Ninja. The enemy's reply to the seat's action does
not see the seat's hidden Ninjas: it is chosen by what the public record tells the enemy of them
(:class:`EnemyEye`), so it takes one only by the odds, and it keeps its master from them only as
well as that record allows, so a Ninja can lie in wait where the record says it is unlikely to be.
The ambush of the enemy's next turns, which the worlds cannot see (in each of them the seat's own
next turn knows the Ninjas), is counted over the whole belief (:mod:`companion.ai.ambush`), and
Lanterns are spent where their answer saves the master from it; where the Ninjas start is searched
(:mod:`companion.ai.shadow_play`). Every random choice is seeded by the seed and the seat's view
only: two games that look the same to the seat get the same ones.

The benchmarks' baseline (``uniform``) runs the same search on placements drawn uniformly over the
squares without pawns, learns nothing from the record (Lantern answers included) and lets the enemy
see its Ninjas in every world, as plain determinization does.
"""

from __future__ import annotations

import random
import time
from itertools import combinations
from typing import TYPE_CHECKING, Callable

from companion.rules.actions import LANTERNS, Action, Lantern, NinjaMove, Skip, Strike
from companion.rules.engine import Engine
from companion.rules.moves import Move
from companion.rules.position import COLORS

from .ambush import counted, lantern as ambush_lantern
from .belief import Belief
from .infoset import light_master_tree
from .search import WIN
from .shadow_play import EXPOSED_UNSEARCHED, WATCHED, EnemyEye, hide
from .view import SeatView
from .worlds import OutOfBudget, Rules, World

if TYPE_CHECKING:   # the Player holds this side: a real import is a cycle
    from .agent import Player

# A master lost at the enemy's second turn, per unit of its chance (WIN: as sure a loss as
# one at the first turn, which Strata weighs at a lost game's value).
AMBUSHED = WIN
# A Lantern is spent when its answer saves the master from the second turn's ambush in at
# least this share of the placements.
LANTERN_GAIN = 0.02
# The Light Master's worlds' evaluation times this, against its shares of lost games (at 1 a student
# was worth a thousandth of a game; 3, 10 and 30 measured: docs/ai-strength.md, session 36).
LIGHT_EVAL_SCALE = 30
# The share of a level's seconds its search may take: on a Pi at `medium`'s 0.05 s, the
# search ran over by up to 12 ms (the stretch between two looks at the clock, an evaluation
# table built, the scores' sum at the end).
SEARCHED = 0.75
# The shares of them by which the ambushes of the second turn, then the third, must be
# counted (on a Pi at `medium`, the second's for 300 placements took up to 0.16 s).
COUNTED, COUNTED_THIRD = 0.4, 0.5
MISSED_STRIKE = 40                      # a strike that misses shows the Ninja to the enemy
# Most worlds and turns searched per sampled world, by level; the level's node budget (or
# clock) may stop it sooner (the worlds come in a random order: those searched are a fair draw).
BUDGET = {"easy": (8, 1), "casual": (16, 2), "medium": (24, 2), "solid": (28, 2), "club": (32, 2),
          "keen": (32, 2), "strong": (32, 2), "advanced": (40, 2), "expert": (48, 2), "hard": (48, 3)}


class HiddenPlayer:
    """The Light & Shadow side of a :class:`~companion.ai.agent.Player`."""

    def __init__(self, player: Player, *, uniform: bool = False, ambush: bool = True,
                 clock: Callable[[], float] = time.perf_counter, tree: bool = False,
                 belief: str | None = None, eval_scale: int | None = None):
        self.player = player
        # The Light Master's evaluation scale (None: LIGHT_EVAL_SCALE; ``today``'s, 1, as it was).
        self.eval_scale = eval_scale if eval_scale is not None else LIGHT_EVAL_SCALE if ambush else 1
        # The Light Master's belief model (odds.MODELS; None: odds.LIGHT_MODEL); the earlier
        # agent (no ambush counted, the benchmarks' ``today``) reads the set, as it did.
        self.belief_model = belief if belief is not None or ambush else "set"
        self.clock = clock  # the level's seconds run on it, a decision's start to end (benchmarks: a Pi's pace)
        self.uniform = uniform      # benchmarks: sample enemy Ninjas uniformly, ignoring the record
        # Count the ambushes of the enemy's second turn (:mod:`companion.ai.ambush`); the
        # benchmarks measure against the agent without (``ambush=False``).
        self.ambush = ambush and not uniform
        self.tree = tree and self.ambush    # the Light Master's information-set tree (infoset.py)
        # The seat's belief and its reading of the enemy's, at the last decision: read on from.
        self.last_belief: Belief | None = None
        self.last_held: Belief | None = None
        # The modes whose enemy sees the seat's Ninjas (shadow_play); ``today`` is blind in all.
        self.watched: tuple[str, ...] = WATCHED if self.ambush else ()

    def choose(self, view: SeatView) -> str:
        started = self.clock()
        rng = self.player.rng(view)
        actions = view.actions()
        text = dict(zip(actions, view.legal))   # as the referee wrote it (with its card)
        if view.phase == "setup":   # where to hide the Ninjas: searched (shadow_play), by ``today`` drawn
            return text[hide(self.player, view, actions, rng, self.by(started, SEARCHED), self.clock)
                        if self.ambush else rng.choice(actions)]
        belief = self.last_belief = Belief(view, after=self.last_belief, model=self.belief_model)
        if view.phase == "lantern":
            if self.uniform:            # the baseline learns nothing from the answers
                return text[rng.choice(actions)]
            if self.ambush:
                return text[self.lantern_by_ambush(view, belief, actions,
                                                   (self.by(started, COUNTED), self.by(started, SEARCHED)))]
            pos = view.board()
            master = pos.red_master if view.color == 0 else pos.blue_master
            return text[self.lantern(belief, actions, master)]
        return text[self.search(view, belief, actions, rng, started)]

    def by(self, started: float, share: float) -> float | None:
        """When ``share`` of the level's seconds from ``started`` are gone, on ``clock`` (None: nodes)."""
        seconds = self.player.limits().seconds
        return None if seconds is None else started + seconds * share

    # -- Lanterns --------------------------------------------------------------------------

    @staticmethod
    def lantern(belief: Belief, actions: list[Action], master: int) -> Action:
        """The line whose yes/no answer leaves the fewest placements on average, when that
        is worth one of the two Lanterns: the belief spans 4 squares or more, a Ninja may
        stand within two steps of the seat's ``master`` (the answer matters now, before
        the Ninjas move on), and the answer is not foregone (each is at least one chance
        in four: the placements left average at most 5/8 of them)."""
        places = belief.placements
        squares = belief.squares()
        if not places or len(squares) < 4:
            return Skip()
        if master >= 0 and not any(max(abs(s // 5 - master // 5), abs(s % 5 - master % 5)) <= 2
                                   for s in squares):
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
        return best if best is not None and best_left <= n * 5 / 8 else Skip()

    def lantern_by_ambush(self, view: SeatView, belief: Belief, actions: list[Action],
                          by: tuple[float | None, float | None] = (None, None)) -> Action:
        """The line whose answer saves the master from the most ambushes of the enemy's
        next turns (:func:`~companion.ai.ambush.lantern`, on ``by``), when it saves it in at least
        ``LANTERN_GAIN`` of the placements; else no Lantern."""
        lines = [(a, sum(1 << s for s in a.squares())) for a in actions if isinstance(a, Lantern)]
        places, nodes = sorted(belief.placements) if belief.enemy_has_ninjas else [], self.player.limits().nodes
        best, gain = ambush_lantern(view, places, belief.engine, lines, self.clock, by, nodes,
                                    belief.weights(places))
        return best if best is not None and gain >= LANTERN_GAIN else Skip()

    # -- sampled worlds --------------------------------------------------------------------

    @staticmethod
    def samples(places: list[tuple[int, ...]], rng: random.Random, k: int,
                weights: list[float] | None = None) -> list[tuple[int, ...]]:
        """The worlds to search, in a random order: every candidate placement when there
        are at most ``k``, else ``k`` different ones drawn at random (a repeated world
        would spend the budget on what is already known), by their ``weights`` where the
        belief has them (each in turn drawn by its weight among those left)."""
        if not places:
            return [()]
        if weights is None or len(places) <= k:
            return rng.sample(places, min(k, len(places)))
        keys = sorted(((rng.random() ** (1.0 / w) if w > 0 else 0.0), i) for i, w in enumerate(weights))
        return [places[i] for _, i in reversed(keys[-k:])]

    def candidates(self, view: SeatView, belief: Belief) -> list[tuple[int, ...]]:
        """The placements the worlds are drawn from: the belief, or for the baseline (``uniform``)
        every placement of the enemy's hidden Ninjas on squares without pawns, revealed ones where
        they stand, nothing learnt from the record (what onitama.app's later commits do)."""
        if not belief.enemy_has_ninjas:
            return []
        if not self.uniform:
            return sorted(belief.placements)
        info = view.ninja_info(COLORS[1 - view.color])
        if info is None or not info.alive:
            return []
        pos = view.board()
        free = [s for s in range(25) if not (pos.red | pos.blue) >> s & 1 and s not in info.revealed]
        hidden = info.alive - len(info.revealed)
        return sorted(tuple(sorted(info.revealed + rest)) for rest in combinations(free, hidden))

    def weights(self, belief: Belief, places: list[tuple[int, ...]]) -> list[float] | None:
        """The weights of the candidate ``places`` (None: alike; the baseline's always)."""
        return None if self.uniform else belief.weights(places)

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
        return self._scored(view, Belief(view, model=self.belief_model), view.actions(), self.player.rng(view),
                            self.clock())

    def search(self, view: SeatView, belief: Belief, actions: list[Action], rng: random.Random,
               started: float) -> Action:
        return self.player.level.pick(self._scored(view, belief, actions, rng, started), rng)

    def _scored(self, view: SeatView, belief: Belief, actions: list[Action],
                rng: random.Random, started: float) -> list[tuple[Action, int]]:
        """Each action's score, the decision having ``started`` on ``clock``: the ambushes counted
        if that is done within ``COUNTED`` of the level's seconds (else not at all: counted for some
        actions only, they would favour the others), the worlds searched until ``SEARCHED`` of them."""
        player = self.player
        k, depth = BUDGET.get(player.level.name, (8, 2))
        light = None if view.light is None else COLORS.index(view.light)
        searcher = player.searcher(view)
        places = self.candidates(view, belief)
        weights = self.weights(belief, places)
        ambushed: dict[Action, float] = {}
        if self.ambush and places:
            ambushed = counted(view, places, belief.engine, actions, self.clock, (self.by(started, COUNTED),
                               self.by(started, COUNTED_THIRD)), player.limits().nodes, weights)
        deadline = self.by(started, SEARCHED)
        rules = Rules(view.mode, light, belief.engine, searcher.evaluate, deadline=deadline,
                      max_nodes=player.limits().nodes, clock=self.clock, scale=self.scale_for(view))
        drawn = self.samples(places, rng, k, weights)
        if self.tree and light == view.color and places:    # the Light Master: one tree over its worlds
            share = Strata(view, belief.engine, places, actions).share  # before the tree: on its clock
            if (tree := light_master_tree(rules, self.world(view, ()), places, rng)).iterations:
                return [(a, s - int(AMBUSHED * ambushed.get(a, 0.0))) for a, s in tree.scored(actions, share)]
        # On a clock, the answer for want of time is in hand before the worlds are searched:
        # found after the clock ran out, it made the decision late by as much.
        at_once = None if deadline is None else self.at_once(rules, view, drawn[0], actions)
        # The belief agent models what the enemy knows of its own hidden Ninjas; the baseline
        # (uniform) lets the enemy see them in every world, as plain determinization does.
        eye = None
        if view.own_ninjas and not self.uniform and view.mode not in self.watched:
            self.last_held = Belief.held_by_enemy(view, after=self.last_held)
            eye = EnemyEye(self.last_held)
        strata = Strata(view, belief.engine, places, actions, view.mode in self.watched, weights,
                        len(drawn) == len(places))
        for p in drawn:
            w = self.world(view, p)
            try:
                scores = {a: self.score(rules, view, w, a, depth - 1, eye) for a in actions}
            except OutOfBudget:
                break           # this world is unfinished: the others decide
            strata.add(p, scores)
        if not strata.done:
            scored = at_once or self.at_once(rules, view, drawn[0], actions)
        else:
            scored = [(a, strata.value(a)) for a in actions]
        return [(a, s - int(AMBUSHED * ambushed.get(a, 0.0))) for a, s in scored]

    def scale_for(self, view: SeatView) -> int:
        """The evaluation scale of the seat's worlds: ``eval_scale`` for the Light Master, else 1."""
        return self.eval_scale if view.seat == view.light else 1

    def at_once(self, rules: Rules, view: SeatView, placement: tuple[int, ...],
                actions: list[Action]) -> list[tuple[Action, int]]:
        """For want of time: the seat's own turn judged in the first world, without a budget."""
        free = Rules(rules.mode, rules.light, rules.engine, rules.evaluate_board, scale=rules.scale)
        w = self.world(view, placement)
        return [(a, self.score(free, view, w, a, 0)) for a in actions]

    def score(self, rules: Rules, view: SeatView, w: World, action: Action, depth: int,
              eye: EnemyEye | None = None) -> int:
        """The value for the seat of ``action`` now, then the rest of its turn at best, in
        world ``w``. With ``eye``, the enemy's reply is chosen without seeing the seat's
        hidden Ninjas (by what the record tells it of them)."""
        c = view.color
        e = 1 - c

        def reply(after: World, card: str, shown: int | None = None) -> int:
            """``after``: the seat's turn done with ``card``; ``shown``: where a Ninja of
            the seat stands in everyone's sight (its capture or strike)."""
            rules.blind = None if eye is None else (c, eye.odds(card, shown, after.pawns[c]),
                                                    eye.sighting(card, shown, after.pawns[c]))
            return self._reply(rules, rules.exchange(after, c, card), c, depth)

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
                values = [reply(after, card)]
                for f, t in rules.ninja_moves(after, c, card):
                    seen = bool((after.pawns[e] | after.ninjas[e]) >> t & 1)   # a capture or a strike
                    values.append(reply(rules.ninja_step(after, c, f, t, bool(after.ninjas[e] >> t & 1)), card,
                                        t if seen else None))
                return max(values)
            return reply(after, card)
        if isinstance(action, NinjaMove):
            after = rules.ninja_step(w, c, action.frm, action.to, False)
            return reply(after, action.card, action.to if w.pawns[e] >> action.to & 1 else None)
        if isinstance(action, Strike):
            hit = bool(w.ninjas[e] >> action.to & 1)
            after = rules.ninja_step(w, c, action.frm, action.to, True)
            return reply(after, action.card, action.to) - (0 if hit else MISSED_STRIKE)
        # Skip of the Ninja step: the turn's card is exchanged.
        return reply(w, view.turn_card or w.hands[c][0])

    @staticmethod
    def _reply(rules: Rules, w: World, c: int, depth: int) -> int:
        won = rules.winner(w)
        if won is not None:
            return WIN - 1 if won == c else -(WIN - 1)
        return -rules.negamax(w, depth, -WIN * 2, WIN * 2, 1)


class Strata:
    """Each action's average over the searched worlds, weighted by what matters most: whether
    an enemy Ninja could take the seat's master in reply. The share of candidate placements
    where one could is counted exactly, over all of them; the searched worlds give each part's
    average. With every candidate searched this is the plain average; with a sample it no
    longer lets a lucky or unlucky draw decide whether the master is safe."""

    def __init__(self, view: SeatView, engine: Engine, places: list[tuple[int, ...]],
                 actions: list[Action], watched: bool = False, weights: list[float] | None = None,
                 every: bool = False):
        # For each action: (the squares that reach the master, the pawn's landing square).
        self.attackers = self._attackers(view, engine, actions)
        # The enemy sees the seat's Ninjas (the player's ``watched``): an exposed part left
        # unsearched is a loss, not the other part's average (shadow_play).
        self.watched = watched
        self.share: dict[Action, float] = {}
        # With ``every`` placement searched, each world counts by its weight (a weighted
        # draw holds the weights already: its worlds count alike).
        self.world_weight = dict(zip(places, weights)) if weights is not None and every else {}
        masks = [sum(1 << s for s in p) for p in places]
        for a, (mask, landed) in self.attackers.items():
            if landed >= 0:
                mask &= ~(1 << landed)      # a Ninja on the pawn's landing square was taken by it
            if weights is None:
                hit = sum(1 for pm in masks if pm & mask)
                self.share[a] = hit / len(places) if places else 0.0
            else:       # the belief's weights (summing to 1)
                self.share[a] = sum(w for pm, w in zip(masks, weights) if pm & mask)
        self.sums: dict[Action, list[float]] = {a: [0.0, 0.0] for a in actions}
        self.counts: dict[Action, list[float]] = {a: [0.0, 0.0] for a in actions}
        self.done = 0

    @staticmethod
    def _attackers(view: SeatView, engine: Engine, actions: list[Action]) -> dict[Action, tuple[int, int]]:
        """For each action (of a seat with its master on the board): the squares from which
        an enemy Ninja reaches the master after it, and where its pawn landed (-1: none)."""
        pos = view.board()
        c = view.color
        master = pos.red_master if c == 0 else pos.blue_master
        out: dict[Action, tuple[int, int]] = {}
        if not 0 <= master < 25:
            return out
        reach = [engine.table(card)[1 - c].student_mask for card in pos.hands[1 - c]]
        around: dict[int, int] = {}
        for a in actions:
            m, landed = master, -1
            if isinstance(a, Move) and not a.is_pass and a.to_sq is not None:
                landed = a.to_sq
                if a.from_sq == master:
                    m = a.to_sq
            if m not in around:
                around[m] = sum(1 << n for n in range(25) if any(r[n] >> m & 1 for r in reach))
            out[a] = (around[m], landed)
        return out

    @staticmethod
    def exposed(p: tuple[int, ...], mask: int, landed: int) -> bool:
        """A Ninja of placement ``p`` reaches the master (one on the pawn's landing square
        was taken by it)."""
        return any(mask >> s & 1 and s != landed for s in p)

    def add(self, p: tuple[int, ...], scores: dict[Action, int]) -> None:
        """World ``p``'s scores, by its weight in its part's average."""
        weight = self.world_weight.get(p, 1.0)
        self.done += 1
        for a, score in scores.items():
            att = self.attackers.get(a)
            j = int(att is not None and self.exposed(p, *att))
            self.sums[a][j] += weight * score
            self.counts[a][j] += weight

    def value(self, a: Action) -> int:
        sums, counts = self.sums[a], self.counts[a]
        mean = sum(sums) / sum(counts)
        unsearched = (mean, EXPOSED_UNSEARCHED if self.watched else mean)
        part = [sums[j] / counts[j] if counts[j] else unsearched[j] for j in (0, 1)]
        share = self.share.get(a, 0.0)
        return int((1 - share) * part[0] + share * part[1])

"""Playing Way of the Shadow and Way of the Light without peeking.

The seat's view gives the public board and its own Ninjas; :class:`~companion.ai.belief.Belief`
gives the enemy's possible Ninja placements. The player searches sampled worlds
(determinizations): every placement of the belief when there are few, else as many different
ones drawn at random as the level's budget allows. Each world is searched with full
information for a few turns; each action's scores are averaged over the worlds, with the
share of placements from which an enemy Ninja could take the seat's master counted exactly
over the whole belief (:class:`Strata`), and the level's imprecision on those averages. A
strike that misses in a sampled world costs the reveal of the striking Ninja. The enemy's
reply to the seat's action does not see the seat's hidden Ninjas: it is chosen by what the
public record tells the enemy of them (:class:`EnemyEye`), so it takes one only by the odds,
and it keeps its master from them only as well as that record allows, so a Ninja can lie in
wait where the record says it is unlikely to be.
Lanterns are spent on the line that best splits the belief when a Ninja may be near the
master; Ninjas start on a square drawn at random. Every random choice is seeded by the seed
and the seat's view only, so two games that look the same to the seat get the same
decisions.

The benchmarks' baseline (``uniform``) runs the same search on placements drawn uniformly
over the squares without pawns, learns nothing from the record (Lantern answers included)
and lets the enemy see its Ninjas in every world, as plain determinization does.
"""

from __future__ import annotations

import random
import time
from itertools import combinations

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
# Most worlds and turns searched per sampled world, by level; the level's node budget (or
# clock) may stop it sooner (the worlds come in a random order, so those searched are a fair
# draw).
BUDGET = {"easy": (8, 1), "casual": (16, 2), "medium": (24, 2), "solid": (28, 2), "club": (32, 2),
          "keen": (32, 2), "strong": (32, 2), "advanced": (40, 2), "expert": (48, 2), "hard": (48, 3)}


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
        self._evaluated: dict[tuple, int] = {}
        self.deadline = deadline
        self.max_nodes = max_nodes
        # The enemy's reply to the seat's action, when the enemy cannot see the seat's hidden
        # Ninjas: (the seat's colour, for each square the odds that the enemy finds one of
        # them there, from what the public record tells it). None: the enemy sees them.
        self.blind: tuple[int, list[float], list[int]] | None = None
        self._exposure: dict[tuple, tuple[list[int], float]] = {}
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
            board = self._evaluated[key] = self.evaluate_board(
                (w.pawns[c], w.pawns[e], w.masters[c], w.masters[e], -1, c, w.hands[c], w.hands[e],
                 ((w.side,), ())))
        return board + NINJA[self.mode] * (w.ninjas[c].bit_count() - w.ninjas[e].bit_count())

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
            self.nodes += 1
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

    def exposure(self, w: World, me: int, seen_by: list[int]) -> float:
        """The share of the enemy's placements of the seat's Ninjas (``seen_by``, masks)
        from which one of them takes the enemy's master next, the seat to move in ``w``."""
        e = 1 - me
        m = w.masters[e]
        if m < 0 or not seen_by:
            return 0.0
        # Keyed by the list itself (kept alive in the entry, so its id is not reused): the
        # enemy's placements differ with the seat's card and what it showed.
        key = (id(seen_by), m, w.hands[me], w.pawns[e])
        entry = self._exposure.get(key)
        if entry is None:
            attack = 0
            for card in w.hands[me]:
                attack |= self.reverse(card, me)[0][m]
            attack &= ~w.pawns[e]
            entry = self._exposure[key] = (
                seen_by, sum(1 for pm in seen_by if pm & attack) / len(seen_by) if attack else 0.0)
        found = entry[1]
        return found

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
            pos = view.board()
            master = pos.red_master if view.color == 0 else pos.blue_master
            return text[self.lantern(belief, actions, master)]
        return text[self.search(view, belief, actions, rng)]

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

    # -- sampled worlds --------------------------------------------------------------------

    def samples(self, places: list[tuple[int, ...]], rng: random.Random, k: int) -> list[tuple[int, ...]]:
        """The worlds to search, in a random order: every candidate placement when there
        are at most ``k``, else ``k`` different ones drawn at random (a repeated world
        would spend the budget on what is already known)."""
        if not places:
            return [()]
        return rng.sample(places, min(k, len(places)))

    def candidates(self, view: SeatView, belief: Belief) -> list[tuple[int, ...]]:
        """The placements the worlds are drawn from: the belief, or for the baseline
        (``uniform``) every placement of the enemy's hidden Ninjas on squares without
        pawns, revealed ones where they stand, nothing learnt from the record (what
        onitama.app's later commits do)."""
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
        places = self.candidates(view, belief)
        drawn = self.samples(places, rng, k)
        # The belief agent models what the enemy knows of its own hidden Ninjas; the
        # baseline (uniform) lets the enemy see them in every world, as plain
        # determinization does.
        eye = EnemyEye(view) if view.own_ninjas and not self.uniform else None
        strata = Strata(view, searcher.engine, places, actions)
        for p in drawn:
            w = self.world(view, p)
            try:
                scores = {a: self.score(rules, view, w, a, depth - 1, eye) for a in actions}
            except OutOfBudget:
                break           # this world is unfinished: the others decide
            strata.add(p, scores)
        if not strata.done:
            # Not one world searched in time: judge the seat's own turn in the first one.
            rules.deadline = rules.max_nodes = None
            w = self.world(view, drawn[0])
            return [(a, self.score(rules, view, w, a, 0)) for a in actions]
        return [(a, strata.value(a)) for a in actions]

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
                                                    eye.masks(card, shown, after.pawns[c]))
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


class EnemyEye:
    """What the enemy can know of the seat's hidden Ninjas, read from the public record
    (:meth:`Belief.held_by_enemy`): for the end of the seat's turn, the odds per square
    that one of them stands there."""

    def __init__(self, view: SeatView):
        self.belief = Belief.held_by_enemy(view)
        self._odds: dict[tuple[str, int | None], list[float]] = {}
        self._masks: dict[tuple[str, int | None, int], list[int]] = {}

    def odds(self, card: str, shown: int | None, own_pawns: int) -> list[float]:
        """After the seat's turn with ``card`` (a Ninja of it ``shown`` on that square, or
        none): a Ninja never shares a square with its own side's pawn."""
        base = self._odds.get((card, shown))
        if base is None:
            places = self.belief.after_enemy_turn(card, shown)
            counts = [0] * 25
            for p in places:
                for sq in p:
                    counts[sq] += 1
            n = len(places) or 1
            base = self._odds[(card, shown)] = [k / n for k in counts]
        return [0.0 if own_pawns >> sq & 1 else base[sq] for sq in range(25)]

    def masks(self, card: str, shown: int | None, own_pawns: int) -> list[int]:
        """The same placements as masks, none on a square of the seat's pawns."""
        key = (card, shown, own_pawns)
        found = self._masks.get(key)
        if found is None:
            out = [sum(1 << sq for sq in p) for p in self.belief.after_enemy_turn(card, shown)]
            found = self._masks[key] = [pm for pm in out if not pm & own_pawns]
        return found


class Strata:
    """Each action's average over the searched worlds, weighted by what matters most:
    whether an enemy Ninja could take the seat's master in reply. The share of candidate
    placements where one could is counted exactly, over all of them; the searched worlds
    give each part's average. With every candidate searched this is the plain average;
    with a sample it no longer lets a lucky or unlucky draw decide whether the master is
    safe."""

    def __init__(self, view: SeatView, engine: Engine, places: list[tuple[int, ...]],
                 actions: list[Action]):
        pos = view.board()
        c = view.color
        master = pos.red_master if c == 0 else pos.blue_master
        self.attackers: dict[Action, tuple[int, int]] = {}   # (squares that reach the master, pawn's landing)
        if 0 <= master < 25:
            reach = [engine.table(card)[1 - c].student_mask for card in pos.hands[1 - c]]
            for a in actions:
                m, landed = master, -1
                if isinstance(a, Move) and not a.is_pass and a.to_sq is not None:
                    landed = a.to_sq
                    if a.from_sq == master:
                        m = a.to_sq
                mask = sum(1 << n for n in range(25) if any(r[n] >> m & 1 for r in reach))
                self.attackers[a] = (mask, landed)
        self.share: dict[Action, float] = {}
        for a, (mask, landed) in self.attackers.items():
            hit = sum(1 for p in places if self.exposed(p, mask, landed))
            self.share[a] = hit / len(places) if places else 0.0
        self.sums: dict[Action, list[float]] = {a: [0.0, 0.0] for a in actions}
        self.counts: dict[Action, list[int]] = {a: [0, 0] for a in actions}
        self.done = 0

    @staticmethod
    def exposed(p: tuple[int, ...], mask: int, landed: int) -> bool:
        """A Ninja of placement ``p`` reaches the master (one on the pawn's landing square
        was taken by it)."""
        return any(mask >> s & 1 and s != landed for s in p)

    def add(self, p: tuple[int, ...], scores: dict[Action, int]) -> None:
        self.done += 1
        for a, score in scores.items():
            att = self.attackers.get(a)
            j = int(att is not None and self.exposed(p, *att))
            self.sums[a][j] += score
            self.counts[a][j] += 1

    def value(self, a: Action) -> int:
        sums, counts = self.sums[a], self.counts[a]
        mean = sum(sums) / sum(counts)
        part = [sums[j] / counts[j] if counts[j] else mean for j in (0, 1)]
        share = self.share.get(a, 0.0)
        return int((1 - share) * part[0] + share * part[1])

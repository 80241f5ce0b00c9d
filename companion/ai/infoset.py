"""Information-set search for the Light Master: one tree over every world of its belief.

The sampled worlds of :mod:`companion.ai.hidden` are each searched as if the Shadow Master's
Ninjas stood where that world puts them, so the Light Master's next turn in each of them is
played knowing them (strategy fusion): a move that needs a lucky guess later looks safe.
Here one tree serves all worlds (single-observer information-set Monte Carlo tree search,
Cowling, Powley and Whitehouse, 2012). Each iteration draws a placement of the enemy's
Ninjas from the belief and walks the tree in that world:

- a node of the Light Master is keyed by what the Light Master has seen on the way there
  (its own moves, whether its pawn took a Ninja, the card each enemy turn played and where a
  Ninja took one of its pawns), never by where the Ninjas went: its choice there is one
  choice for every world that looks the same to it;
- the Shadow Master sees everything: at its nodes it picks among the Ninja steps open in the
  drawn world, each judged by its own statistics and counted only in the worlds where it was
  open (the availability count of the UCB rule).

A leaf past ``PLIES`` plies (or a new node) is judged as the worlds' search judges it: the
side to move that can take the master or enter the Temple at once wins, else the board's
evaluation with the Ninjas counted, squashed to a win chance. The root's statistics give each
of the seat's actions its score. Every draw comes from the seat's view: the placements of its
belief, in an order drawn by the player's generator, itself seeded by the view.
"""

from __future__ import annotations

import math
import random

from companion.rules.actions import Action
from companion.rules.moves import Move

from .search import WIN
from .worlds import OutOfBudget, Rules, World

# Plies below the root before a leaf is judged: the seat's move, the enemy's reply, the
# seat's blind reply and the enemy's second turn (where an ambush is sprung).
PLIES = 4
EXPLORE = 0.7           # the UCB rule's weight on the less tried
SCALE = 400.0           # evaluation units (hundredths of a student) per unit of log-odds
CAP = 6.0               # a leaf's score, at most, in units of SCALE (a win is WIN)

Key = tuple[str, int, int]      # (card, from, to); a pass: (card, -1, -1)


class _Edge:
    __slots__ = ("visits", "total", "worth", "avail", "taken")

    def __init__(self) -> None:
        self.visits = 0
        self.taken = 0          # at the root: the visits whose next turn took the master
        self.total = 0.0        # the Light Master's win chance, summed over the visits
        self.worth = 0.0        # its score (evaluation units, a lost game -WIN), summed
        self.avail = 0          # the iterations in which this move was open


class _Node:
    __slots__ = ("edges", "children")

    def __init__(self) -> None:
        self.edges: dict[Key, _Edge] = {}
        # What the Light Master saw of a move -> the node it leads to.
        self.children: dict[tuple[Key | str, int], _Node] = {}


class InfoSetSearch:
    """The tree of one decision of the Light Master (colour ``light``)."""

    def __init__(self, rules: Rules, light: int, rng: random.Random):
        self.rules = rules
        self.light = light
        self.rng = rng
        self.root = _Node()
        self.iterations = 0

    def run(self, start: World, places: list[int]) -> None:
        """Iterate from ``start`` (the enemy's Ninjas cleared: each iteration puts a drawn
        placement, a mask, there) until the rules' budget is spent."""
        ninjas = list(start.ninjas)
        try:
            while True:
                ninjas[1 - self.light] = self.rng.choice(places)
                w = World(start.pawns, start.masters, tuple(ninjas), start.hands, start.side, start.turn)
                self._iterate(w)
                self.iterations += 1
        except OutOfBudget:
            pass                # an iteration cut short adds nothing

    def scored(self, actions: list[Action], share: dict[Action, float]) -> list[tuple[Action, int]]:
        """Each action's score: the mean of its leaves' scores, a game lost or won counting
        as the worlds' search counts it (+-WIN). The visits in which the enemy took the
        master at once are replaced by ``share``, the exact share of the belief's
        placements from which it can (:class:`~companion.ai.hidden.Strata`): a sample's luck
        does not decide whether the master is safe (an action never tried: a loss)."""
        out = []
        for a in actions:
            k = key_of(a)
            edge = None if k is None else self.root.edges.get(k)
            if edge is None or not edge.visits:
                out.append((a, -WIN))
                continue
            lost = -(WIN - 1)
            rest = edge.visits - edge.taken
            mean = (edge.worth - edge.taken * lost) / rest if rest else lost
            p = share.get(a, edge.taken / edge.visits)
            out.append((a, int((1 - p) * mean + p * lost)))
        return out

    # -- one iteration ---------------------------------------------------------------------

    def _iterate(self, w: World) -> None:
        path: list[_Edge] = []
        node = self.root
        value = self._end(w)
        while value is None and len(path) < PLIES:
            self.rules.spend()
            moves = self._moves(w, node is not self.root)
            for k, _, _ in moves:
                edge = node.edges.get(k)
                if edge is None:
                    edge = node.edges[k] = _Edge()
                edge.avail += 1
            k, w, seen = self._select(node, moves, w.turn == self.light)
            edge = node.edges[k]
            path.append(edge)
            child = node.children.get(seen)
            if child is None:
                child = node.children[seen] = _Node()
            node = child
            value = self._end(w)
            if edge.visits == 0:
                break           # a new node: judged at once
        chance, worth = value or self._judge(w)
        if value is not None and not chance and len(path) == 2:
            path[0].taken += 1  # the enemy's first turn took the master
        for edge in path:
            edge.visits += 1
            edge.total += chance
            edge.worth += worth

    def _select(self, node: _Node, moves: list[tuple[Key, World, tuple[Key | str, int]]],
                light: bool) -> tuple[Key, World, tuple[Key | str, int]]:
        # A turn that wins at once is the one played (the Shadow Master takes the master
        # wherever it can): trying the others first would spread the visits thin.
        won = next((m for m in moves if self.rules.winner(m[1]) == (self.light if light else 1 - self.light)),
                   None)
        if won is not None:
            return won
        untried = [m for m in moves if not node.edges[m[0]].visits]
        if untried:
            return self.rng.choice(untried)
        best, best_ucb = moves[0], -1.0
        for m in moves:
            edge = node.edges[m[0]]
            mean = edge.total / edge.visits
            ucb = (mean if light else 1 - mean) + EXPLORE * math.sqrt(math.log(edge.avail) / edge.visits)
            if ucb > best_ucb:
                best, best_ucb = m, ucb
        return best

    def _moves(self, w: World, narrow: bool = False) -> list[tuple[Key, World, tuple[Key | str, int]]]:
        """Every turn of the side to move in ``w``: its key, the world after it, and what the
        Light Master sees of it (its own move and whether it took a Ninja; of the enemy's,
        the card and where a Ninja took a pawn, -1: nowhere)."""
        rules, c = self.rules, w.turn
        e = 1 - c
        out: list[tuple[Key, World, tuple[Key | str, int]]] = []
        if c == self.light:
            steps = rules.main_moves(w, c)
            if narrow:     # below the root: the turns that matter to an ambush (1,200 iterations)
                steps = _narrowed(steps, w.masters[c])
            for card, f, t in steps:
                after = rules.exchange(rules.pawn_step(w, c, f, t), c, card)
                out.append(((card, f, t), after, ((card, f, t), int(after.ninjas[e] != w.ninjas[e]))))
            if not steps:
                for card in w.hands[c]:
                    out.append(((card, -1, -1), rules.exchange(w, c, card), ((card, -1, -1), 0)))
            return out
        for card in w.hands[c]:
            for f, t in rules.ninja_moves(w, c, card):
                after = rules.exchange(rules.ninja_step(w, c, f, t, False), c, card)
                out.append(((card, f, t), after, (card, t if w.pawns[e] >> t & 1 else -1)))
        if not out:
            card = w.hands[c][0]
            out.append(((card, -1, -1), rules.exchange(w, c, card), (card, -1)))
        return out

    def _end(self, w: World) -> tuple[float, float] | None:
        won = self.rules.winner(w)
        return None if won is None else _won(won == self.light)

    def _judge(self, w: World) -> tuple[float, float]:
        """The Light Master's win chance and score at a leaf, the side to move's threats
        first."""
        if self.rules.wins_next(w):
            return _won(w.turn == self.light)
        score = max(-CAP * SCALE, min(CAP * SCALE, self.rules.evaluate(w)))
        if w.turn != self.light:
            score = -score
        return 1 / (1 + math.exp(-score / SCALE)), score


def _narrowed(steps: list[Key], master: int) -> list[Key]:
    """Below the root, the Light Master's turns that matter to an ambush: every step of its
    master, and for each card one step of a student (the master kept where it is, the card
    given away)."""
    out, cards = [], set()
    for card, f, t in steps:
        if f == master:
            out.append((card, f, t))
        elif card not in cards:
            cards.add(card)
            out.append((card, f, t))
    return out


def _won(light: bool) -> tuple[float, float]:
    return (1.0, WIN - 1) if light else (0.0, -(WIN - 1))


def key_of(action: Action) -> Key | None:
    """The tree's key of one of the Light Master's actions (None: not a move)."""
    if not isinstance(action, Move):
        return None
    if action.is_pass:
        return (action.card, -1, -1)
    assert action.from_sq is not None and action.to_sq is not None
    return (action.card, action.from_sq, action.to_sq)


def light_master_tree(rules: Rules, start: World, places: list[tuple[int, ...]],
                      rng: random.Random) -> InfoSetSearch:
    """The tree of the Light Master's decision in ``start`` (its turn, the enemy's Ninjas
    cleared), searched over ``places`` (the belief's placements) within ``rules``' budget."""
    tree = InfoSetSearch(rules, start.turn, rng)
    tree.run(start, [sum(1 << s for s in p) for p in places])
    return tree

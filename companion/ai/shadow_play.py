"""The Shadow side's own decisions in Light & Shadow: where to hide its Ninjas at set-up, and
what it takes the enemy to know of them.

**Where to hide a Ninja.** The set-up is a small decision, solved whole: each placement the
seat may choose (two squares beside the master in Way of the Shadow, ten pairs of the back
row for Way of the Light's Shadow Master) is searched, the game's first turns (``DEPTH``),
from every placement of the enemy's Ninjas the belief holds (at set-up, the two squares
beside its master; none against the Light Master), and scored by the average. Everything in
it is public or the seat's own: the deal's five cards, the board, the belief. The choice is
drawn at random among the placements within ``EVEN`` of the best: a hiding place picked by a
rule the enemy can run on the same public facts would tell it where the Ninja is, so where
the search cannot tell them apart (at two turns the Ninjas meet nothing in most deals) the
draw is even, as in the hiding game's equilibrium.

**What the enemy knows.** In Way of the Shadow the seat's search takes the enemy's replies to
see its Ninja (``WATCHED``). Taken blind to it, by what the public record tells the enemy
(:class:`~companion.ai.hidden.EnemyEye`), the seat stepped its Ninja beside enemy pawns and
lost it in most games to an enemy that knew where it was; guarded as seen, it scores the
same against a blind enemy (``docs/ai-strength.md``, Shadow). Way of the Light's Shadow
Master keeps the blind reading: there it wins more against a blind Light Master (86 % to
68 %) than it loses against one who sees.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

from companion.rules.actions import Action, Place

from .belief import Belief
from .search import WIN
from .view import SeatView
from .worlds import OutOfBudget, Rules, Sighting, World

if TYPE_CHECKING:   # the Player holds the hidden side that calls this: a real import is a cycle
    from .agent import Player

WATCHED = ("shadow",)
# The value of a move's worlds in which an enemy Ninja can take the master in reply, when the
# budget ran out before any of them was searched: a loss (the enemy, who sees its Ninja, takes
# it), not the average of the other worlds, which rated a master's step into a 38 % ambush
# its best move (seed 3004, docs/ai-strength.md, Shadow).
EXPOSED_UNSEARCHED = -(WIN - 1)
DEPTH = 2           # the first turn of each side
EVEN = 10           # placements within this of the best (hundredths of a student) are drawn evenly


def placed(view: SeatView, own: tuple[int, ...], enemy: tuple[int, ...]) -> World:
    """The start of the game with the seat's Ninjas on ``own``, the enemy's on ``enemy``."""
    pos = view.board()
    c = view.color
    ninjas = [0, 0]
    ninjas[c] = sum(1 << s for s in own)
    ninjas[1 - c] = sum(1 << s for s in enemy)
    return World((pos.red, pos.blue), (pos.red_master, pos.blue_master), (ninjas[0], ninjas[1]),
                 pos.hands, pos.side[0], pos.turn)


def hiding(view: SeatView, belief: Belief, rules: Rules, actions: list[Action]) -> list[tuple[Action, int]]:
    """Each set-up action's value for the seat: the first turns searched in every world of
    the belief, averaged (raises :class:`OutOfBudget` when ``rules``' budget runs out)."""
    enemies = sorted(belief.placements) if belief.enemy_has_ninjas else [()]
    scored: list[tuple[Action, int]] = []
    for action in actions:
        assert isinstance(action, Place), "the set-up's actions are placements"
        total = 0
        for enemy in enemies:
            w = placed(view, action.squares, enemy)
            value = rules.negamax(w, DEPTH, -WIN * 2, WIN * 2, 0)
            total += value if w.turn == view.color else -value
        scored.append((action, total // len(enemies)))
    return scored


def hide(player: Player, view: SeatView, actions: list[Action], rng: random.Random,
         deadline: float | None, clock: Callable[[], float]) -> Action:
    """The set-up: one of the placements within ``EVEN`` of the best value, drawn at random;
    any when the level's budget (``deadline`` on ``clock``, or its nodes) runs out first."""
    light = None if view.light is None else ("red", "blue").index(view.light)
    belief = Belief(view)
    rules = Rules(view.mode, light, belief.engine, player.searcher(view).evaluate,
                  deadline=deadline, max_nodes=player.limits().nodes, clock=clock)
    try:
        scored = hiding(view, belief, rules, actions)
    except OutOfBudget:
        return rng.choice(actions)
    best = max(s for _, s in scored)
    return rng.choice([a for a, s in scored if s >= best - EVEN])


class EnemyEye:
    """What the enemy can know of the seat's hidden Ninjas, read from the public record
    (:meth:`Belief.held_by_enemy`): for the end of the seat's turn, the odds per square
    that one of them stands there, and the placements themselves."""

    def __init__(self, held: Belief):
        self.belief = held          # Belief.held_by_enemy of the seat's view
        self._places: dict[tuple[str, int | None], list[int]] = {}
        self._odds: dict[tuple[str, int | None], list[float]] = {}
        self._sightings: dict[tuple[str, int | None, int], Sighting] = {}

    def _placements(self, card: str, shown: int | None) -> list[int]:
        """After the seat's turn with ``card`` (a Ninja of it ``shown`` on that square, or
        none): the enemy's placements of the seat's Ninjas, as masks."""
        found = self._places.get((card, shown))
        if found is None:
            found = self._places[(card, shown)] = [
                sum(1 << sq for sq in p) for p in self.belief.after_enemy_turn(card, shown)]
        return found

    def odds(self, card: str, shown: int | None, own_pawns: int) -> list[float]:
        """A Ninja never shares a square with its own side's pawn."""
        base = self._odds.get((card, shown))
        if base is None:
            places = self._placements(card, shown)
            n = len(places) or 1
            base = self._odds[(card, shown)] = [sum(pm >> sq & 1 for pm in places) / n
                                                for sq in range(25)]
        return [0.0 if own_pawns >> sq & 1 else base[sq] for sq in range(25)]

    def sighting(self, card: str, shown: int | None, own_pawns: int) -> Sighting:
        """The placements, none on a square of the seat's pawns."""
        key = (card, shown, own_pawns)
        found = self._sightings.get(key)
        if found is None:
            found = self._sightings[key] = Sighting(
                [pm for pm in self._placements(card, shown) if not pm & own_pawns])
        return found

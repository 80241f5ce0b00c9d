"""The hidden ways' search keeps its budget: a node budget is met exactly, and the clock is
looked at every few nodes (no test here reads a real clock: the clock is a counter)."""

import random

import pytest

from companion.ai.agent import Player
from companion.ai.belief import Belief
from companion.ai.hidden import EnemyEye, HiddenPlayer
from companion.ai.view import SeatView
from companion.ai.worlds import CLOCK_EVERY, OutOfBudget, Rules
from companion.rules.position import COLORS
from companion.rules.shadow import ShadowReferee


def _seats_to_move(count):
    """Seats to move in the move phase of random Shadow and Light games."""
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        ref = ShadowReferee.deal(("shadow", "light")[seed % 2], seed=seed, light=("red", "blue")[seed // 2 % 2])
        target = rng.randrange(4, 30)
        while ref.result is None and len(ref.log) < target:
            seat = ref.to_act()[0]
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
        if ref.result is None and ref.state.phase == "move":
            out.append(SeatView.from_view(ref.view(ref.to_act()[0])))
    return out


def _search_all(view, rules):
    """Every action searched three turns deep in the first world of the belief, the enemy's
    reply blind to the seat's Ninjas, as a decision does."""
    player = HiddenPlayer(Player("medium", seed=1))
    places = player.candidates(view, Belief(view))
    eye = EnemyEye(Belief.held_by_enemy(view)) if view.own_ninjas else None
    w = player.world(view, places[0] if places else ())
    for action in view.actions():
        player.score(rules, view, w, action, 2, eye)


def _rules(view, **limits):
    searcher = Player("medium").searcher(view)
    light = None if view.light is None else COLORS.index(view.light)
    return Rules(view.mode, light, searcher.engine, searcher.evaluate, **limits)


@pytest.mark.parametrize("budget", [100, 300])
def test_a_node_budget_is_met_exactly(budget):
    """The search stops at its node budget, not past it: the blind reply counts its
    children in a run, and a count looked at only on multiples of 256 missed the budget
    (it ran on to the next multiple it happened to land on)."""
    stopped = 0
    for view in _seats_to_move(16):
        rules = _rules(view, max_nodes=budget)
        try:
            _search_all(view, rules)
        except OutOfBudget:
            assert rules.nodes == budget
            stopped += 1
        else:
            assert rules.nodes < budget
    assert stopped > 4


def test_the_clock_is_looked_at_every_few_nodes():
    """A clock that ticks once each time it is read: the search stops at its deadline's
    tick, within CLOCK_EVERY nodes of each look."""
    for view in _seats_to_move(8):
        ticks = iter(range(10**9))
        rules = _rules(view, deadline=5, clock=lambda: next(ticks))
        with pytest.raises(OutOfBudget):
            _search_all(view, rules)
        assert rules.nodes <= 6 * CLOCK_EVERY



def test_the_ambushes_are_counted_in_time_or_not_at_all():
    """The Light Master's ambush count is done by its share of the level's time, or dropped:
    counted for some actions only, it would favour the others. A Lantern is chosen among
    the lines counted in time."""
    from companion.ai.ambush import Ambush
    from companion.rules.actions import LANTERNS

    views = [v for v in _seats_to_move(24) if v.mode == "light" and v.seat == v.light]
    assert views
    for view in views:
        ambush = Ambush(view, sorted(Belief(view).placements), Player("medium").searcher(view).engine)
        actions = view.actions()
        ticks = iter(range(10**9))
        assert ambush.shares(actions, lambda: next(ticks), None) == {a: ambush.share(a) for a in actions}
        ticks = iter(range(10**9))
        assert ambush.shares(actions, lambda: next(ticks), len(actions) - 1) == {a: ambush.share(a) for a in actions}
        ticks = iter(range(10**9))
        assert ambush.shares(actions, lambda: next(ticks), len(actions) - 2) is None
    view = views[0]
    ambush = Ambush(view, sorted(Belief(view).placements), Player("medium").searcher(view).engine)
    lines = [(a, sum(1 << s for s in a.squares())) for a in LANTERNS]
    ticks = iter(range(10**9))
    assert ambush.lantern(lines, lambda: next(ticks), -1) == (None, 0.0)
    assert ambush.lantern(lines, lambda: 0, None) == ambush.lantern(lines)

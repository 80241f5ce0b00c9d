"""The Light Master's information-set search (companion/ai/infoset.py): one tree over the
worlds of its belief, whose nodes of the Light Master are keyed by what it has seen, and
whose every number depends on nothing but the seat's view (twin worlds)."""

import random

from companion.ai.agent import Player
from companion.ai.belief import Belief
from companion.ai.hidden import HiddenPlayer
from companion.ai.infoset import key_of, light_master_tree
from companion.ai.levels import level
from companion.ai.view import SeatView
from companion.ai.worlds import Rules
from companion.rules.position import COLORS
from companion.rules.shadow import ShadowReferee

from twins import hidden_turn

from test_ai_ambush import FIRST_MOVE_3053

MEDIUM = level("medium").nodes


def _tree(view, seed=1, nodes=MEDIUM):
    player = Player("medium", seed=seed, nodes=nodes)
    belief = Belief(view)
    rules = Rules(view.mode, COLORS.index(view.light), belief.engine, player.searcher(view).evaluate,
                  max_nodes=nodes)
    start = HiddenPlayer(player).world(view, ())
    return light_master_tree(rules, start, sorted(belief.placements), player.rng(view)), belief


def test_the_light_masters_nodes_are_one_for_every_world_that_looks_the_same():
    """Below each first move, the Light Master's next nodes are keyed by what it sees of the
    Shadow Master's turn (the card, and where a Ninja took a pawn): at most one per card and
    capture square, however many placements and hidden Ninja steps led there. Keyed by the
    world, or by the enemy's hidden step, there would be many more."""
    tree, belief = _tree(FIRST_MOVE_3053)
    assert tree.iterations > 200
    pawns = FIRST_MOVE_3053.board().pawns(0).bit_count()
    hidden_steps = 0
    for shadow in tree.root.children.values():
        assert len(shadow.children) <= 2 * (1 + pawns)
        for seen in shadow.children:
            card, square = seen
            assert isinstance(card, str) and -1 <= square < 25
        hidden_steps += len(shadow.edges)
    # The Shadow Master's statistics are per hidden step (it sees everything).
    assert hidden_steps > 2 * len(tree.root.children)
    assert len(belief.placements) > 1


def test_the_tree_alone_rates_the_traced_trap_below_the_free_steps():
    """Seed 3053's traced loss began with Monkey c1d2, which the count of two enemy turns
    rates safe: the tree, with no ambush count, sees the master cornered after the blind
    reply and puts it in the lower half of the first moves."""
    tree, _ = _tree(FIRST_MOVE_3053)
    scores = dict(zip(FIRST_MOVE_3053.legal, (s for _, s in tree.scored(FIRST_MOVE_3053.actions(), {}))))
    ranked = sorted(scores, key=scores.get, reverse=True)
    assert ranked.index("Monkey c1d2") >= len(ranked) // 2, scores


def _root(tree, view):
    return [(t, tree.root.edges[key_of(a)].visits, tree.root.edges[key_of(a)].worth)
            for t, a in zip(view.legal, view.actions()) if key_of(a) in tree.root.edges]


def test_twin_worlds_grow_the_same_tree():
    """Way of the Light games whose Shadow Master made different hidden Ninja steps, with the
    same public record: the Light Master's tree in each has the same visits and scores at
    every first move (the twin test of every number the search gives, not only of the move
    it picks), and two players searching such trees make the same choice."""
    compared = 0
    for seed in range(40, 43):
        light = ("red", "blue")[seed % 2]
        rng = random.Random(seed)
        world = ShadowReferee.deal("light", seed=seed, light=light)
        twin = None
        players = (Player("medium", seed=5, nodes=300), Player("medium", seed=5, nodes=300))
        for player in players:
            player._hidden = HiddenPlayer(player, tree=True)
        while world.result is None and len(world.log) < 30:
            seat = world.to_act()[0]
            if seat == light:
                view = SeatView.from_view(world.view(seat))
                action = players[0].choose(view)
                if twin is not None and view.phase == "move" and view.log:
                    other = SeatView.from_view(twin.view(seat))
                    assert other == view
                    mine, theirs = _tree(view, 5, 400)[0], _tree(other, 5, 400)[0]
                    assert _root(mine, view) == _root(theirs, other)
                    assert players[1].choose(other) == action
                    compared += 1
                world.act(seat, action)
                if twin is not None:
                    twin.act(seat, action)
                    if twin.view(light) != world.view(light) or twin.result is not None:
                        twin = None         # a capture told the worlds apart
                continue
            twin, _ = hidden_turn(world, twin, seat, light, rng)
    assert compared > 8, compared

"""The Light Master's weighted belief (companion/ai/belief.py's models): its support is the
set, the truth always has a weight, the weights are a filter of the public record (the same
view gives the same weights, whatever the hidden truth), and the set's reading is unchanged."""

import math
import random
from itertools import combinations

import pytest

from companion.ai.agent import Player
from companion.ai.belief import Belief
from companion.ai.hidden import HiddenPlayer
from companion.ai.levels import level
from companion.ai.odds import LIGHT_MODEL, MODELS, spare
from companion.ai.view import SeatView
from companion.rules.shadow import ShadowReferee

from twins import hidden_turn

WEIGHTED = [m for m in MODELS if m != "set"]


def _games(seeds, plies=40):
    """Random Way of the Light games (both Light colours): every view of the Light Master
    with the referee's truth."""
    for seed in seeds:
        light = ("red", "blue")[seed % 2]
        shadow = "blue" if light == "red" else "red"
        rng = random.Random(seed)
        ref = ShadowReferee.deal("light", seed=seed, light=light)
        while ref.result is None and len(ref.log) < plies:
            seat = ref.to_act()[0]
            if seat == light:
                yield SeatView.from_view(ref.view(seat)), tuple(sorted(ref.state.ninjas[("red", "blue").index(shadow)]))
            ref.act(seat, rng.choice(ref.legal_actions(seat)))


def test_the_weighted_belief_is_the_set_with_weights_and_holds_the_truth():
    """In random games, for every model: read from the whole record and read on from the
    last decision, its placements are the set's, every weight is positive, the true placement
    among them; the weights read on are those read from the start; and some decisions weigh
    their placements unequally (else the model would be the set)."""
    uneven = dict.fromkeys(WEIGHTED, 0)
    kept = dict.fromkeys(WEIGHTED)
    for view, truth in _games(range(3)):
        plain = Belief(view, model="set")
        places = sorted(plain.placements)
        assert plain.weights(places) is None       # the set: every placement alike
        for model in WEIGHTED:
            weighted = Belief(view, model=model)
            kept[model] = Belief(view, after=kept[model], model=model)
            assert set(weighted.placements) == set(plain.placements)
            assert all(w > 0 for w in weighted.odds.values())
            assert truth in weighted.odds
            assert kept[model].odds == weighted.odds
            weights = weighted.weights(places)
            assert weights is not None and math.isclose(sum(weights), 1.0)
            uneven[model] += max(weights) > min(weights) * 1.01
    assert min(uneven.values()) > 10, uneven


def test_a_placement_that_could_have_taken_the_master_is_spared_only_in_part():
    """``spare``: before an enemy turn that did not take the master on c3, a placement with
    a Ninja that could have stepped there with a card of the enemy's hand keeps 2 % of its
    weight, the others all of theirs."""
    engine = Belief(next(_games([0]))[0]).engine
    model = MODELS["uniform-spared"]
    a1, b1, d1, a3, c5, e5 = 0, 1, 3, 10, 22, 24
    # Blue's Tiger reaches c3 from c5 (two squares down the board), Crab from a3 (two aside).
    odds = {(c5, e5): 1.0, (a1, b1): 1.0, (a3, e5): 0.5, (d1, e5): 0.5}
    out = spare(odds, model, engine, ("Tiger", "Crab"), 1, 12)
    assert out == {(c5, e5): 0.02, (a1, b1): 1.0, (a3, e5): 0.01, (d1, e5): 0.5}, out
    assert spare(odds, model, engine, ("Tiger",), 1, 12)[(a3, e5)] == 0.5


def test_a_quiet_turn_shares_each_placement_among_its_steps():
    """The filter by hand: from the Light Master's start (the Shadow Master's ten pairs on its
    back rank), one quiet enemy turn under ``uniform``: each pair's weight (1) is shared
    among the steps its Ninjas can take with the card played, and a pair reached from two
    pairs adds both shares."""
    for view, _ in _games([0, 1], plies=3):
        if len(view.log) != 2:
            continue
        belief = Belief(view, model="uniform")
        start = Belief(view, model="set")
        assert set(belief.placements) == set(start.placements)
        # Read it again, by hand, from the ten pairs: the enemy's turn is the log's second.
        card = belief.cards[view.log[1].split()[0]].name
        reach = belief.engine.table(card)[belief.enemy].student_mask
        back = range(20, 25) if belief.enemy == 1 else range(0, 5)
        expected: dict[tuple[int, ...], float] = {}
        for p in combinations(back, 2):
            steps = [(n, t) for n in p for t in range(25) if reach[n] >> t & 1 and t not in p]
            for n, t in steps:
                q = tuple(sorted(t if s == n else s for s in p))
                if q in belief.odds:
                    expected[q] = expected.get(q, 0.0) + 1 / len(steps)
        top = max(expected.values())
        assert {q: round(w / top, 9) for q, w in expected.items()} == \
            {q: round(w, 9) for q, w in belief.odds.items()}
        return
    pytest.fail("no game reached the Light Master's second decision")


def test_twin_worlds_give_the_same_weights_and_decisions():
    """Two Way of the Light games whose Shadow Master made different hidden Ninja steps, with
    the same public record: the Light Master's weighted beliefs are equal, weight for weight,
    under every model; and two Light Masters on the table's model (``LIGHT_MODEL``) with the
    same seed choose the same move, at `medium`'s node budget."""
    compared = decided = 0
    for seed in range(30, 34):
        light = ("red", "blue")[seed % 2]
        shadow = "blue" if light == "red" else "red"
        rng = random.Random(seed)
        world = ShadowReferee.deal("light", seed=seed, light=light)
        twin = None
        players = [_planner(3, LIGHT_MODEL) for _ in range(2)] if seed < 32 else None
        while world.result is None and len(world.log) < 30:
            seat = world.to_act()[0]
            if seat == light:
                view = SeatView.from_view(world.view(seat))
                mine = rng.choice(world.legal_actions(seat)) if players is None else players[0].choose(view)
                if twin is not None:
                    other = SeatView.from_view(twin.view(seat))
                    assert other == view
                    for model in WEIGHTED:
                        assert Belief(other, model=model).odds == Belief(view, model=model).odds
                    compared += 1
                    if players is not None:
                        assert players[1].choose(other) == mine
                        decided += 1
                    twin.act(seat, mine)
                world.act(seat, mine)
                if twin is not None and (twin.view(light) != world.view(light) or twin.result is not None):
                    twin = None
                continue
            assert seat == shadow
            twin, _ = hidden_turn(world, twin, seat, light, rng)
    assert compared > 20 and decided > 5, (compared, decided)


def _planner(seed, model):
    player = Player("medium", seed=seed, nodes=level("medium").nodes)
    player._hidden = HiddenPlayer(player, ambush=True, belief=model)
    return player

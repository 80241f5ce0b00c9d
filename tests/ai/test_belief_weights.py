"""The Light Master's weighted belief (companion/ai/belief.py's models): its support is the
set, the truth always has a weight, the weights are a filter of the public record (the same
view gives the same weights, whatever the hidden truth), and the set's reading is unchanged."""

import math
import random
from itertools import combinations

import pytest

from companion.ai.belief import Belief
from companion.ai.odds import MODELS
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


@pytest.mark.parametrize("model", WEIGHTED)
def test_the_weighted_belief_is_the_set_with_weights_and_holds_the_truth(model):
    """In random games, read from the whole record and read on from the last decision: each
    model's placements are the set's, every weight is positive, the true placement among
    them; the weights, read on, are those read from the start; and some decision weighs its
    placements unequally (else the model would be the set)."""
    uneven = 0
    kept = None
    for view, truth in _games(range(6)):
        plain = Belief(view)
        weighted = Belief(view, model=model)
        kept = Belief(view, after=kept, model=model)
        assert set(weighted.placements) == set(plain.placements)
        assert all(w > 0 for w in weighted.odds.values())
        assert truth in weighted.odds
        assert kept.odds == weighted.odds
        places = sorted(weighted.placements)
        weights = weighted.weights(places)
        assert weights is not None and math.isclose(sum(weights), 1.0)
        uneven += max(weights) > min(weights) * 1.01
        assert plain.weights(places) is None       # the set: every placement alike
    assert uneven > 20


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


@pytest.mark.parametrize("model", WEIGHTED)
def test_twin_worlds_give_the_same_weights(model):
    """Two Way of the Light games whose Shadow Master made different hidden Ninja steps, with
    the same public record: the Light Master's weighted beliefs are equal, weight for weight."""
    compared = 0
    for seed in range(30, 36):
        light = ("red", "blue")[seed % 2]
        shadow = "blue" if light == "red" else "red"
        rng = random.Random(seed)
        world = ShadowReferee.deal("light", seed=seed, light=light)
        twin = None
        while world.result is None and len(world.log) < 30:
            seat = world.to_act()[0]
            if seat == light:
                view = SeatView.from_view(world.view(seat))
                if twin is not None:
                    other = SeatView.from_view(twin.view(seat))
                    assert other == view
                    assert Belief(other, model=model).odds == Belief(view, model=model).odds
                    compared += 1
                mine = rng.choice(world.legal_actions(seat))
                if twin is not None:
                    twin.act(seat, mine)
                world.act(seat, mine)
                if twin is not None and (twin.view(light) != world.view(light) or twin.result is not None):
                    twin = None
                continue
            assert seat == shadow
            twin, _ = hidden_turn(world, twin, seat, light, rng)
    assert compared > 20

"""The belief is kept from one decision to the next: read on over the new turns only, it is
the belief read from the whole record, in random whole games with takebacks; and a computer
that keeps it still decides on its seat's view alone (twin worlds)."""

import random

from companion.ai.agent import Player
from companion.ai.belief import Belief
from companion.ai.view import SeatView
from companion.rules.shadow import ShadowReferee

from twins import hidden_turn


def _same(kept: Belief, read: Belief) -> None:
    assert kept.placements == read.placements, (kept.view.log, kept.view.phase)
    assert (kept.board.pawns, kept.board.masters) == (read.board.pawns, read.board.masters)
    assert (kept.folded is None) == (read.folded is None)
    if read.folded is not None:
        assert kept.folded is not None
        assert kept.folded[0] == read.folded[0] and kept.folded[1] == read.folded[1]


def test_the_belief_read_on_is_the_belief_read_from_the_whole_record():
    """Random whole games through the referee, both ways and both Light colours, with
    takebacks of one to three actions now and then (the record is then no extension of what
    was read, and the next action differs as often as not): at every step, for both seats,
    the belief and the reading of what the enemy knows, each read on from the last step's,
    equal those read from the whole record. Readings must have gone on from an earlier one,
    and takebacks must have come."""
    read_on = takebacks = 0
    for seed, (mode, light) in enumerate([("shadow", "red"), ("light", "red"), ("light", "blue")] * 2):
        rng = random.Random(seed)
        ref = ShadowReferee.deal(mode, seed=seed, light=light)
        kept: dict[tuple[str, bool], Belief] = {}
        while ref.result is None and len(ref.log) < 60:
            for seat in ("red", "blue"):
                view = SeatView.from_view(ref.view(seat))
                before = kept.get((seat, False))
                belief = kept[(seat, False)] = Belief(view, after=before)
                fresh = Belief(view)
                _same(belief, fresh)
                # A belief read on from leaves the one it read on from as it was.
                _same(Belief(view, after=before), fresh)
                held = kept[(seat, True)] = Belief.held_by_enemy(view, after=kept.get((seat, True)))
                _same(held, Belief.held_by_enemy(view))
                if before is not None and before.folded and before.folded[0] and belief.folded:
                    read_on += belief.folded[0][:len(before.folded[0])] == before.folded[0]
            if len(ref.log) > 6 and rng.random() < 0.08:
                for _ in range(rng.randint(1, 3)):
                    ref.undo()
                takebacks += 1
                continue
            seat = rng.choice(ref.to_act())
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
    assert read_on > 200
    assert takebacks > 3


def test_a_takeback_reads_the_record_again():
    """A belief after a takeback is read from the start: handed the belief of the longer
    record, it does not keep that record's last turn."""
    rng = random.Random(5)
    ref = ShadowReferee.deal("light", seed=5, light="red")
    while len(ref.log) < 12:
        seat = ref.to_act()[0]
        ref.act(seat, rng.choice(ref.legal_actions(seat)))
    later = Belief(SeatView.from_view(ref.view("red")))
    while len(ref.log) > 8:
        ref.undo()
    view = SeatView.from_view(ref.view("red"))
    assert Belief(view, after=later).placements == Belief(view).placements
    assert Belief(view, after=later).folded[0] == view.log


def test_a_kept_belief_decides_like_a_fresh_one_in_twin_worlds():
    """A computer seat that keeps its beliefs through a whole game, and one that meets the
    game afresh at each decision, in twin worlds (the same public game, the enemy's hidden
    Ninja steps different): every decision is the same for the three of them."""
    compared = 0
    for mode, seed, computer in (("light", 31, "red"), ("light", 32, "blue"), ("shadow", 33, "red"),
                                 ("shadow", 34, "blue")):
        rng = random.Random(seed)
        world = ShadowReferee.deal(mode, seed=seed, light="red")
        twin = None
        keeping, twin_keeping = Player("medium", seed=2, nodes=400), Player("medium", seed=2, nodes=400)
        while world.result is None and len(world.log) < 40:
            seat = world.to_act()[0]
            if seat == computer:
                view = SeatView.from_view(world.view(seat))
                mine = keeping.choose(view)
                assert Player("medium", seed=2, nodes=400).choose(view) == mine
                if twin is not None:
                    assert twin.view(seat) == world.view(seat)
                    assert twin_keeping.choose(SeatView.from_view(twin.view(seat))) == mine
                    compared += 1
                    twin.act(seat, mine)
                world.act(seat, mine)
                if twin is not None and (twin.view(computer) != world.view(computer) or twin.result is not None):
                    twin = None
                continue
            twin, made = hidden_turn(world, twin, seat, computer, rng)
            if made:    # the twin's computer meets the game here, and keeps its beliefs from now on
                twin_keeping = Player("medium", seed=2, nodes=400)
    assert compared > 10

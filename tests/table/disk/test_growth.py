"""A long game costs the same per turn at turn 550 as at turn 250 (issue 14: every saved state
kept its own copy of the move log, so each turn cost more than the one before)."""

import gc
import tracemalloc

from longgame import long_game

from companion.rules.ways import new_referee


def test_the_saved_states_share_the_move_log():
    moves = list(long_game(600, seed=3))
    assert len(moves) == 600
    ref = new_referee("base", seed=3)
    gc.collect()
    tracemalloc.start()
    try:
        used = {}
        for n, (seat, text) in enumerate(moves, 1):
            ref.act(seat, text)
            if n in (200, 300, 500, 600):
                gc.collect()
                used[n] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    early, late = (used[300] - used[200]) / 100, (used[600] - used[500]) / 100
    # Measured: about 0.9 kB a turn at both points; with a copied log, 2.8 kB and 5.3 kB.
    assert late < 2048 and late < 1.3 * early, (early, late)


def test_a_takeback_then_a_new_move_leaves_earlier_states_as_they_were():
    moves = list(long_game(6, seed=4))
    ref = new_referee("base", seed=4)
    for seat, text in moves[:5]:
        ref.act(seat, text)
    before = ref.state.log
    ref.undo()
    seat = ref.to_act()[0]
    other = next(a for a in ref.legal_actions(seat) if str(a) != moves[4][1])
    ref.act(seat, other)
    assert [t.full for t in before] == [m[1] for m in moves[:5]]
    assert [t.full for t in ref.log][:4] == [m[1] for m in moves[:4]] and len(ref.log) == 5
    assert ref.log[-1].full != moves[4][1] and before[-1].full == moves[4][1]
    assert ref.log[1:3] == tuple(before[1:3]) and ref.log != before

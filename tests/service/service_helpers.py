"""Helpers of the service tests (a unique module name: several test folders have helpers)."""

import time

FIXED = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
START = frozenset(list(range(5)) + list(range(20, 25)))


def wait_for(pred, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("condition not reached in time")


def playing(companion, hw, cards=FIXED):
    """A new base game with ``cards``, its pawns set up on the mat, ready for the first move."""
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": cards})
    hw.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")

"""Helpers of the service tests (a unique module name: several test folders have helpers)."""

from waiting import wait_for

FIXED = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
START = frozenset(list(range(5)) + list(range(20, 25)))


def playing(companion, hw, cards=FIXED):
    """A new base game with ``cards``, its pawns set up on the mat, ready for the first move."""
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": cards})
    hw.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")

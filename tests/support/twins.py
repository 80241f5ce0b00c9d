"""Twin worlds for the computer's secrets: the same public game with a different hidden choice.
The tests that compare the computer's decisions across twins share the hidden seat's side of
it here: a random turn, and the twin that follows it until the two worlds part in public."""

from __future__ import annotations

import random

from companion.rules.selfplay import secret_alternatives


def hidden_turn(world, twin, seat: str, observer: str, rng: random.Random):
    """``seat`` plays a random action in ``world``. Without a ``twin``, one is made when the
    action has secret alternatives (the twin plays one of them); a twin plays the same action.
    Returns the twin, or None once ``observer``'s view (or the result) tells the worlds apart,
    and whether the twin was made at this turn."""
    action = rng.choice(world.legal_actions(seat))
    made = False
    if twin is None:
        others = secret_alternatives(world, seat, action)
        if others:
            twin, made = world.copy(), True
            twin.act(seat, rng.choice(others))
    elif action in twin.legal_actions(seat):
        twin.act(seat, action)
    else:
        twin = None
    world.act(seat, action)
    if twin is not None and (twin.view(observer) != world.view(observer) or twin.result is not None):
        twin = None             # the worlds came apart in public: a new twin later
    return twin, made

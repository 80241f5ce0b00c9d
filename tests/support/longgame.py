"""Long games for growth tests and benchmarks: quiet moves (no capture, no win) chosen at
random, as two cautious players would shuffle their pawns for hundreds of turns."""

from __future__ import annotations

import random

from companion.rules.ways import new_referee


def _pieces(ref) -> int:
    # The engine's two bitboards, not the public view: a view also builds the whole move list,
    # which made a 600-turn game quadratic (100 s of a 104 s test).
    own, opp = ref.state.st[:2]
    return int(own).bit_count() + int(opp).bit_count()


def long_game(plies: int, seed: int = 1):
    """Yield ``(seat, action text)`` for ``plies`` quiet turns of one game (fewer if the game
    runs out of quiet moves). The referee is left as the game ends: ``yield`` comes first, the
    caller may play the turn on its own referee or table."""
    rng = random.Random(seed)
    ref = new_referee("base", seed=seed)
    for _ in range(plies):
        seat = ref.to_act()[0]
        actions = ref.legal_actions(seat)
        rng.shuffle(actions)
        before = _pieces(ref)
        for action in actions:
            ref.act(seat, action)
            if ref.result is None and _pieces(ref) == before:
                break
            ref.undo()
        else:
            return
        yield seat, ref.log[-1].full

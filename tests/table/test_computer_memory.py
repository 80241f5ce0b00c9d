"""The computer's players, and the search tables they hold, live as long as their game: a
new game lets the last one's go (the service's memory stays bounded over many games)."""

from __future__ import annotations

import gc
import weakref

from companion.ai.agent import Player
from companion.table.opponent import Thinking

from computer_helpers import set_up
from sim_table import sim_companion
from waiting import wait_for


def test_a_new_game_lets_the_last_games_players_go(tmp_path):
    made: list[weakref.ref] = []

    def player(level: str, seed: int, nodes: int | None) -> Player:
        p = Player(level, seed=seed, nodes=nodes)
        made.append(weakref.ref(p))
        return p

    thinking = Thinking(nodes=300, hint_nodes=300, players=player)
    with sim_companion(tmp_path / "games.db", public_url=None, computer=thinking, settle=0.05) as t:
        companion, hw = t.companion, t.hardware
        for seed in (1, 2, 3):
            companion.submit(None, {"type": "new_game", "variant": "base", "seed": seed,
                                    "computer": {"red": "medium", "blue": "medium"}})
            set_up(companion, hw)
            wait_for(lambda: companion.view(None)["game"]["expected"])
        gc.collect()
        alive = [ref for ref in made if ref() is not None]
        assert len(made) == 3 and len(alive) == 1 and alive[0] is made[-1]

"""Secrets by construction: a Knowledge game's face-down deck. Nothing public (the game list,
the public record, every audience's view) may tell its order before the end; the full record
reveals what ordered it once the game is over.

Twin worlds: two tables deal the same public game (the same request, the same public seed).
Every public output is the same in both, yet the decks differ, so no public number can be
what orders the deck. (Before the fix the deck was the public seed's shuffle: the twins held
the same deck, and so did a deck rebuilt from the published seed.)"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack

from companion.rules.ways import new_referee

from sim_table import sim_companion

REQUEST = {"type": "new_game", "variant": "knowledge", "seed": 5}


def public_outputs(companion) -> str:
    game_id = companion.view(None)["game"]["id"]
    games = [{k: v for k, v in g.items() if k != "created"} for g in companion.games()]
    views = [companion.view(s) for s in (None, "red", "blue")]
    return json.dumps([games, companion.record(game_id), views], sort_keys=True)


def hidden_deck(companion) -> tuple[str, ...]:
    # The server's own state, which no output may give away.
    return companion._game.referee.state.deck


def test_twin_tables_show_the_same_public_game_with_different_hidden_decks(tmp_path):
    with ExitStack() as stack:
        twins = [stack.enter_context(sim_companion(tmp_path / f"twin-{i}.db")).companion
                 for i in range(2)]
        for companion in twins:
            companion.submit(None, REQUEST)
        assert public_outputs(twins[0]) == public_outputs(twins[1])
        decks = [hidden_deck(c) for c in twins]
        assert len(decks[0]) == 11 and sorted(decks[0]) == sorted(decks[1])
        assert decks[0] != decks[1]
        # Nor is it the deck dealt from the public seed as published.
        public = json.loads(public_outputs(twins[0]))
        seed = public[0][0]["header"]["seed"]
        assert "hidden_seed" not in json.dumps(public)
        assert [hidden_deck(c) for c in twins].count(
            new_referee("knowledge", seed=seed, hidden_seed=seed).state.deck) < 2


def test_the_full_record_reveals_the_hidden_seed_at_the_end(tmp_path):
    rng = random.Random(3)
    with sim_companion(tmp_path / "games.db") as table:
        companion = table.companion
        game_id = companion.submit(None, REQUEST)["game"]
        deck = hidden_deck(companion)
        assert "hidden_seed" not in json.dumps(companion.record(game_id))
        while companion.view(None)["game"]["status"] != "finished":
            seat = companion.view(None)["table"]["to_act"][0]
            legal = companion.view(seat)["table"]["legal"]
            companion.submit(seat, {"type": "action", "text": rng.choice(legal)["text"]})
        header = companion.record(game_id)["header"]
        rebuilt = new_referee("knowledge", seed=header["seed"], hidden_seed=header["hidden_seed"])
        assert rebuilt.state.deck == deck
        assert "hidden_seed" not in json.dumps(companion.games())

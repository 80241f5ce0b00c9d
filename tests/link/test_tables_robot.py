"""The table robot across two companions and a real broker (slow: `-m slow`): whole random
games of every way two tables play, through both simulated mats, while the broker, either
companion and the connections are killed at random points. Every game must end at both
tables with the same actions saved once each. ROBOT_GAMES sets the number of games a way,
ROBOT_FIRST the first game's number (its seed): split a long run into chunks."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from companion.rules.ways import WAYS
from companion.table.computer import TABLE_WAYS

from two_tables import assert_honest, broker, play_across, rows, two_tables  # noqa: F401  (fixture)

GAMES = int(os.environ.get("ROBOT_GAMES", "3"))
FIRST = int(os.environ.get("ROBOT_FIRST", "0"))
KILLS = ("host", "guest", "broker", "connection")
KILL_P = 0.03          # per step of the robot: a few kills a game


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(TABLE_WAYS))
def test_the_robot_plays_across_two_tables_under_kills(tmp_path, broker, variant):
    counts: Counter[str] = Counter()
    for game in range(FIRST, FIRST + GAMES):
        rng = random.Random(f"{variant}-{game}")
        seat = rng.choice(["red", "blue"])
        with two_tables(tmp_path / f"g{game}", broker,
                        {"variant": variant, "seed": rng.randrange(1000), "table": [seat]}) as (host, guest):

            def harvest(side) -> None:
                """The answers and refusals of ``side``'s link so far (before it is replaced)."""
                link = side.links.link
                if link is not None:
                    counts.update({f"answer {k}": v for k, v in link.answers.items()})
                    counts["refused"] += len(link.refused)

            def between(step: int) -> None:
                if rng.random() < KILL_P:
                    kill = rng.choice(KILLS)
                    counts[kill] += 1
                    if kill == "broker":
                        broker.kill()
                        broker.start()
                    elif kill == "connection":
                        rng.choice([host, guest]).links.link.drop()
                    else:
                        side = host if kill == "host" else guest
                        harvest(side)
                        side.restart()

            play_across(host, guest, rng, between=between, max_steps=None)  # stuck: 30 s still
            assert rows(host) == rows(guest)
            seats = [s for s, _ in rows(host)]
            if WAYS[variant].table_half is None:
                assert all(a != b for a, b in zip(seats, seats[1:]))
            elif not WAYS[variant].ninjas:
                # Each table took every row once, in order (its referee checks each key
                # against its chain, each reveal against its commitment): the same game.
                logs = [side.companion.view(None)["table"]["log"] for side in (host, guest)]
                assert logs[0] == logs[1]
                texts = [text for _, text in rows(host)]
                if variant == "knowledge":
                    keys = sum(text.startswith("key ") for text in texts)
                    assert keys == 2 * sum("+" in turn for turn in logs[0])
                    counts["draws"] += keys // 2
                else:
                    kinds = [text.split()[0] for text in texts]
                    assert kinds == ["commit", "commit", "reveal", "reveal"] * (len(kinds) // 4)
                    assert host.companion.view(None)["table"]["result"]["how"] != "lie"
                    counts["turns"] += len(kinds) // 4
            else:
                # A hidden turn is several rows; each table's half took every row once, in
                # order, so the rules accepted them: the openings then pass the audit.
                assert_honest(host, guest)
            counts["games"] += 1
            counts["actions"] += len(seats)
            harvest(host)
            harvest(guest)
    print(f"\n{variant}: {dict(counts)}")
    assert counts["games"] == GAMES

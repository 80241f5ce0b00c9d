"""Resume: kill either table (a power cut: its save file kept), the broker (kill -9) or a
table's connection at any point of a game across two tables; each comes back and the game
goes on where it was, no move lost or applied twice."""

from __future__ import annotations

import random

import pytest

from two_tables import broker, play_across, rows, two_tables  # noqa: F401  (fixture)


def no_move_lost_or_doubled(host, guest) -> None:
    """Both saved the same actions once each, turns alternating as the rules have them."""
    assert rows(host) == rows(guest)
    seats = [seat for seat, _ in rows(host)]
    assert all(a != b for a, b in zip(seats, seats[1:])), seats


# A table and the broker in the default suite; the other table and a dropped connection with
# -m slow (the suite's time; the slow robot kills all four kinds at random points).
# The broker's kill by default; the tables' and the connection's with ``-m slow`` (the suite's
# 10 minutes), where the two-table robot kills all four at random too.
@pytest.mark.parametrize("kill", [pytest.param("host", marks=pytest.mark.slow),
                                  pytest.param("guest", marks=pytest.mark.slow), "broker",
                                  pytest.param("connection", marks=pytest.mark.slow)])
def test_a_game_goes_on_after_a_kill(tmp_path, broker, kill):
    rng = random.Random(kill)
    with two_tables(tmp_path, broker, {"variant": "base", "seed": 4, "table": ["blue"]}) as (host, guest):
        killed = []

        def between(step: int) -> None:
            # Twice: once the first move is saved at one table, and once three are.
            n = len(rows(host))
            if n in (1, 3) and n not in killed:
                killed.append(n)
                if kill == "broker":
                    broker.kill()
                    broker.start()
                elif kill == "connection":
                    for side in (host, guest):
                        side.links.link.drop()
                else:
                    (host if kill == "host" else guest).restart()

        result = play_across(host, guest, rng, between=between)
        assert killed == [1, 3] and result is not None
        no_move_lost_or_doubled(host, guest)

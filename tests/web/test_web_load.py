"""The load test, short (benchmarks/bench_load.py is the long one, with numbers): while 40
hostile connections are held open (public streams never read, more of them than the server
has threads; idle sockets, half-sent requests, trickled giant bodies), both seats play a whole Way of the Shadow game from their phones
and every request is answered. Correctness only: a timing never decides a test."""

from __future__ import annotations

import pytest

from companion.web import Server, create_app

from hostile import Crowd
from loadgame import SeatPhone, play_shadow
from sim_table import sim_companion

HOSTILE = 40
# More streams than the old server had threads (32), besides the other kinds.
KINDS = ("stream",) * 33 + ("idle", "idle", "half", "half", "giant", "giant", "giant")


@pytest.fixture
def served(tmp_path):
    with sim_companion(tmp_path / "games.db") as sim:
        app = create_app(sim.companion)
        server = Server(app, "127.0.0.1", 0).start()
        sim.companion.public_url = server.url
        yield server, app, sim.companion, sim.hardware
        server.stop()


def test_the_seats_play_a_whole_game_while_hostile_clients_hold_connections(served):
    server, app, companion, hardware = served
    crowd = Crowd(server.port, HOSTILE, per_address=10, kinds=KINDS).start()
    try:
        assert crowd.wait_open(HOSTILE), f"the crowd opened {crowd.open} of {HOSTILE}"
        phones = {seat: SeatPhone(server.url) for seat in ("red", "blue")}
        for seat, phone in phones.items():
            phone.join(companion.join_url(seat))
        outcome = play_shadow(companion, hardware.sim, phones, seed=5)
        assert outcome["result"] is not None, outcome
        # Every request of the seats was answered (play_shadow checks each status) while the
        # crowd came back as fast as it was turned away; the public streams stayed capped.
        assert crowd.connects > HOSTILE
        assert app.extensions["streams"].open_count()["shared"] <= 8
        # Nobody's giant body reached the game: the game is the one the seats dealt.
        assert companion.view(None)["game"]["variant"] == "shadow"
    finally:
        crowd.stop()

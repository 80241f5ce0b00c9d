"""Issue 22, row 7: at the connection limit the server sheds idle anonymous connections, it
never locks everyone out. 400 silent sockets from 25 loopback addresses (16 each, the
per-address cap) fill it; the seated phones and the table page are still served, every time,
and the silent sockets are the ones that made way."""

from __future__ import annotations

import socket
import time

import pytest

from companion.web import Server, create_app
from companion.web.server import LIMITS, PER_CLIENT, connections_by_client

from loadgame import SeatPhone
from sim_table import sim_companion

ADDRESSES = 25


@pytest.fixture
def served(tmp_path):
    with sim_companion(tmp_path / "games.db") as sim:
        app = create_app(sim.companion)
        server = Server(app, "127.0.0.1", 0).start()
        sim.companion.public_url = server.url
        yield server, sim.companion
        server.stop()


def silent_sockets(port: int) -> list[socket.socket]:
    socks = []
    for a in range(ADDRESSES):
        for _ in range(PER_CLIENT):
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5,
                                                  source_address=(f"127.0.0.{2 + a}", 0)))
    return socks


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_silent_sockets_at_the_limit_do_not_lock_the_seats_out(served):
    server, companion = served
    assert ADDRESSES * PER_CLIENT >= LIMITS["connection_limit"]
    phones = {seat: SeatPhone(server.url) for seat in ("red", "blue")}
    for seat, phone in phones.items():
        phone.join(companion.join_url(seat))
    table = SeatPhone(server.url)
    socks = silent_sockets(server.port)
    try:
        # Full (waitress counts its own listening socket and trigger in its limit too).
        wait_for(lambda: sum(connections_by_client(server.waitress).values())
                 >= LIMITS["connection_limit"] - 2)
        for _ in range(5):
            for seat, phone in phones.items():
                status, _ = phone.request("/seat/view", timeout=3)
                assert status == 200, seat
            assert table.request("/", timeout=3)[0] == 200
            assert table.request("/api/view", timeout=3)[0] == 200
        by_client = connections_by_client(server.waitress)
        assert sum(by_client.values()) <= LIMITS["connection_limit"]
        # The silent ones made way: fewer of them are open than were opened.
        assert sum(n for a, n in by_client.items() if a != "127.0.0.1") < len(socks)
    finally:
        for sock in socks:
            sock.close()

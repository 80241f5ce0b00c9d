"""A link that (re)starts sends only what the other table lacks, a table says where it is
every RESYNC_S however busy its link is, and its openings go out with the whole game.

The slow robot's stuck games (Light, Knowledge, under kills): after a restart a link did not
know how far the other table was and sent its whole game again. Each copy cost the other
table a turn of its game thread, so the one row it lacked came after all of them: seconds
under load, and the robot ran out of steps with one table a row or two behind. And a link
resynced only after RESYNC_S of quiet, which the other table's own resyncs could keep from
ever coming. And a game of halves' openings that went out with a row short were never sent
again (the other table waited for its audit for ever).

Two tables here are in-memory save files behind the real links and a real Mosquitto: no
companion, no mat; a test takes a few seconds."""

from __future__ import annotations

import threading
import time
from typing import Any

from companion.link import links as links_module
from companion.link import protocol
from companion.link.links import Links
from companion.link.peer import client
from companion.table.errors import Conflict
from companion.table.tables import LINK_KEY, TableState, new_name

from two_tables import broker  # noqa: F401  (fixture)
from waiting import wait_for

GAME_ID = 7


class Table:
    """A companion as its links see it: its saved actions in memory, the other table's
    action ``n`` saved at once; ``copies``: the numbers of the actions it was sent again
    though it had them when its links started."""

    def __init__(self, header: dict[str, Any], rows: list[tuple[str, str]]):
        self.header, self.rows = header, list(rows)
        self.had = len(rows)
        self.copies: list[int] = []
        self.watch: Any = None
        self.lock = threading.Lock()

    def state(self) -> TableState:
        return TableState(GAME_ID, len(self.rows), "playing", self.header)

    def watch_tables(self, watch: Any) -> None:
        self.watch = watch
        if watch is not None:
            watch(self.state())

    def submit(self, seat: str | None, request: Any, timeout: float = 5.0) -> Any:
        raise AssertionError("no new game here")

    def table_rows(self, game_id: int) -> list[tuple[str | None, str]]:
        with self.lock:
            return list(self.rows)

    def table_row(self, game_id: int, seat: str, n: int, text: str) -> str:
        with self.lock:
            if n < len(self.rows):
                if n < self.had:
                    self.copies.append(n)
                return "have"
            if n > len(self.rows):
                raise Conflict(f"action {n} came before action {len(self.rows)}")
            self.rows.append((seat, text))
        if self.watch is not None:
            self.watch(self.state())
        return "played"

    def table_openings(self, game_id: int) -> None:
        return None

    def table_verdict(self, game_id: int, verdict: dict[str, Any]) -> None:
        raise AssertionError("no audit in a base game")


def headers(broker_address: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The host's and the guest's header of one base game: the host plays Blue."""
    link = {"game": new_name(), "key": new_name(26), "broker": broker_address}
    common = {"variant": "base", "seed": 3, "start": "the game as dealt"}
    return ({**common, "table": ["red"], LINK_KEY: {**link, "role": "host"}},
            {**common, "table": ["blue"], LINK_KEY: {**link, "role": "guest"}})


MOVES = ["Ox a1a2", "Ox e5e4", "Ox a2a3", "Ox e4e3", "Ox a3b3", "Ox e3d3"]
ROWS = [("red" if n % 2 == 0 else "blue", text) for n, text in enumerate(MOVES)]


def test_links_that_start_again_send_only_what_the_other_table_lacks(broker):
    # Both tables come back at once (a broker and both companions killed), the guest (Red)
    # a row behind: the host's last move never reached it.
    host_header, guest_header = headers(broker.address)
    host, guest = Table(host_header, ROWS), Table(guest_header, ROWS[:-1])
    started = [Links(host, broker.address), Links(guest, broker.address)]   # type: ignore[arg-type]
    try:
        wait_for(lambda: guest.rows == host.rows, timeout=10,
                 message=lambda: f"the guest has {len(guest.rows)} of {len(host.rows)} rows")
        wait_for(lambda: all(links.link is not None and links.link.peer_have == len(ROWS)
                             for links in started), timeout=10)
    finally:
        for links in started:
            links.close()
    # Not one of the rows the other already had was sent again: the lacking row came first.
    assert host.copies == [] and guest.copies == []


def test_a_table_says_where_it_is_every_resync_however_busy_its_link(broker, monkeypatch):
    # The other table's words arrive more often than RESYNC_S (as its own resyncs did, each
    # just before this table's quiet ran out): this table must still say where it is.
    monkeypatch.setattr(links_module, "RESYNC_S", 0.4)
    host_header, _ = headers(broker.address)
    host = Table(host_header, ROWS)
    game = host_header[LINK_KEY]["game"]
    said: list[bytes] = []
    spy = client("", clean=True)
    spy.on_connect = lambda c, u, f, rc, p: c.subscribe(protocol.topic(game, "presence", "blue"), qos=1)
    spy.on_message = lambda c, u, msg: said.append(bytes(msg.payload))
    host_address = broker.address.rpartition(":")
    spy.connect(host_address[0], int(host_address[2]))
    spy.loop_start()
    links = Links(host, broker.address)                         # type: ignore[arg-type]
    stop = threading.Event()

    def busy() -> None:
        while not stop.wait(0.1):
            links._queue.put(("message", GAME_ID + 1, "elsewhere", b""))    # an old game's straggler

    pump = threading.Thread(target=busy, daemon=True)
    pump.start()
    try:
        wait_for(lambda: len(said) >= 1, timeout=10, message=lambda: "the host never said where it is")
        first = len(said)
        wait_for(lambda: len(said) >= first + 3, timeout=4,
                 message=lambda: f"{len(said) - first} presences in 4 s of resyncs every 0.4 s")
    finally:
        stop.set()
        pump.join()
        links.close()
        spy.loop_stop()
        spy.disconnect()


def test_openings_sent_a_row_short_go_again_with_the_whole_game(broker):
    # A game of halves ends; the link read the rows just before the last one was saved, then
    # the openings (the game over): they went out with a count one short. The other table,
    # with every row, audits only openings of its whole game: they must go out again.
    host_header, _ = headers(broker.address)
    host_header["variant"] = "light"
    host = Table(host_header, ROWS[:-1])
    host.table_openings = lambda game_id: {"1": ("Ox e5e4", "00" * 16)}   # type: ignore[assignment,method-assign]
    game = host_header[LINK_KEY]["game"]
    haves: list[Any] = []
    spy = client("", clean=True)
    spy.on_connect = lambda c, u, f, rc, p: c.subscribe(protocol.topic(game, "open", "blue"), qos=1)
    spy.on_message = lambda c, u, msg: haves.append(
        protocol.open_message(host_header[LINK_KEY]["key"], game, msg.topic, bytes(msg.payload))["have"])
    address = broker.address.rpartition(":")
    spy.connect(address[0], int(address[2]))
    spy.loop_start()
    links = Links(host, broker.address)                         # type: ignore[arg-type]
    try:
        wait_for(lambda: links.link is not None and links.link._mqtt.is_connected() and haves,
                 timeout=10, message=lambda: "no openings")
        time.sleep(0.5)                 # the link has said all it says on connecting
        with host.lock:
            host.rows.append(ROWS[-1])
        host.watch(host.state())
        wait_for(lambda: len(ROWS) in haves, timeout=4,
                 message=lambda: f"the openings went out with {haves} rows, the game has {len(ROWS)}")
    finally:
        links.close()
        spy.loop_stop()
        spy.disconnect()

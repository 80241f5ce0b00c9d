"""One game's link to the other table: an MQTT client and what it knows of the other side.

The saved game is the one truth. Each table publishes its own seat's actions, each with its
number and the hash of the game before it; and its presence, retained, with how many actions
it has (``have``). Whenever the other table's presence arrives (it came back, or it saved an
action) this table sends again every action of its own the other lacks; until the other has
said how far it is (its presence is retained, so it comes as soon as the link subscribes),
this table sends nothing. A table that hears the other is ahead of it asks again at once
(its presence), and every ``RESYNC_S`` while a game goes on (``links``). So a message lost
anywhere (a table killed before it saved, a broker killed with messages queued, Wi-Fi gone)
is sent again once both are back, and one that arrives twice is answered "have": nothing is
lost, nothing applied twice. QoS 1 and a persistent session make a resend rare, not needed.

Every method runs on the links' worker thread (:mod:`.links`), except paho's callbacks,
which only queue what they received.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from ..table.errors import TableError
from ..table.tables import TableState
from ..rules.errors import OnitamaError, RecordError
from ..rules.shadow import ShadowReferee
from ..rules.ways import way
from . import protocol
from .audit import Lie, audit_rows
from .protocol import Refused

log = logging.getLogger(__name__)

KEEPALIVE_S = 15       # the broker marks a table gone (its last will) within 1.5 times this


class Port(Protocol):
    """What a link needs of the service (``companion.table.tables.TableDoors``)."""
    def table_rows(self, game_id: int) -> list[tuple[str | None, str]]: ...
    def table_row(self, game_id: int, seat: str, n: int, text: str) -> str: ...
    def table_openings(self, game_id: int) -> dict[str, tuple[str, str]] | None: ...
    def table_verdict(self, game_id: int, verdict: dict[str, Any]) -> None: ...


def client(client_id: str, *, clean: bool) -> mqtt.Client:
    made = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                       protocol=mqtt.MQTTv311)
    made.reconnect_delay_set(min_delay=1, max_delay=2)
    return made


def deal_of(header: dict[str, Any]) -> dict[str, Any]:
    """The new-game request that deals the same game at the other table."""
    request: dict[str, Any] = {k: header[k] for k in ("variant", "sets", "wind_cards", "seed")
                               if k in header}
    if header.get("fixed"):
        fields = header["start"].split()
        request["cards"] = {"red": fields[2].split(","), "blue": fields[3].split(","),
                            "side": fields[4]}
    return request


class TableLink:
    """The link of game ``state.game_id`` (this table's seat ``here``), connected to
    ``broker`` (host, port) until :meth:`close`."""

    def __init__(self, port: Port, state: TableState, broker: tuple[str, int],
                 queue: Callable[[tuple[Any, ...]], None]):
        self.port = port
        self.game_id = state.game_id
        link = state.link
        self.game, self.key, self.role = link["game"], link["key"], link["role"]
        self.there = state.seating.table[0]
        self.here = "red" if self.there == "blue" else "blue"
        self.header = dict(state.header)
        self.start = str(state.header["start"])
        # The other table's count of actions, as it last said; None until it has spoken. A
        # link that (re)starts knows nothing of it: were it to send from 0, it would send its
        # whole game again, and each copy costs the other table a turn of its game thread, so
        # the row the other lacks came only after all of them (after a restart under load,
        # seconds: the slow robot's stuck games).
        self.peer_have: int | None = None
        self.peer_state = "unknown"     # online | gone | unknown
        self.status = state.status      # the game's, as the service last said
        self.refused: list[str] = []    # why messages were refused (tests and the record)
        self.answers: Counter[str] = Counter()   # the game thread's answers to the other's moves
        self._said: int | None = None   # the ``have`` this table last published
        self._rows: list[tuple[str | None, str]] = []
        # Moves that came before one this table has not saved yet (in a hidden way a turn is
        # several rows, and the first may wait on this mat as the expected move): by number.
        self._early: dict[int, dict[str, Any]] = {}
        # A game of halves with hidden Ninjas (Light & Shadow): at its end each table opens its
        # commitments and audits the other's (``lies``: None until the other's openings are
        # checked). Knowledge's and Simultaneous play's halves open nothing at the end: their
        # keys and reveals are checked as they come.
        played = way(state.header["variant"])
        self.halves = played.table_half is not None and played.ninjas
        self.lies: list[Lie] | None = None
        # The count of rows this table's openings went out with (None: not yet): the other
        # table audits them only once it has that many rows.
        self._opened: int | None = None
        self._their_openings: dict[str, Any] | None = None
        self._mqtt = client(f"ot-{self.game}-{self.here}", clean=False)
        self._mqtt.will_set(protocol.topic(self.game, "presence", self.here),
                            self._sealed("presence", state="gone"), qos=1, retain=True)
        self._mqtt.on_connect = lambda c, u, f, rc, p: self._connected(rc, queue)
        self._mqtt.on_message = lambda c, u, msg: queue(("message", self.game_id, msg.topic,
                                                         bytes(msg.payload)))
        self._mqtt.connect_async(broker[0], broker[1], keepalive=KEEPALIVE_S)
        self._mqtt.loop_start()

    def _connected(self, rc: Any, queue: Callable[[tuple[Any, ...]], None]) -> None:
        if getattr(rc, "is_failure", False):
            return
        # The other seat's topics only: MQTT 3.1.1 would echo this table's own back.
        self._mqtt.subscribe([(protocol.topic(self.game, kind, self.there), 1)
                              for kind in ("move", "presence", "open")])
        queue(("connected", self.game_id))

    def close(self) -> None:
        # Disconnecting first wakes paho's loop, which then ends at once (not after its
        # select's timeout). A clean goodbye: the broker keeps the session, drops the will.
        self._mqtt.disconnect()
        self._mqtt.loop_stop()

    def drop(self) -> None:
        """The network goes (tests): the socket closes without a goodbye, so the broker
        publishes this table's last will; paho connects again by itself."""
        sock = self._mqtt.socket()
        if sock is not None:
            sock.close()

    # -- sending ---------------------------------------------------------------------------

    def _sealed(self, kind: str, **fields: Any) -> bytes:
        seat = None if kind == "deal" else self.here
        return protocol.seal(self.key, {"v": protocol.VERSION, "game": self.game, "kind": kind,
                                        "seat": seat, **fields})

    def connected(self) -> None:
        """(Again) connected: the deal (the host's, retained), presence, and resends."""
        if self.role == "host":
            self._mqtt.publish(protocol.topic(self.game, "deal"),
                               self._sealed("deal", request=deal_of(self.header), start=self.start,
                                            host=self.here, guest=self.there),
                               qos=1, retain=True)
        self._said = None
        self._opened = None
        self.saved()

    def resync(self) -> None:
        """Say again where this table is (the other then sends what this table lacks), and
        send again what the other lacked at its last word."""
        self._said = None
        self.saved()

    def saved(self, ask: bool = False) -> None:
        """The game may have changed: say how far this table is, send what is new. ``ask``:
        the other has just said how far it is; when that is ahead of this table, say again
        how far this table is, so that it sends what this table lacks."""
        self._rows = self.port.table_rows(self.game_id)
        if ask and self.peer_have is not None and self.peer_have > len(self._rows):
            self._said = None
        hashes = protocol.chain(self.game, self.start, self._rows)
        if self._said != len(self._rows):
            self._said = len(self._rows)
            self._mqtt.publish(protocol.topic(self.game, "presence", self.here),
                               self._sealed("presence", state="online", have=len(self._rows),
                                            head=hashes[-1]), qos=1, retain=True)
        if self.peer_have is not None:
            self._send_from(self.peer_have, hashes)
        self._apply_early()
        if self.halves:
            self._open_all(hashes[-1])

    def _send_from(self, first: int, hashes: list[str]) -> None:
        for n in range(first, len(self._rows)):
            seat, action = self._rows[n]
            if seat == self.here:
                self._mqtt.publish(protocol.topic(self.game, "move", self.here),
                                   protocol.seal(self.key, protocol.move_body(
                                       self.game, self.here, n, action, hashes[n])), qos=1)

    def _apply_early(self) -> None:
        """The other table's moves that came early, now that this table has caught up."""
        while (body := self._early.pop(len(self._rows), None)) is not None:
            try:
                self._move(body)
            except Refused as exc:
                self.refused.append(str(exc))
                log.warning("table link: refused an early move: %s", exc)
        for n in [n for n in self._early if n < len(self._rows)]:
            del self._early[n]              # a copy of one this table has since saved

    def _open_all(self, head: str) -> None:
        """The game is over: open every commitment this table made (retained, so the other
        table finds them whenever it comes back), and audit the other's once they are here."""
        if self._opened != len(self._rows):
            openings = self.port.table_openings(self.game_id)
            # Read after the rows: the game may have ended since, with a row this link has
            # not read yet. Then the next ``saved`` (the game changed) sends them again, with
            # the whole game's count: sent with one row short, the other table, which has
            # them all, would wait for openings of its whole game for ever.
            if openings is not None and all(int(n) < len(self._rows) for n in openings):
                self._mqtt.publish(protocol.topic(self.game, "open", self.here),
                                   self._sealed("open", openings={n: list(o) for n, o in openings.items()},
                                                have=len(self._rows), head=head), qos=1, retain=True)
                self._opened = len(self._rows)
        if self._their_openings is not None and self.lies is None:
            self._audit(self._their_openings)

    def _audit(self, body: dict[str, Any]) -> None:
        """Check the other table's openings against the rows both saved: its lies (none, for
        an honest table) go into this table's record of the game."""
        head = protocol.chain(self.game, self.start, self._rows)[-1]
        if body.get("have") != len(self._rows) or body.get("head") != head:
            return                          # this table has not saved the whole game yet
        got = body.get("openings")
        if not isinstance(got, dict) or not all(isinstance(o, list) and len(o) == 2 and
                                                all(isinstance(x, str) for x in o) for o in got.values()):
            raise Refused("openings are {number: [text, salt]}")
        whole = way(self.header["variant"]).restart(self.header)
        assert isinstance(whole, ShadowReferee), "a game of halves is dealt as a whole Light & Shadow game"
        rows = [(str(seat), text) for seat, text in self._rows]
        try:
            lies = audit_rows(self.game, whole, rows, self.there, {n: (o[0], o[1]) for n, o in got.items()})
        except RecordError as exc:          # this table's own rows do not replay: said, not blamed
            log.error("table link: the audit could not replay this table's rows: %s", exc)
            return
        for lie in lies:
            log.warning("table link: the %s table lied (%s) at row %s: %s",
                        lie.seat, lie.kind, lie.ply, lie.detail)
        # Kept with the game's result first: ``lies`` says the audit is done and recorded.
        # The openings too: the record page shows the other table's Ninjas from them.
        self.port.table_verdict(self.game_id, {"checked": self.there, "lies": [
            {"seat": lie.seat, "kind": lie.kind, "row": lie.ply, "detail": lie.detail} for lie in lies],
            "openings": got})
        self.lies = lies

    # -- receiving -------------------------------------------------------------------------

    def received(self, topic_name: str, payload: bytes) -> None:
        try:
            body = protocol.open_message(self.key, self.game, topic_name, payload)
            if body["kind"] == "presence":
                self._presence(body)
            elif body["kind"] == "move":
                self._move(body)
            elif body["kind"] == "open" and self.halves:
                self._their_openings = body
                self._rows = self.port.table_rows(self.game_id)
                self._audit(body)
        except Refused as exc:
            self.refused.append(str(exc))
            log.warning("table link: refused a message on %s: %s", topic_name, exc)

    def _presence(self, body: dict[str, Any]) -> None:
        self.peer_state = str(body.get("state"))
        have = body.get("have")
        if self.peer_state == "online" and isinstance(have, int) and not isinstance(have, bool):
            self.peer_have = have
            self.saved(ask=True)    # what it lacks of this table's, again

    def _move(self, body: dict[str, Any]) -> None:
        self._rows = self.port.table_rows(self.game_id)
        n = body.get("n")
        if isinstance(n, int) and not isinstance(n, bool) and len(self._rows) < n <= len(self._rows) + 64:
            self._early[n] = body           # its hash is checked once this table has n actions
            return
        hashes = protocol.chain(self.game, self.start, self._rows)
        n, action = protocol.check_move(body, hashes)
        if n < len(self._rows) and self._rows[n] != (self.there, action):
            # Two tables saved different actions as number n: never in turns that alternate
            # (each referee lets only the seat to act play), so a fault to say, not to mend.
            raise Refused(f"move {n} differs from this table's action {n}")
        try:
            self.answers[self.port.table_row(self.game_id, self.there, n, action)] += 1
        except (TableError, OnitamaError) as exc:
            raise Refused(f"move {n}: {exc}") from None

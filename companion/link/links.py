"""The companion's links to other tables: one worker thread that keeps the current game's
:class:`~.peer.TableLink` connected, and the invite that starts a game at the other table.

The service tells the watcher after every event which game it has (``watch_tables``); the
watcher only queues a change, so the game thread never waits for the network. The worker
opens a link when a game linked to another table is current, closes it when the game is
replaced, and hands it everything paho received.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..table.errors import BadRequest
from ..table.tables import TableState
from ..table.viewtypes import Reply
from . import protocol
from .club import Club, watch
from .peer import Port, TableLink, client
from .protocol import Invite, Refused

log = logging.getLogger(__name__)

JOIN_WAIT_S = 10.0          # how long a guest waits for the host's deal on the broker
# While a game goes on, a table says where it is this often even when nothing happens: a
# message lost while the other table waits (a broker killed, a connection dropped at that
# moment) is then sent again within this time, and a stale "gone" is mended.
RESYNC_S = 5.0


class Companion(Port, Protocol):
    def watch_tables(self, watch: Any) -> None: ...
    def submit(self, seat: str | None, request: Any, timeout: float = 5.0) -> Reply: ...


class Links:
    """``broker``: where a host's games meet (host:port, the address written in its invites;
    a guest's game names its own, from the invite it took)."""

    def __init__(self, companion: Companion, broker: str):
        self.companion = companion
        self.broker = broker
        self.link: TableLink | None = None
        self._last: tuple[int, int, str] | None = None
        self._queue: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self._club: Club | None = None
        self._club_stop: Callable[[], None] | None = None
        self._thread = threading.Thread(target=self._run, name="table-links", daemon=True)
        self._thread.start()
        companion.watch_tables(self._watch)

    def club_games(self) -> list[dict[str, Any]]:
        """Every live game on this table's broker, read-only (the club page): watched from the
        first time it is asked for until the links close."""
        if self._club is None:
            host, _, port = self.broker.rpartition(":")
            self._club = Club()
            self._club_stop = watch((host, int(port)), self._club)
        return self._club.games()

    def close(self) -> None:
        if self._club_stop is not None:
            self._club_stop()
        self.companion.watch_tables(None)
        self._queue.put(("stop",))
        self._thread.join(timeout=10)

    def _watch(self, state: TableState | None) -> None:
        """Game thread, after every event: queue a change of game or of its saved actions."""
        key = None if state is None else (state.game_id, state.seq, state.status)
        if key != self._last:
            self._last = key
            self._queue.put(("state", state))

    # -- the invite --------------------------------------------------------------------------

    def invite(self) -> Invite | None:
        """The current game's invite, when this table is its host."""
        link = self.link
        if link is None or link.role != "host":
            return None
        return Invite(self.broker, link.game, link.key)

    def invite_code(self) -> str | None:
        invite = self.invite()
        return None if invite is None else invite.code()

    def pending_invite(self) -> str | None:
        """The invite while the other table has not come yet (the OLED shows it then)."""
        link = self.link
        return None if link is None or link.peer_state != "unknown" else self.invite_code()

    def join(self, code: str, timeout: float = JOIN_WAIT_S) -> Reply:
        """Take an invite: read the host's deal from the broker, and deal the same game here,
        the host's seat played at the host's table. :class:`BadRequest` when the code is not
        an invite, or no deal signed with its key came in time."""
        if not isinstance(code, str):
            raise BadRequest("an invite is text: OT1:HOST:PORT/GAME/KEY")
        try:
            invite = Invite.parse(code)
            deal = fetch_deal(invite, timeout)
        except Refused as exc:
            raise BadRequest(str(exc)) from None
        request = {"type": "new_game", **deal["request"], "table": [deal["host"]],
                   "link": {"game": invite.game, "key": invite.key, "role": "guest",
                            "broker": invite.broker}}
        return self.companion.submit(None, request)

    # -- the worker --------------------------------------------------------------------------

    def _run(self) -> None:
        # The resync is due every RESYNC_S whatever comes in meanwhile: were it due only after
        # RESYNC_S of quiet, the other table's own resyncs (one every RESYNC_S) could keep
        # this one from ever saying where it is.
        due = time.monotonic() + RESYNC_S
        while True:
            try:
                item: tuple[Any, ...] | None = self._queue.get(timeout=max(0.0, due - time.monotonic()))
            except queue.Empty:
                item = None
            if item is not None and item[0] == "stop":
                self._open(None)
                return
            if time.monotonic() >= due:
                due = time.monotonic() + RESYNC_S
                self._safely(("resync",))
            if item is not None:
                self._safely(item)

    def _safely(self, item: tuple[Any, ...]) -> None:
        try:
            self._handle(item)
        except Exception:                   # one bad event must not end the links
            log.exception("table link: %s failed", item[0])

    def _handle(self, item: tuple[Any, ...]) -> None:
        kind, link = item[0], self.link
        if kind == "state":
            self._open(item[1])
            if self.link is not None:
                self.link.status = item[1].status
                self.link.saved()
        elif kind == "resync":
            if link is not None and link.status != "finished":
                link.resync()
        elif link is not None and item[1] == link.game_id:      # not an old game's stragglers
            if kind == "connected":
                link.connected()
            elif kind == "message":
                link.received(item[2], item[3])

    def _open(self, state: TableState | None) -> None:
        if self.link is not None and (state is None or state.game_id != self.link.game_id):
            self.link.close()
            self.link = None
        if state is not None and self.link is None:
            broker = state.link.get("broker") or self.broker
            host, _, port = broker.rpartition(":")
            self.link = TableLink(self.companion, state, (host, int(port)), self._queue.put)


def fetch_deal(invite: Invite, timeout: float) -> dict[str, Any]:
    """The host's deal, retained on the broker, checked against the invite's key."""
    got: queue.Queue[dict[str, Any]] = queue.Queue()
    reader = client("", clean=True)

    def on_message(c: Any, u: Any, msg: Any) -> None:
        try:
            got.put(protocol.open_message(invite.key, invite.game, msg.topic, bytes(msg.payload)))
        except Refused as exc:
            log.warning("table link: refused a deal: %s", exc)

    reader.on_connect = lambda c, u, f, rc, p: c.subscribe(protocol.topic(invite.game, "deal"), qos=1)
    reader.on_message = on_message
    reader.connect_async(invite.host, invite.port, keepalive=10)
    reader.loop_start()
    try:
        deal = got.get(timeout=timeout)
    except queue.Empty:
        raise Refused(f"no game {invite.game} on {invite.broker} (or not with this key)") from None
    finally:
        reader.loop_stop()
        reader.disconnect()
    if not isinstance(deal.get("request"), dict) or deal.get("host") not in ("red", "blue"):
        raise Refused("the host's deal is not one this table can play")
    return deal

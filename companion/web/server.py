"""Serving the app with waitress on a thread of its own (the CLI and the tests alike).

Why waitress holds up under hostile clients. Waitress reads every request on one socket loop
(this module's thread) and hands it to a worker thread only once it has arrived whole, body
included. An idle socket, a half-sent request or a trickled body therefore costs a socket and
a few kilobytes, never a worker; only a running request does. What can hold a worker for long
is an event stream, and ``streams.Streams`` caps those (public and simulation streams share a
few slots; each seat keeps its own), so ``THREADS`` always leaves workers for the seats' pages
and actions. What waitress leaves open, this module closes:

- ``LIMITS``: waitress's own caps. A body longer than the app's cap is refused with 413 as its
  headers arrive (``max_request_body_size``), so nothing is ever spooled to a temporary file;
  nor is a slow reader's output (``outbuf_overflow`` above ``outbuf_high_watermark``: the
  stream waits instead). Headers are capped at a size any phone's request fits in.
- ``GuardedServer``: at most ``PER_CLIENT`` connections per client address (a further one is
  closed at once); a request still incomplete after ``REQUEST_S`` is dropped (a trickled
  header keeps a socket "active" for ever otherwise); and a connection whose output has not
  moved for ``STALLED_S`` is closed, which ends a stream its client stopped reading.
- The connection limit sheds instead of locking out. Waitress's own stops accepting at
  ``connection_limit`` until connections time out (``channel_timeout``), so a few hundred
  silent sockets from a few dozen addresses kept every phone out for a minute, again and
  again. Here the server always accepts: at the limit, a new connection takes the place of
  an idle one (:func:`shed_order`): first one that never sent a byte, then one whose request
  is still arriving (nobody knows yet who sent it), then a keep-alive connection between
  requests, longest idle first. A connection serving a request (a stream) is never shed, so
  a seated phone and the table page always get a connection.

``Server.stop`` ends the streams first (they notice within half a second), lets the worker
threads finish, then closes every connection from the server's own loop thread, so the
process exits without a hung request or a traceback.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from typing import Any

from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer

from .app import MAX_BODY

THREADS = 24          # streams take at most MAX_SHARED + MAX_TABLE + 2 * PER_SEAT (streams.py)
PER_CLIENT = 16       # connections at once from one address (a phone opens about six)
REQUEST_S = 10        # the longest a request may take to arrive, headers and body
STALLED_S = 30        # the longest a client may leave our output unread
LOOP_TIMEOUT_S = 0.2  # how often the socket loop checks whether it should stop

LIMITS = {
    "connection_limit": 400,         # at this, an idle connection makes way (shed_order)
    "channel_timeout": 60,           # an idle keep-alive connection
    "cleanup_interval": 2,           # how often the timeouts above are checked
    "max_request_header_size": 16 * 1024,
    "max_request_body_size": MAX_BODY + 1,   # waitress refuses a length >= this one
    "inbuf_overflow": 64 * 1024,
    "outbuf_high_watermark": 256 * 1024,
    "outbuf_overflow": 1024 * 1024,  # above the watermark: a response never reaches the disk
    "backlog": 128,
    "asyncore_use_poll": True,       # select() fails beyond 1024 descriptors
}


def shed_order(channels: list[Any]) -> list[Any]:
    """The connections that may make way for a new one, the first to go first: silent ones
    (never a byte received), then half-sent requests, then idle keep-alive ones; oldest or
    longest idle first within each. A connection with a request being served (a stream, a
    page) or output still to send is not among them."""
    def rank(ch: Any) -> tuple[int, float]:
        if ch.last_activity == ch.creation_time:
            return 0, ch.creation_time
        return (1 if ch.request is not None else 2), ch.last_activity
    idle = [ch for ch in channels if not ch.requests and not ch.total_outbufs_len
            and not ch.will_close and ch.connected]
    return sorted(idle, key=rank)


class GuardedServer(TcpWSGIServer):
    """Waitress's TCP server with a per-address connection cap, request and stall timeouts,
    and a connection limit that sheds idle connections rather than stop accepting."""

    def readable(self) -> bool:
        # Waitress's readable() stops accepting at the connection limit (see the module's
        # doc): its housekeeping is kept, its gate replaced by shedding in handle_accept.
        server: Any = self
        now = time.time()
        if now >= server.next_channel_cleanup:
            server.next_channel_cleanup = now + server.adj.cleanup_interval
            self.maintenance(now)
        return bool(server.accepting)

    def channels(self) -> list[Any]:
        """The open connections. Any: waitress's stubs (types-waitress) type ``active_channels``
        wrongly and leave out the channels' fields used here."""
        server: Any = self
        return list(server.active_channels.values())

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        client = addr[0] if isinstance(addr, tuple) else addr
        open_now = sum(1 for ch in self.channels() if isinstance(ch.addr, tuple) and ch.addr[0] == client)
        if open_now >= PER_CLIENT:
            conn.close()
            return
        server: Any = self
        channels = self.channels()
        if len(channels) >= server.adj.connection_limit:
            victims = shed_order(channels)
            if not victims:
                conn.close()              # every connection is serving a request: none idle
                return
            victims[0].handle_close()
        self.channel_class(self, conn, addr, self.adj, map=server._map)

    def maintenance(self, now: Any) -> None:     # a float (time.time()); the stubs say int
        super().maintenance(now)
        for channel in self.channels():
            partial = channel.request
            if partial is not None and not partial.completed:
                # Stamped the first time it is seen: accurate to ``cleanup_interval``.
                started = partial.__dict__.setdefault("guard_started", now)
                if now - started > REQUEST_S:
                    channel.will_close = True
            if channel.total_outbufs_len and now - channel.last_activity > STALLED_S:
                channel.will_close = True


def connections_by_client(server: GuardedServer) -> Counter[str]:
    """How many connections each client address holds now (for tests and benchmarks)."""
    return Counter(ch.addr[0] for ch in server.channels() if isinstance(ch.addr, tuple))


class Server:
    """A waitress server for ``app``; the port is bound at once (``port=0`` picks a free one)."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 8000, *, threads: int = THREADS):
        self.app = app
        adj = Adjustments(host=host, port=port, threads=threads, ident="onitama-companion",
                          **LIMITS)
        # Any: waitress's stubs leave out effective_host/effective_port and the socket map.
        server: Any = GuardedServer(app, map={}, adj=adj)
        self._server = server
        # The app's Host check accepts the address it is bound to (see guard.py).
        app.config.setdefault("SERVED_HOSTS", set()).add(server.effective_host)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return self._server.effective_host

    @property
    def port(self) -> int:
        # int(): waitress reports the bound port as a string (mDNS wants a number).
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def waitress(self) -> GuardedServer:
        server: GuardedServer = self._server
        return server

    def start(self) -> Server:
        """Serve on a background thread; returns at once. The caller's main thread stays free
        for its signal handlers (the CLI stops on SIGTERM and Ctrl-C)."""
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._server.asyncore.loop(timeout=LOOP_TIMEOUT_S, map=self._server._map, count=1,
                                           use_poll=True)
        finally:
            self._close_sockets()

    def stop(self) -> None:
        """End the streams, finish the requests under way, close every connection."""
        if self._stop.is_set():
            return
        self.app.extensions["streams"].stop()
        # Returns once the streams have ended (each within streams.POLL_S) and the other
        # requests are done; the socket loop keeps running meanwhile to send their last bytes.
        self._server.task_dispatcher.shutdown(cancel_pending=True, timeout=3)
        self._stop.set()
        try:
            self._server.pull_trigger()
        except OSError:
            # The loop saw the stop by itself and has closed its sockets, the trigger among
            # them: it is over already, there is nothing left to wake.
            pass
        if self._thread is not None:
            self._thread.join(5)
        else:
            self._close_sockets()

    def _close_sockets(self) -> None:
        for dispatcher in list(self._server._map.values()):
            try:
                dispatcher.close()
            except OSError:
                logging.getLogger(__name__).debug("closing %r", dispatcher, exc_info=True)


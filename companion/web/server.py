"""Serving the app with waitress on a thread of its own (the CLI and the tests alike).

Every open event stream holds one of waitress's threads for as long as its page is open:
two phones, a spectator or two and the simulation page already pass waitress's default of
four, and a fifth request would wait behind them. Hence ``THREADS``.

``Server.stop`` ends the streams first (they notice within half a second), lets the worker
threads finish, then closes every connection from the server's own loop thread, so the
process exits without a hung request or a traceback.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from waitress.server import create_server

THREADS = 32
LOOP_TIMEOUT_S = 0.2   # how often the socket loop checks whether it should stop


class Server:
    """A waitress server for ``app``; the port is bound at once (``port=0`` picks a free one)."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 8000, *, threads: int = THREADS):
        self.app = app
        # Any: waitress's stubs (types-waitress) leave out what this class uses of the server,
        # effective_host/effective_port and the socket map.
        self._server: Any = create_server(app, host=host, port=port, threads=threads,
                                     ident="onitama-companion")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return self._server.effective_host

    @property
    def port(self) -> int:
        return self._server.effective_port

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> Server:
        """Serve on a background thread; returns at once. The caller's main thread stays free
        for its signal handlers (the CLI stops on SIGTERM and Ctrl-C)."""
        self._thread = threading.Thread(target=self._run, name="web-server", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._server.asyncore.loop(timeout=LOOP_TIMEOUT_S, map=self._server._map, count=1)
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

"""A crowd of hostile clients against a companion on 127.0.0.1 (the load test's attackers).

Four kinds, in equal numbers, each keeping its connection open and opening a new one whenever
the server closes it, until told to stop:

- idle: connects and sends nothing;
- half: sends the start of a request, then one header byte every second, never finishing;
- stream: opens the public event stream (``/events``) and never reads it (refused ones retry);
- giant: declares a 200 MB body and trickles it (or, every other one, a chunked body).

The clients come from loopback addresses other than 127.0.0.1 (127.0.0.2 and up, ``per_address``
each): attackers are other devices, and the server caps connections per address.

Run on its own (the benchmark does, so that the crowd's memory is not counted as the
server's)::

    python tests/support/hostile.py PORT COUNT SECONDS
"""

from __future__ import annotations

import itertools
import socket
import sys
import threading
import time

KINDS = ("idle", "half", "stream", "giant")
HOST = "127.0.0.1"


class Crowd:
    def __init__(self, port: int, count: int, per_address: int = 15, kinds=KINDS):
        self.port = port
        self.kinds = tuple(kinds)           # taken in turn, one per connection
        self.count = count
        self.per_address = per_address
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.open = 0                  # connections open now
        self.peak = 0
        self.connects = 0
        self.refused = 0               # connections the server closed or refused at once
        self._threads: list[threading.Thread] = []

    def start(self) -> "Crowd":
        for i in range(self.count):
            source = f"127.0.0.{2 + i // self.per_address}"
            kind = self.kinds[i % len(self.kinds)]
            thread = threading.Thread(target=self._client, args=(kind, source, i), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def wait_open(self, count: int, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.open >= count:
                return True
            time.sleep(0.05)
        return False

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(5)

    def _count(self, delta: int) -> None:
        with self._lock:
            self.open += delta
            self.peak = max(self.peak, self.open)
            if delta > 0:
                self.connects += 1

    def _client(self, kind: str, source: str, number: int) -> None:
        while not self._stop.is_set():
            try:
                sock = socket.create_connection((HOST, self.port), timeout=5,
                                                source_address=(source, 0))
            except OSError:
                with self._lock:
                    self.refused += 1
                self._stop.wait(0.5)
                continue
            self._count(1)
            try:
                getattr(self, "_" + kind)(sock, number)
            except OSError:
                pass
            finally:
                self._count(-1)
                sock.close()
            self._stop.wait(0.2)

    def _alive(self, sock: socket.socket) -> bool:
        """Whether the server still holds the connection (a closed one reads as b"")."""
        sock.setblocking(False)
        try:
            data = sock.recv(65536)
        except BlockingIOError:
            return True
        finally:
            sock.setblocking(True)
        # An answer (413, 408...) may come first: the server closes the connection after it.
        return bool(data)

    def _hold(self, sock: socket.socket, tick=None) -> None:
        while not self._stop.wait(1.0):
            if tick is not None:
                tick()
            if not self._alive(sock):
                return

    def _idle(self, sock, number) -> None:
        self._hold(sock)

    def _half(self, sock, number) -> None:
        sock.sendall(b"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        self._hold(sock, lambda: sock.sendall(b"a"))

    def _stream(self, sock, number) -> None:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        # Never read: the server's output to this client piles up until it gives up on it.
        while not self._stop.wait(1.0):
            try:
                sock.settimeout(0.01)
                head = sock.recv(1, socket.MSG_PEEK)
            except (TimeoutError, BlockingIOError):
                continue
            finally:
                sock.settimeout(5)
            if not head:
                return
            if sock.recv(12, socket.MSG_PEEK).startswith(b"HTTP/1.1 503"):
                return                      # refused: try again
            # Admitted: keep not reading.

    def _giant(self, sock, number) -> None:
        if number % 8 < 4:
            sock.sendall(b"POST /api/new-game HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 200000000\r\n\r\n")
            chunk = lambda: sock.sendall(b"x" * 1024)  # noqa: E731
        else:
            sock.sendall(b"POST /api/new-game HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = lambda: sock.sendall(b"400\r\n" + b"x" * 1024 + b"\r\n")  # noqa: E731
        self._hold(sock, chunk)


def main(argv: list[str]) -> int:
    port, count, seconds = int(argv[0]), int(argv[1]), float(argv[2])
    crowd = Crowd(port, count).start()
    deadline = time.monotonic() + seconds
    for _ in itertools.count():
        if time.monotonic() > deadline or sys.stdin.closed:
            break
        print(f"open {crowd.open} peak {crowd.peak} connects {crowd.connects} refused {crowd.refused}",
              flush=True)
        time.sleep(1)
    crowd.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Silent sockets against a companion on 127.0.0.1: they connect and never send a byte, from
many loopback addresses (127.0.0.2 and up, ``per_address`` each: the server's cap per
address), and whichever the server closes is opened again, so the server stays full.

    python tests/support/silent.py PORT COUNT SECONDS [PER_ADDRESS]

Prints ``open N reopened M refused R`` every second. One thread: a socket costs nothing here
but its descriptor (the load benchmark's full-server case runs it in its own process).
"""

from __future__ import annotations

import socket
import sys
import time

HOST = "127.0.0.1"


def connect(port: int, source: str) -> socket.socket | None:
    try:
        sock = socket.create_connection((HOST, port), timeout=2, source_address=(source, 0))
    except OSError:
        return None
    sock.setblocking(False)
    return sock


def closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def main(argv: list[str]) -> int:
    port, count, seconds = int(argv[0]), int(argv[1]), float(argv[2])
    per_address = int(argv[3]) if len(argv) > 3 else 16
    sources = [f"127.0.0.{2 + i // per_address}" for i in range(count)]
    socks: list[socket.socket | None] = [None] * count
    reopened = refused = 0
    deadline = time.monotonic() + seconds
    next_report = 0.0
    while time.monotonic() < deadline:
        for i, sock in enumerate(socks):
            if sock is not None and closed(sock):
                sock.close()
                socks[i] = sock = None
                reopened += 1
            if sock is None:
                socks[i] = connect(port, sources[i])
                refused += socks[i] is None
        if time.monotonic() >= next_report:
            print(f"open {sum(s is not None for s in socks)} reopened {reopened} refused {refused}",
                  flush=True)
            next_report = time.monotonic() + 1
        time.sleep(0.05)
    for sock in socks:
        if sock is not None:
            sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

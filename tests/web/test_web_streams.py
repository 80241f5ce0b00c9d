"""Event streams: a full snapshot on every connection, every change after it, the simulated
hardware, and a clean end when the server stops, under the test client and under waitress."""

from __future__ import annotations

import http.client
import json
import threading
import time

from companion.web import Server

from web_helpers import app, client, companion, new_game, post  # noqa: F401 (fixtures)


class Events:
    """Reads a streamed response event by event (the app yields one event per chunk)."""

    def __init__(self, response):
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-store"
        self.response = response
        self.chunks = response.response.__iter__()

    def next(self) -> tuple[str, object]:
        chunk = next(self.chunks)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        fields = dict(line.split(": ", 1) for line in text.strip().splitlines())
        if "event" not in fields:
            return "", text
        return fields["event"], json.loads(fields["data"])

    def until(self, name: str, predicate=lambda data: True):
        while True:
            event, data = self.next()
            if event == name and predicate(data):
                return data

    def close(self) -> None:
        self.response.close()


def test_the_public_stream_starts_with_a_snapshot_and_follows_every_change(client, companion):
    events = Events(client.get("/events", buffered=False))
    assert events.next() == ("", "retry: 2000\n\n")
    event, view = events.next()
    assert event == "view" and view["game"] is None
    event, oled = events.next()
    assert event == "oled" and len(oled) == 16
    game = new_game(client)
    view = events.until("view", lambda v: v["game"] is not None)
    assert view["game"]["id"] == game and view["setup"]["side"] == "Dragon"
    # The OLED shows the set-up a moment after the view asked for it.
    assert events.until("oled") != oled
    events.close()


def test_a_reconnecting_page_gets_the_whole_view_again(client):
    new_game(client)
    first = Events(client.get("/events", buffered=False))
    first.next()
    _, view = first.next()
    first.close()
    again = Events(client.get("/events", buffered=False))
    again.next()
    assert again.next() == ("view", view)
    again.close()


def test_the_sim_stream_sends_the_switches_and_the_leds(client):
    events = Events(client.get("/sim/events", buffered=False))
    events.until("view")
    assert events.until("sim")["pawns"] == []
    post(client, "/sim/place", {"square": "b2"})
    assert events.until("sim", lambda s: s["pawns"])["pawns"] == ["b2"]
    new_game(client)
    state = events.until("sim", lambda s: "c1" in s["leds"])
    assert set(state["leds"]) >= {"a1", "e5"}
    events.close()


def test_the_sim_stream_sends_the_join_links(client, companion):
    events = Events(client.get("/sim/events", buffered=False))
    assert events.until("links") == {"red": companion.join_url("red"),
                                     "blue": companion.join_url("blue"),
                                     "table": "http://table.example:8000/"}
    events.close()


def test_streams_end_when_the_server_stops(app, client):
    events = Events(client.get("/events", buffered=False))
    events.until("view")
    started = time.monotonic()
    app.extensions["streams"].stop()
    remaining = list(events.chunks)
    assert time.monotonic() - started < 2
    assert all(not chunk.startswith(b"event: view") for chunk in remaining)


def _open_stream(url: str, path: str) -> http.client.HTTPResponse:
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    assert response.status == 200
    assert response.readline() == b"retry: 2000\n"
    return response


def test_waitress_serves_pages_while_many_streams_are_open_and_stops_cleanly(app):
    server = Server(app, "127.0.0.1", 0).start()
    try:
        # Two phones, spectators and the simulation page: more streams than waitress's
        # default four threads, and the pages must still answer at once.
        streams = [_open_stream(server.url, path) for path in ["/events"] * 6 + ["/sim/events"] * 2]
        started = time.monotonic()
        host, port = server.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=5)
        connection.request("GET", "/api/view")
        assert connection.getresponse().status == 200
        assert time.monotonic() - started < 1
    finally:
        stopping = threading.Thread(target=server.stop)
        started = time.monotonic()
        stopping.start()
        stopping.join(10)
    assert not stopping.is_alive() and time.monotonic() - started < 5
    for stream in streams:
        # Each stream has ended: its body reads to the end.
        stream.read()  # returns at the end of the body, not at the 5 s timeout
    assert not any(t.name == "web-server" for t in threading.enumerate())


def test_stopping_after_the_socket_loop_already_ended_is_quiet(app):
    # The loop may notice the stop by itself and close its sockets (the wake-up trigger among
    # them) before stop() pulls that trigger: stop() must still return normally.
    server = Server(app, "127.0.0.1", 0).start()
    server._stop.set()
    server._thread.join(5)
    assert not server._thread.is_alive()
    server._stop.clear()
    server.stop()

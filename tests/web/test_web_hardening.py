"""Hostile clients: the Host check, the security headers, the capped streams (each starting
with one snapshot), the simulation's table controls answering only to the table, the padded
sizes of a seat's messages, and waitress's limits on a real socket."""

from __future__ import annotations

import io
import socket
import threading
import time

import pytest

from companion.web import Server, guard, padding, streams as streams_module
from firmware import screens
from companion.web import server as server_module

from web_helpers import app, client, companion, new_game, post  # noqa: F401 (fixtures)
from test_web_streams import Events
from waiting import wait_for

REMOTE = {"REMOTE_ADDR": "10.0.0.5"}     # another device on the table's network


def remote(app, address: str = REMOTE["REMOTE_ADDR"]):
    """A client whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


# -- Host and headers ----------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "[::1]:8000", "table.example:8000",
                                  "onitama.local", socket.gethostname(), "192.168.1.20"])
def test_the_companion_answers_to_its_own_names_and_any_address(client, host):
    assert client.get("/api/view", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "table.example.evil.example", "localhost.evil"])
def test_another_name_is_refused_even_from_the_same_site(client, host):
    origin = f"http://{host}"
    assert client.get("/api/view", headers={"Host": host}).status_code == 421
    response = client.post("/api/new-game", json={"variant": "base"},
                           headers={"Host": host, "Origin": origin})
    assert response.status_code == 421 and "Host" in response.get_json()["error"]


@pytest.mark.parametrize("path", ["/", "/api/view", "/games", "/sim", "/static/common.js",
                                  "/no-such-page", "/J/AAAA"])
def test_every_response_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "script-src" not in headers["Content-Security-Policy"]   # default-src 'self' rules
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("game_id", ["9223372036854775808", "99999999999999999999999", "0"])
def test_a_game_id_out_of_range_is_not_found(client, game_id):
    response = client.get(f"/games/{game_id}/record.json")
    assert response.status_code == 404 and "no game" in response.get_json()["error"]


# -- streams -------------------------------------------------------------------------------------

def test_a_stream_starts_with_one_snapshot(client):
    """Nothing changes after connecting, so nothing follows the snapshot but the OLED's key:
    the snapshot is not sent a second time."""
    events = Events(client.get("/events", buffered=False))
    assert events.next()[0] == ""                       # retry
    name, first = events.next()
    assert name == "view" and first["game"] is None
    assert events.next()[0] == "oled"
    views = []
    # The OLED's key may still change (its worker draws a moment late): only views count.
    reader = threading.Thread(target=lambda: views.append(events.until("view")), daemon=True)
    reader.start()
    reader.join(1.5)                                   # three polls of the stream
    assert views == [], "the stream sent its snapshot again"
    new_game(client)                                   # a change ends the wait
    reader.join(5)
    assert views and views[0]["game"] is not None
    events.close()


def test_public_streams_are_capped_and_say_when_to_retry(client, app):
    opened = [client.get("/events", buffered=False) for _ in range(streams_module.MAX_SHARED)]
    assert all(r.status_code == 200 for r in opened)
    refused = client.get("/events")
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    # The simulation page (the table) has streams of its own, and so does each seat.
    table = client.get("/sim/events", buffered=False)
    assert table.status_code == 200
    table.close()
    opened.pop().close()
    again = client.get("/events", buffered=False)
    assert again.status_code == 200
    again.close()
    for response in opened:
        response.close()
    assert app.extensions["streams"].open_count()["shared"] == 0


def test_a_seats_newest_streams_end_its_oldest(app, companion):
    phone = app.test_client()
    response = phone.get("/J/" + companion.join_url("red").rsplit("/J/", 1)[1])
    assert response.status_code == 303
    first = phone.get("/seat/events", buffered=False)
    chunks = iter(first.response)
    next(chunks), next(chunks)                         # retry, then the snapshot
    later = [phone.get("/seat/events", buffered=False) for _ in range(streams_module.PER_SEAT)]
    # The oldest stream ends by itself within a poll (list() returns), and the seat's
    # streams stay within the cap.
    list(chunks)
    assert app.extensions["streams"].open_count()["red"] == streams_module.PER_SEAT
    for response in later:
        response.close()
    first.close()


# -- the simulation's table ----------------------------------------------------------------------

def test_another_device_cannot_press_the_tables_buttons_or_read_a_join_code(app, companion):
    """Even served on every interface, /sim and its join codes answer only to the table."""
    stranger = remote(app)
    token = companion.join_url("red").rsplit("/J/", 1)[1]
    for path in ("/sim", "/sim/state", "/sim/events", "/sim/qr/red.svg", "/sim/qr/blue.svg"):
        response = stranger.get(path)
        assert response.status_code == 403, path
        assert token not in response.get_data(as_text=True)
    for path, body in (("/sim/button", {"button": "A"}), ("/sim/place", {"square": "c3"}),
                       ("/sim/lift", {"square": "c3"}), ("/api/new-game", {"variant": "base"})):
        assert post(stranger, path, body).status_code == 403, path
    assert companion.sim_state()["pawns"] == [] and companion.view(None)["game"] is None
    # The public page and its view are everyone's.
    assert stranger.get("/").status_code == 200 and stranger.get("/api/view").status_code == 200


def test_a_join_code_on_the_oled_is_shown_to_the_table_only(app, client, companion):
    """Anyone else gets the OLED picture drawn from its text lines, as on the Pi."""
    stranger = remote(app)
    # C turns the OLED to Red's join code. (A press held too long under load counts as a long
    # press, which deals a new game instead: press again until the code shows.)
    for _ in range(5):
        assert post(client, "/sim/button", {"button": "C"}).status_code == 200
        try:
            wait_for(lambda: "Scan to join" in companion.view(None)["oled"], timeout=3)
            break
        except AssertionError:
            continue
    lines = companion.view(None)["oled"]
    assert "Scan to join" in lines
    seen = stranger.get("/oled.png")
    assert seen.status_code == 200 and seen.mimetype == "image/png"
    drawn = io.BytesIO()
    screens.status_screen(lines[0], lines[1:]).save(drawn, format="PNG")
    assert seen.data == drawn.getvalue()
    # The table sees the display itself: the code (once the OLED worker has drawn it).
    wait_for(lambda: client.get("/oled.png").data != drawn.getvalue())


def test_the_table_link_makes_another_device_the_table(app, companion):
    device = remote(app)
    assert device.get("/sim?table=wrong").status_code == 403
    link = guard.table_link(app, "http://table.example:8000")
    response = device.get(link.split("8000", 1)[1])
    assert response.status_code == 303 and response.headers["Location"] == "/sim"
    assert device.get("/sim").status_code == 200
    assert post(device, "/sim/place", {"square": "c3"}).status_code == 200
    assert remote(app).get("/sim").status_code == 403      # another device still is not


def test_only_loopback_peers_are_the_table(app):
    for address, table in (("127.0.0.1", True), ("127.0.0.2", True), ("::1", True),
                           ("::ffff:127.0.0.1", True), ("10.0.0.5", False), ("192.168.1.7", False),
                           ("::ffff:10.0.0.5", False)):
        assert (remote(app, address).get("/sim/state").status_code == 200) == table, address


# -- sizes ---------------------------------------------------------------------------------------

def test_a_seats_answers_and_stream_messages_fill_whole_buckets(app, client, companion):
    phone = app.test_client()
    phone.get("/J/" + companion.join_url("blue").rsplit("/J/", 1)[1])
    new_game(client)
    for path in ("/seat", "/seat/view"):
        size = len(phone.get(path).get_data())
        assert size == padding.bucket(size) and size >= padding.MIN_BUCKET, path
    assert phone.get("/seat/view").get_json()["game"] is not None   # still plain JSON
    stream = phone.get("/seat/events", buffered=False)
    chunks = iter(stream.response)
    for _ in range(3):
        chunk = next(chunks)
        assert len(chunk) == padding.bucket(len(chunk)) and chunk.startswith(b":")
    stream.close()
    # The public side carries no secret: not padded.
    assert len(client.get("/api/view").get_data()) < padding.MIN_BUCKET


def test_padding_never_shortens_and_stays_parseable():
    import json
    for n in (0, 1, 100, 8191, 8192, 8193, 20000):
        body = json.dumps({"x": "a" * n}).encode()
        padded = padding.pad_body(body)
        assert len(padded) == padding.bucket(len(body)) >= len(body)
        assert json.loads(padded) == {"x": "a" * n}
        event = padding.pad_event(f"event: view\ndata: {'b' * n}\n\n")
        assert len(event) == padding.bucket(len(event))
        assert event.split(b"\n", 1)[0].startswith(b":") and event.endswith(b"\n\n")


# -- waitress's limits on a real socket ----------------------------------------------------------

@pytest.fixture
def served(app):
    server = Server(app, "127.0.0.1", 0).start()
    yield server
    server.stop()


def connect(server, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0))


def answer(sock: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            return data
        if not chunk:
            return data
        data += chunk


def test_a_giant_body_is_refused_before_it_is_sent(served, tmp_path):
    sock = connect(served)
    sock.sendall(b"POST /api/new-game HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 200000000\r\n\r\n" + b"x" * 1024)
    started = time.monotonic()
    reply = answer(sock)
    assert reply.startswith(b"HTTP/1.1 413") and time.monotonic() - started < 3
    sock.close()


def test_a_chunked_body_is_refused_once_past_the_cap(served):
    sock = connect(served)
    sock.sendall(b"POST /api/new-game HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    sock.sendall((b"400\r\n" + b"x" * 1024 + b"\r\n") * 5)     # 5 kB, past the 4 kB cap
    assert answer(sock).startswith(b"HTTP/1.1 413")
    sock.close()


def test_one_address_holds_a_bounded_number_of_connections(served):
    held = [connect(served, "127.0.0.9") for _ in range(server_module.PER_CLIENT)]
    wait_for(lambda: server_module.connections_by_client(served.waitress)["127.0.0.9"]
             == server_module.PER_CLIENT)
    extra = connect(served, "127.0.0.9")
    assert answer(extra) == b""              # closed at once, nothing served
    # Another address is served meanwhile.
    other = connect(served, "127.0.0.1")
    other.sendall(b"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert answer(other).startswith(b"HTTP/1.1 200")
    for sock in held + [extra, other]:
        sock.close()


def test_a_request_that_never_finishes_arriving_is_dropped(served, monkeypatch):
    monkeypatch.setattr(server_module, "REQUEST_S", 1)
    sock = connect(served)
    sock.settimeout(10)
    sock.sendall(b"GET /api/view HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    started = time.monotonic()
    closed = False
    while time.monotonic() - started < 8:
        try:
            sock.sendall(b"a")
            sock.settimeout(0.5)
            if sock.recv(1024) == b"":
                closed = True
                break
        except TimeoutError:
            continue
        except OSError:
            closed = True
            break
    assert closed, "a trickled header kept its connection"
    sock.close()


class FakeChannel:
    """What the server's maintenance reads of a connection."""

    def __init__(self, *, outbuf: int, quiet_s: float, requests: int = 1, partial_s: float | None = None):
        self.addr = ("127.0.0.3", 5000)
        self.requests = [object()] * requests
        self.total_outbufs_len = outbuf
        self.last_activity = time.time() - quiet_s
        self.will_close = False
        self.request = None
        if partial_s is not None:
            self.request = type("Partial", (), {"completed": False})()
            self.request.guard_started = time.time() - partial_s


def test_a_connection_that_stopped_reading_or_sending_is_closed(served):
    waitress = served.waitress
    channels = {
        "stalled stream": FakeChannel(outbuf=50_000, quiet_s=server_module.STALLED_S + 1),
        "flowing stream": FakeChannel(outbuf=50_000, quiet_s=1),
        "quiet stream": FakeChannel(outbuf=0, quiet_s=server_module.STALLED_S + 1),
        "trickled request": FakeChannel(outbuf=0, quiet_s=0, requests=0,
                                        partial_s=server_module.REQUEST_S + 1),
        "arriving request": FakeChannel(outbuf=0, quiet_s=0, requests=0, partial_s=1),
    }
    monkey = dict(enumerate(channels.values(), start=10_000))
    waitress.active_channels.update(monkey)
    try:
        waitress.maintenance(time.time())
    finally:
        for fd in monkey:
            waitress.active_channels.pop(fd, None)
    closed = {name for name, channel in channels.items() if channel.will_close}
    assert closed == {"stalled stream", "trickled request"}

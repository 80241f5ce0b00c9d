"""Fixtures and helpers of the phone tests: the real companion on simulated hardware behind the
web app, one Flask test client per phone (each with its own cookie jar), and a phone on the
network for the tests against a real server. Imported by name (no conftest.py), like the
other test folders' helper modules."""

from __future__ import annotations

import http.cookiejar
import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from companion.table.service import Companion
from companion.rules.squares import parse_square
from companion.web import create_app
from firmware.hardware import Hardware
from sim_table import sim_companion
from sse import sse_events
from waiting import wait_for

JSON = {"Content-Type": "application/json"}
SHADOW_START = ("a1", "c1", "e1", "a5", "c5", "e5")


@dataclass
class Table:
    companion: Companion
    hardware: Hardware
    app: object

    def phone(self):
        """A new phone: a client with a cookie jar of its own."""
        return self.app.test_client()


@pytest.fixture
def table(tmp_path) -> Iterator[Table]:
    with sim_companion(tmp_path / "games.db") as sim:
        yield Table(sim.companion, sim.hardware, create_app(sim.companion, secret_key=b"phones-test"))


def token_path(companion, seat: str) -> str:
    """The path of the seat's join URL (``HTTP://HOST:PORT/J/TOKEN``)."""
    return "/J/" + companion.join_url(seat).rsplit("/J/", 1)[1]


def join(phone, companion, seat: str):
    response = phone.get(token_path(companion, seat))
    assert response.status_code == 303 and response.headers["Location"] == "/seat", response
    return response


def shadow_game(table, seed: int = 23) -> None:
    """A Way of the Shadow game dealt and laid out on the mat, waiting for the Ninjas."""
    table.companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": seed})
    table.hardware.sim.set_pawns(frozenset(parse_square(s) for s in SHADOW_START))
    wait_for(lambda: table.companion.view(None)["game"]["status"] == "playing")


def step(view: dict) -> str:
    """The step of the game an action is for, as the seat page sends it."""
    t = view["table"]
    return f"{len(t['log'])}:{t.get('phase', 'move')}"


def act(phone, companion, seat: str, text: str, **extra):
    body = {"text": text, "step": step(companion.view(seat)), **extra}
    return phone.post("/seat/action", json=body)


def everything(companion) -> str:
    """Every audience's view, to compare before and after a refused request."""
    return json.dumps([companion.view(s) for s in (None, "red", "blue")], sort_keys=True)


class HttpPhone:
    """A phone on the network: its own cookie jar, JSON in and out, event streams read on a
    thread of their own (for the tests against a real server)."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def open(self, path: str, body=None, timeout: float = 10):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data,
                                         headers=JSON if body is not None else {})
        try:
            return self.opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            return error

    def get(self, path: str) -> bytes:
        with self.open(path) as response:
            return response.read()

    def post(self, path: str, body) -> tuple[int, bytes]:
        with self.open(path, body) as response:
            return response.status, response.read()

    def join(self, url: str) -> None:
        """Opens a seat's join URL (``HTTP://HOST:PORT/J/TOKEN``) and follows it to /seat."""
        with self.open("/J/" + url.rsplit("/J/", 1)[1]) as response:
            assert response.status == 200 and response.url.endswith("/seat")

    def stream(self, path: str) -> "EventReader":
        return EventReader(self.open(path, timeout=30))


class EventReader:
    """Collects the events of one stream as (name, data text), in order."""

    def __init__(self, response):
        self.response = response
        self.events: list[tuple[str, str]] = []
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for event in sse_events(self.response):
                with self._changed:
                    self.events.append(event)
                    self._changed.notify_all()
        except (OSError, ValueError):
            pass   # closed by the test

    def views(self) -> list[dict]:
        with self._changed:
            return [json.loads(data) for name, data in self.events if name == "view"]

    def wait_version(self, version: int, timeout: float = 5.0) -> None:
        """Until the stream has delivered the view of this version."""
        with self._changed:
            ok = self._changed.wait_for(lambda: any(
                name == "view" and json.loads(data)["version"] == version
                for name, data in self.events), timeout)
        assert ok, f"the stream never delivered version {version}"

    def close(self) -> None:
        self.response.close()

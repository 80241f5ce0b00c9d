"""Fixtures and helpers of the web tests: the web layer against the real companion on
simulated hardware, through Flask's test client.

The test modules import the fixtures by name from this uniquely named module: tests/ has no
packages, so two helper modules of one name in two folders would shadow each other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from companion.table.service import Companion
from companion.web import create_app
from sim_table import sim_companion
from waiting import wait_for

JSON = {"Content-Type": "application/json"}
FIXED = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
START = ["a1", "b1", "c1", "d1", "e1", "a5", "b5", "c5", "d5", "e5"]


def post(client, path: str, body, **headers):
    return client.post(path, json=body, headers=headers)


def new_game(client, **body) -> int:
    response = post(client, "/api/new-game", {"variant": "base", "cards": FIXED, **body})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["game"]


def lay_out(client, companion) -> None:
    for square in START:
        assert post(client, "/sim/place", {"square": square}).status_code == 200
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")


@pytest.fixture
def companion(tmp_path) -> Iterator[Companion]:
    with sim_companion(tmp_path / "games.db") as table:
        yield table.companion


@pytest.fixture
def app(companion):
    return create_app(companion, secret_key=b"test")


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def pi_client(tmp_path):
    """The app of a companion on real hardware (the simulated devices without the simulated
    hands: what the service sees on a Pi)."""
    with sim_companion(tmp_path / "pi.db", public_url=None, settle=0.35,
                       seen_as=lambda hw: dataclasses.replace(hw, sim=None)) as table:
        yield create_app(table.companion).test_client()

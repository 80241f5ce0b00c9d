"""Issue 22, row 4: a seat played from a phone away from the table belongs to that phone.

The person at the table is its opponent: button A there does not hand the seat to a phone
that scanned its code. Only the holder gives it away, from its own page. Once the holder's
phone has been silent for a set time (``seats.REMOTE_SILENT_S``) the table may, and the old
phone is told why when it comes back."""

from __future__ import annotations

import time

from companion.table import seats

from phone_helpers import join, table, token_path  # noqa: F401  (the fixture)
from waiting import wait_for

JSON = {"Content-Type": "application/json"}


def remote_game(table):  # noqa: F811
    c = table.companion
    c.submit(None, {"type": "new_game", "variant": "shadow", "seed": 23, "remote": ["red"]})
    red, blue = table.phone(), table.phone()
    join(red, c, "red")
    join(blue, c, "blue")
    return red, blue


def press(table, button: str) -> None:  # noqa: F811
    table.hardware.sim.tap(button, 0.1)
    time.sleep(0.3)
    table.companion._thread.call(lambda: None)


def asking(table):  # noqa: F811
    """The opponent at the table scans Red's code with another phone."""
    other = table.phone()
    assert other.get(token_path(table.companion, "red")).status_code == 202
    return other


def state(phone) -> str:
    return phone.get("/join/pending").get_json()["state"]


def test_the_opponent_at_the_table_cannot_hand_a_remote_seat_over(table):  # noqa: F811
    red, blue = remote_game(table)
    other = asking(table)
    assert table.companion.view(None)["oled"][:2] != ["New phone for", "the Red seat"]
    press(table, "A")
    assert state(other) == "waiting"
    assert other.get("/seat/view").status_code == 403
    assert red.get("/seat/view").get_json()["table"]["seat"] == "red"
    assert red.get("/seat/view").get_json()["takeover"] is True     # its holder is asked
    assert "takeover" not in blue.get("/seat/view").get_json()
    # The holder keeps it; then gives it to the next phone that asks.
    assert red.post("/seat/handover", json={"allow": False}, headers=JSON).status_code == 200
    assert state(other) == "refused"
    again = asking(table)
    assert red.post("/seat/handover", json={"allow": True}, headers=JSON).status_code == 200
    assert state(again) == "allowed"
    assert again.get("/seat/view").get_json()["table"]["seat"] == "red"
    refused = red.get("/seat/view")
    assert refused.status_code == 403 and "you gave the red seat" in refused.get_json()["error"]


def test_the_table_takes_back_a_remote_seat_whose_phone_fell_silent(table, monkeypatch):  # noqa: F811
    monkeypatch.setattr(seats, "REMOTE_SILENT_S", 0.5, raising=False)
    red, _ = remote_game(table)
    other = asking(table)
    press(table, "A")
    assert state(other) == "waiting"                 # Red's phone was heard just now
    time.sleep(0.6)                                  # then nothing from it
    assert wait_for(lambda: table.companion.view(None)["oled"][:2] == ["New phone for", "the Red seat"]
                    or state(other) != "waiting")
    press(table, "A")
    assert state(other) == "allowed"
    told = red.get("/seat/view")
    assert told.status_code == 403 and "silent" in told.get_json()["error"]

"""Joining a seat: the one-time code becomes a signed cookie holding only a session id; a used,
unknown or forged credential gets nothing; taking a held seat over needs button A."""

from __future__ import annotations

import json

from flask import Flask
from flask.sessions import SecureCookieSessionInterface

from phone_helpers import join, token_path, wait_for, table  # noqa: F401 (fixture)


def cookie(phone, app):
    """The phone's session cookie, decoded (and so checked) with the app's key."""
    value = phone.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    return SecureCookieSessionInterface().get_signing_serializer(app).loads(value)


def boot(html: str) -> dict:
    marker = '<script type="application/json" id="boot">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start:html.index("</script>", start)])


def test_a_code_gives_the_seat_and_a_cookie_with_only_a_session_id(table):
    phone, c = table.phone(), table.companion
    response = join(phone, c, "red")
    set_cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie
    data = cookie(phone, table.app)
    assert set(data) <= {"phone", "_permanent"} and c.seat_of(data["phone"]) == "red"
    page = phone.get("/seat")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert boot(html)["seat"] == "red"
    assert boot(html)["view"] == json.loads(json.dumps(c.view("red")))
    # No page of a seat carries a join code, its own (now replaced) or the other seat's.
    for seat in ("red", "blue"):
        assert token_path(c, seat).rsplit("/", 1)[1] not in html
    assert phone.get("/seat/view").get_json() == json.loads(json.dumps(c.view("red")))


def test_codes_work_once_and_in_either_case(table):
    c = table.companion
    path = token_path(c, "blue")
    first = table.phone()
    assert first.get(path.lower()).status_code == 303
    again = table.phone()
    used = again.get(path)
    assert used.status_code == 403 and "scan your seat's code" in used.get_data(as_text=True)
    assert again.get("/seat").status_code == 403
    assert again.get("/J/NOTATOKEN").status_code == 403
    assert again.get("/J/" + "A" * 500).status_code == 404
    assert c.view(None)["seats"] == {"red": False, "blue": True}


def test_without_a_seat_every_route_refuses(table):
    phone = table.phone()
    page = phone.get("/seat")
    assert page.status_code == 403 and "scan your seat's code" in page.get_data(as_text=True)
    for path in ("/seat/view", "/seat/events", "/seat/record"):
        response = phone.get(path)
        assert response.status_code == 403 and "scan the seat's code" in response.get_json()["error"]
    for path in ("/seat/action", "/seat/answer"):
        assert phone.post(path, json={"text": "skip", "step": "0:move"}).status_code == 403


def test_forged_cookies_hold_no_seat(table):
    c, name = table.companion, table.app.config["SESSION_COOKIE_NAME"]
    real = table.phone()
    join(real, c, "red")
    session_id = cookie(real, table.app)["phone"]
    # The right session id signed with another key, a made-up id signed with the right key,
    # and plain garbage.
    other = Flask("forger")
    other.secret_key = b"not the companion's key"
    serializer = SecureCookieSessionInterface().get_signing_serializer
    forged = [serializer(other).dumps({"phone": session_id}),
              serializer(table.app).dumps({"phone": "made-up"}),
              serializer(table.app).dumps({"phone": ["red"]}),
              "garbage", ""]
    for value in forged:
        phone = table.phone()
        phone.set_cookie(name, value)
        assert phone.get("/seat").status_code == 403
        assert phone.get("/seat/view").status_code == 403
    assert real.get("/seat/view").status_code == 200


def test_taking_a_held_seat_over_needs_button_a(table):
    c, hw = table.companion, table.hardware
    first, second = table.phone(), table.phone()
    join(first, c, "red")
    waiting = second.get(token_path(c, "red"))
    assert waiting.status_code == 202 and "press on the companion" in waiting.get_data(as_text=True)
    assert second.get("/join/pending").get_json() == {"state": "waiting", "seat": "red"}
    assert second.get("/seat").status_code == 403          # no seat until the table allows it
    assert c.view(None)["oled"][:2] == ["New phone for", "the Red seat"]
    stream = first.get("/seat/events", buffered=False)
    # Each chunk of a seat's stream starts with a padding comment line (padding.py).
    chunks = (chunk.split(b"\n", 1)[1] for chunk in stream.response)
    assert next(chunks).startswith(b"retry:") and next(chunks).startswith(b"event: view")
    hw.sim.tap("A", 0.1)
    assert wait_for(lambda: second.get("/join/pending").get_json()["state"] == "allowed")
    assert second.get("/seat/view").status_code == 200
    assert first.get("/seat/view").status_code == 403
    # The old phone's stream says so and ends, without another view of the seat.
    rest = [chunk.decode() for chunk in chunks]
    assert rest and rest[-1].startswith("event: left")
    assert not any(chunk.startswith("event: view") for chunk in rest)
    # The pending request is answered once: afterwards it is gone.
    assert second.get("/join/pending").status_code == 404


def test_the_table_may_refuse_a_takeover(table):
    c, hw = table.companion, table.hardware
    first, second = table.phone(), table.phone()
    join(first, c, "blue")
    assert second.get(token_path(c, "blue")).status_code == 202
    hw.sim.tap("B", 0.1)
    assert wait_for(lambda: second.get("/join/pending").get_json()["state"] == "refused")
    assert second.get("/seat/view").status_code == 403
    assert first.get("/seat/view").status_code == 200

"""Hostile input on every route of the phones, and the other POST routes: malformed and
oversized bodies, wrong types, forged and foreign cookies, cross-site origins, made-up join
codes. Never a 5xx; every refusal is a 4xx that changes no audience's view."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from phone_helpers import act, everything, join, shadow_game, step, table  # noqa: F401 (fixture)

FUZZ = settings(max_examples=250, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
# Deeper than the JSON decoder goes, yet inside the app's 4 kB body limit.
NESTED = ("[" * 2000 + "]" * 2000).encode()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
# Texts near the notation (none of them legal for the seats in the game below) and any text.
texts = st.sampled_from(["skip", "Nb1", "Nd5", "Nb5c4", "Sb5b4", "L3", "Lc", "Ox Nb5b4", "Tiger c1c3",
                         ">Ox", "N", "Nz9", "Na1 Nb1 Nc1", "Lz", "skip skip", " ", "\x00"]) | st.text(max_size=80)
CURRENT = object()       # stands for the step the game is at when the request is sent
action_bodies = st.fixed_dictionaries(
    {"text": texts | json_values, "step": st.just(CURRENT) | st.text(max_size=12) | json_values},
    optional={"card": json_values, "extra": json_values})
answer_bodies = st.fixed_dictionaries(
    {}, optional={"card": st.sampled_from(["Ox", "Crab", "Tiger"]) | json_values,
                  "takeback": json_values, "step": st.just(CURRENT) | st.text(max_size=12)})
raw_bodies = (st.binary(max_size=300) | st.integers(4097, 20_000).map(lambda n: b" " * n)
              | st.just(NESTED))
content_types = st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain",
                                 "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""])
origins = st.sampled_from([None, "http://localhost", "http://evil.example", "null", "http://localhost.evil"])
cookies = st.sampled_from(["red", "blue", "none"]) | st.text(max_size=60)


@pytest.fixture
def game(table):
    """Both seats joined, both Ninjas placed, Blue to move on the mat: nothing a phone can send
    is legal now except Blue's main-board move typed out, which none of the texts above is."""
    red, blue = table.phone(), table.phone()
    join(red, table.companion, "red")
    join(blue, table.companion, "blue")
    shadow_game(table)
    assert act(red, table.companion, "red", "Nd1").status_code == 200
    assert act(blue, table.companion, "blue", "Nb5").status_code == 200
    name = table.app.config["SESSION_COOKIE_NAME"]
    jar = {"red": red.get_cookie(name).value, "blue": blue.get_cookie(name).value}
    return table, jar


def phone_with(table, jar, cookie):
    phone = table.phone()
    if cookie != "none":
        phone.set_cookie(table.app.config["SESSION_COOKIE_NAME"], jar.get(cookie, cookie))
    return phone


def check_refusal(response, before, after):
    assert response.status_code < 500, response.get_data()[:300]
    if response.status_code >= 400:
        assert after == before, f"a refused request ({response.status_code}) changed the game"
        if response.mimetype == "application/json":
            assert isinstance(response.get_json()["error"], str)


@FUZZ
@given(path=st.sampled_from(["/seat/action", "/seat/answer"]), cookie=cookies, origin=origins,
       content_type=content_types,
       body=action_bodies.map(lambda b: ("json", b)) | answer_bodies.map(lambda b: ("json", b))
       | json_values.map(lambda b: ("json", b)) | raw_bodies.map(lambda b: ("raw", b)))
@example(path="/seat/action", cookie="blue", origin=None, content_type="application/json", body=("raw", NESTED))
@example(path="/seat/action", cookie="blue", origin="http://evil.example", content_type="application/json",
         body=("json", {"text": "skip", "step": CURRENT}))
def test_actions_and_answers_refuse_hostile_input(game, path, cookie, origin, content_type, body):
    table, jar = game
    c = table.companion
    phone = phone_with(table, jar, cookie)
    kind, value = body
    if kind == "json":
        if isinstance(value, dict) and value.get("step") is CURRENT:
            value = {**value, "step": step(c.view("blue"))}
        value = json.dumps(value).encode()
    headers = {"Content-Type": content_type} if content_type else {}
    if origin:
        headers["Origin"] = origin
    before = everything(c)
    response = phone.post(path, data=value, headers=headers)
    check_refusal(response, before, everything(c))


@FUZZ
@given(path=st.sampled_from(["/J/", "/j/", "/seat", "/seat/view", "/seat/record", "/join/pending",
                             "/seat/events"]),
       token=st.text(max_size=80), cookie=cookies)
@example(path="/J/", token="A" * 16, cookie="none")
@example(path="/seat/events", token="", cookie="forged")
def test_pages_and_codes_refuse_hostile_input(game, path, token, cookie):
    table, jar = game
    c = table.companion
    if path == "/seat/events" and cookie in jar:
        cookie = "stolen" + cookie     # a stream of a real seat never ends: tested elsewhere
    phone = phone_with(table, jar, cookie)
    url = path + quote(token, safe="") if path.startswith("/J") or path.startswith("/j") else path
    before = everything(c)
    response = phone.get(url or "/J/x")
    check_refusal(response, before, everything(c))
    if cookie not in jar and path.startswith("/seat"):
        assert response.status_code == 403


@FUZZ
@given(path=st.sampled_from(["/api/new-game", "/sim/lift", "/sim/place", "/sim/button"]),
       body=json_values.map(lambda b: json.dumps(b).encode()) | st.binary(max_size=300),
       content_type=content_types)
def test_the_other_post_routes_never_fail_on_hostile_input(table, path, body, content_type):
    response = table.phone().post(path, data=body, headers={"Content-Type": content_type})
    assert response.status_code < 500, response.get_data()[:300]


@pytest.mark.parametrize("path", ["/api/new-game", "/sim/lift", "/sim/place", "/sim/button"])
def test_the_other_post_routes_refuse_deeply_nested_and_oversized_json(table, path):
    before = table.companion.view(None)
    response = table.phone().post(path, data=NESTED, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "nested too deeply" in response.get_json()["error"]
    response = table.phone().post(path, data=b" " * 10_000_000, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert table.companion.view(None) == before

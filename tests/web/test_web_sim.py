"""The simulation's routes: the page, the simulated hands on the switches and the buttons."""

from __future__ import annotations

import pytest

from web_helpers import app, client, companion, new_game, pi_client, post, wait_for  # noqa: F401 (fixtures)


def test_the_sim_page_links_every_phone_page_with_its_qr_code(client, companion):
    html = client.get("/sim").get_data(as_text=True)
    links = {"red": companion.join_url("red"), "blue": companion.join_url("blue"),
             "table": "http://table.example:8000/"}
    for target, url in links.items():
        assert f'href="{url}" data-link="{target}"' in html
        assert f'src="/sim/qr/{target}.svg"' in html
        svg = client.get(f"/sim/qr/{target}.svg")
        assert svg.mimetype == "image/svg+xml" and f"<title>{url}</title>" in svg.get_data(as_text=True)
    assert links["red"].startswith("HTTP://TABLE.EXAMPLE:8000/J/")
    assert client.get("/sim/qr/green.svg").status_code == 404
    assert 'src="/static/sim.js"' in html
    # The public address is on the network, so no hint about loopback addresses.
    assert "Phones cannot reach" not in html


def test_a_join_code_never_reaches_the_public_pages(client, companion):
    token = companion.join_url("red").rsplit("/", 1)[1]
    for path in ("/", "/api/view", "/games"):
        assert token not in client.get(path).get_data(as_text=True)


def test_lifting_and_placing_close_and_open_the_switches(client, companion):
    response = post(client, "/sim/place", {"square": "C3"})
    assert response.status_code == 200 and response.get_json()["pawns"] == ["c3"]
    assert client.get("/sim/state").get_json()["pawns"] == ["c3"]
    assert post(client, "/sim/lift", {"square": "c3"}).get_json()["pawns"] == []


def test_noisy_hands_settle_on_the_same_switch(client, companion):
    assert post(client, "/sim/place", {"square": "e2", "noisy": True}).status_code == 200
    wait_for(lambda: client.get("/sim/state").get_json()["pawns"] == ["e2"])


def test_the_mat_lights_the_set_up(client, companion):
    new_game(client)
    leds = wait_for(lambda: client.get("/sim/state").get_json()["leds"])
    assert "c1" in leds and "c5" in leds


@pytest.mark.parametrize("path, body, status, message", [
    ("/sim/place", {"square": "f6"}, 400, "not a square"),
    ("/sim/place", {"square": 12}, 400, "'square'"),
    ("/sim/place", {}, 400, "'square'"),
    ("/sim/place", {"square": "c3", "noisy": "yes"}, 400, "'noisy'"),
    ("/sim/place", {"square": "c3", "hand": "left"}, 400, "unknown field 'hand'"),
    ("/sim/lift", {"square": "c3"}, 409, "no"),
    ("/sim/lift", ["c3"], 400, "JSON object"),
    ("/sim/button", {"button": "D"}, 400, "not a button"),
    ("/sim/button", {"button": "A", "long": 1}, 400, "'long'"),
    ("/sim/button", {}, 400, "'button'"),
])
def test_bad_hands_are_refused_and_change_nothing(client, path, body, status, message):
    before = client.get("/sim/state").get_json()
    response = post(client, path, body)
    assert response.status_code == status
    assert message in response.get_json()["error"]
    assert client.get("/sim/state").get_json()["pawns"] == before["pawns"]


def test_placing_on_a_taken_square_is_a_conflict(client):
    post(client, "/sim/place", {"square": "a1"})
    response = post(client, "/sim/place", {"square": "a1"})
    assert response.status_code == 409 and "already holds" in response.get_json()["error"]


def test_a_long_press_of_c_deals_a_base_game_without_a_phone(client, companion):
    assert post(client, "/sim/button", {"button": "c", "long": True}).status_code == 200
    view = wait_for(lambda: client.get("/api/view").get_json()["game"])
    assert view["variant"] == "base"


def test_the_simulation_exists_only_in_the_simulation(pi_client):
    for path in ("/sim", "/sim/state", "/sim/events", "/sim/qr/red.svg"):
        assert pi_client.get(path).status_code == 404
    response = post(pi_client, "/sim/place", {"square": "c3"})
    assert response.status_code == 404 and "onitama-companion sim" in response.get_json()["error"]
    page = pi_client.get("/").get_data(as_text=True)
    assert 'href="/sim"' not in page
    assert pi_client.get("/oled.png").mimetype == "image/png"

"""The public routes: pages, the view, new games, the game list and records, the OLED
picture, QR codes, and the refusals (bad bodies, cross-site posts) that change nothing."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from web_helpers import FIXED, app, client, companion, lay_out, new_game, post  # noqa: F401 (fixtures)


def boot_data(html: str) -> dict:
    start = html.index('<script type="application/json" id="boot">') + len('<script type="application/json" id="boot">')
    return json.loads(html[start:html.index("</script>", start)])


def test_the_table_page_carries_the_view_and_the_card_patterns(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    boot = boot_data(html)
    assert boot["view"]["game"] is None
    assert boot["cards"]["Tiger"]["moves"] == [[0, 2], [0, -1]]
    assert 'src="/static/table.js"' in html and 'href="/sim"' in html
    for variant in boot["view"]["variants"]:
        assert f'<option value="{variant}" ' in html
    assert client.get("/static/table.js").status_code == 200


def test_the_view_api_is_the_public_view(client, companion):
    assert client.get("/api/view").get_json() == json.loads(json.dumps(companion.view(None)))


def test_a_new_game_deals_what_was_asked(client, companion):
    game = new_game(client)
    view = client.get("/api/view").get_json()
    assert view["game"] == {"id": game, "way": "base", "variant": "base", "sets": ["base"],
                            "status": "sync", "computer": {}, "remote": [], "table": [],
                            "hints": 3, "thinking": False, "handed_back": None, "expected": None}
    assert view["setup"]["red"] == ["Tiger", "Crab"] and view["setup"]["side"] == "Dragon"


@pytest.mark.parametrize("body", [
    {"variant": "wind", "sets": ["base", "senseis-path"], "wind_cards": 3, "seed": 7},
    {"variant": "wind", "wind_cards": 0},
    {"variant": "shadow"},
    {"variant": "knowledge", "seed": 11},
])
def test_every_way_of_playing_can_be_dealt(client, body):
    response = post(client, "/api/new-game", body)
    assert response.status_code == 200, response.get_json()
    view = client.get("/api/view").get_json()
    assert view["game"]["variant"] == body["variant"] and view["setup"] is not None


@pytest.mark.parametrize("body, message", [
    ([], "JSON object"),
    ({}, "'way'"),
    ({"variant": 3}, "'variant'"),
    ({"variant": "base", "players": 3}, "unknown field 'players'"),
    ({"variant": "base", "sets": "base"}, "'sets'"),
    ({"variant": "base", "sets": []}, "'sets'"),
    ({"variant": "wind", "wind_cards": 6}, "'wind_cards'"),
    ({"variant": "wind", "wind_cards": True}, "'wind_cards'"),
    ({"variant": "base", "seed": "7"}, "'seed'"),
    ({"variant": "base", "cards": {"red": ["Tiger", "Crab"], "blue": ["Ox", "Boar"]}}, "'side'"),
    ({"variant": "base", "cards": {**FIXED, "red": "Tiger"}}, "cards.red"),
    ({"variant": "chess"}, "unknown way 'chess'"),
    ({"variant": "base", "cards": {**FIXED, "side": "Teapot"}}, "Teapot"),
    ({"variant": "base", "cards": {**FIXED, "red": ["Tiger"]}}, "two cards"),
    ({"variant": "base", "sets": ["no-such-set"]}, "no-such-set"),
])
def test_a_bad_new_game_is_refused_by_name_and_changes_nothing(client, body, message):
    before = client.get("/api/view").get_json()
    response = post(client, "/api/new-game", body)
    assert 400 <= response.status_code < 500
    assert message in response.get_json()["error"]
    assert client.get("/api/view").get_json() == before


def test_a_body_that_is_not_json_is_a_400(client):
    response = client.post("/api/new-game", data="{variant: base", content_type="application/json")
    assert response.status_code == 400
    assert "not valid JSON" in response.get_json()["error"]


@pytest.mark.parametrize("headers, status", [
    ({"Content-Type": "text/plain"}, 415),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
    ({"Content-Type": "application/json", "Origin": "null"}, 403),
    ({"Content-Type": "application/json", "Referer": "http://evil.example/page"}, 403),
    ({"Content-Type": "application/json", "Origin": "http://localhost:9999"}, 403),
])
def test_cross_site_posts_are_refused(client, headers, status):
    before = client.get("/api/view").get_json()
    response = client.post("/api/new-game", data='{"variant": "base"}', headers=headers)
    assert response.status_code == status
    assert response.get_json()["error"]
    assert client.get("/api/view").get_json() == before


@pytest.mark.parametrize("headers", [
    {"Origin": "http://localhost"},
    {"Referer": "http://localhost/sim"},
    {},  # no Origin and no Referer: curl, scripts, old browsers on a same-site form
])
def test_same_site_posts_pass(client, headers):
    response = client.post("/api/new-game", data='{"variant": "base"}',
                           headers={"Content-Type": "application/json", **headers})
    assert response.status_code == 200


def test_the_game_list_and_each_record_download(client, companion):
    first = new_game(client)
    lay_out(client, companion)
    second = new_game(client, variant="wind", cards=None, seed=5)
    games = client.get("/api/games").get_json()
    assert [g["id"] for g in games] == [second, first]
    assert games[1]["result"] == {"winner": None, "how": "abandoned"}
    # Each result with its words, from the one table (companion/rules/results.py).
    assert games[1]["result_words"] == {"head": "Game abandoned", "line": "It ended before anyone won.",
                                        "sentence": "Game abandoned"}
    assert games[0]["result_words"] is None

    page = client.get("/games").get_data(as_text=True)
    assert f'href="/games/{first}/record.json"' in page and "abandoned" in page
    assert "Way of the Wind" in page

    response = client.get(f"/games/{second}/record.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == f'attachment; filename="onitama-game-{second}.json"'
    record = json.loads(response.get_data(as_text=True))
    assert record["header"]["variant"] == "wind" and record["moves"] == []


@pytest.mark.parametrize("path", ["/games/999/record.json", "/games/x/record.json"])
def test_an_unknown_record_is_a_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.get_json()["error"]


def test_the_oled_picture_is_a_fresh_128x64_png(client, companion):
    response = client.get("/oled.png")
    assert response.mimetype == "image/png" and response.headers["Cache-Control"] == "no-store"
    assert Image.open(io.BytesIO(response.data)).size == (128, 64)


def test_unknown_pages_and_methods_answer_json(client):
    assert client.get("/nowhere").get_json()["error"]
    response = client.get("/api/new-game")
    assert response.status_code == 405 and response.get_json()["error"]


def test_the_ways_of_playing_come_from_the_registry(client):
    from markupsafe import escape

    from companion.rules.ways import WAYS
    ways = client.get("/api/ways").get_json()
    assert [w["name"] for w in ways] == list(WAYS)
    by_name = {w["name"]: w for w in ways}
    assert by_name["wind"]["options"] == ["sets", "wind_cards", "cards"]
    assert by_name["shadow"]["mat_reads_moves"] and by_name["shadow"]["hidden"]
    assert not by_name["knowledge"]["mat_reads_moves"] and not by_name["knowledge"]["hidden"]
    assert all(w["title"] and w["description"].endswith(".") and w["phones"] for w in ways)
    html = client.get("/").get_data(as_text=True)
    assert boot_data(html)["ways"] == ways
    for way in ways:
        assert (f'<option value="{way["name"]}" title="{escape(way["description"])}">'
                f'{escape(way["title"])}</option>') in html


def test_the_game_list_counts_turns_not_saved_actions_and_links_each_replay(client, companion):
    """A Way of the Shadow turn is several saved actions (the move, the Ninja, the Lantern):
    the list says how many turns were played, as players count them."""
    game = new_game(client, variant="shadow", cards=None, seed=23)
    for seat, text in [("red", "Nd1"), ("blue", "Nb5"), ("blue", "Ox c5c4"), ("blue", "Sb5b4")]:
        companion.submit(seat, {"type": "action", "text": text})
    listed = client.get("/api/games").get_json()[0]
    assert listed["id"] == game and listed["turns"] < listed["actions"]
    page = client.get("/games").get_data(as_text=True)
    row = page[page.index(f"<td>{game}</td>"):]
    row = row[:row.index("</tr>")]
    assert f"<td>{listed['turns']}</td>" in row and f"<td>{listed['actions']}</td>" not in row
    assert f'href="/games/{game}/replay"' in row


@pytest.mark.parametrize("key", ["way", "variant"])
def test_a_new_game_names_its_way_by_the_new_word_or_the_old_one(client, key):
    # "variant" is the older name of "way": scripts and saved pages that still send it work.
    response = post(client, "/api/new-game", {key: "wind", "seed": 5})
    assert response.status_code == 200, response.get_json()
    game = client.get("/api/view").get_json()["game"]
    assert game["way"] == game["variant"] == "wind"


def test_a_new_game_that_names_two_ways_is_refused(client):
    before = client.get("/api/view").get_json()
    response = post(client, "/api/new-game", {"way": "wind", "variant": "base"})
    assert response.status_code == 400 and "name different ways" in response.get_json()["error"]
    assert client.get("/api/view").get_json() == before


def test_the_pages_scripts_keep_no_result_words():
    """How a game ended is worded in one table (companion/rules/results.py): the server sends
    each result's words beside it, and no page's script holds a copy of them."""
    from pathlib import Path

    from companion.rules.results import HOW
    static = Path(__file__).resolve().parents[2] / "companion" / "web" / "static"
    words = {w for how in HOW.values() for w in (how.title, how.by)} | {
        "Nobody wins this one.", "It ended before anyone won."}
    found = {f"{js.name}: {w!r}" for js in static.glob("*.js") for w in words
             if w.lower() in js.read_text(encoding="utf-8").lower()}
    assert not found, sorted(found)

"""The game list at /games and /api/games: a page at a time, newest first, searched by way of
playing and by day (issue 14: 2000 games were one 624 kB page kept in memory)."""

import time

import pytest
from disk_helpers import table

from companion.table.store import GameStore

DAY = 86400


@pytest.fixture
def many(tmp_path):
    path = tmp_path / "games.db"
    store = GameStore(path)
    noon = time.mktime((2026, 3, 10, 12, 0, 0, 0, 0, -1))
    ids = [store.new_game({"variant": ("base", "wind", "shadow")[i % 3], "start": "x", "seed": i},
                          created=noon + (i // 40) * DAY + i) for i in range(120)]
    for gid in ids:
        store.finish(gid, {"winner": "red", "how": "stone"})
    store.close()
    return path, ids


def test_the_api_pages_newest_first_with_a_link_to_the_next(many):
    path, ids = many
    with table(path) as (companion, client):
        first = client.get("/api/games")
        assert [g["id"] for g in first.get_json()] == ids[:-51:-1]
        assert first.headers["Link"] == f'</api/games?before={ids[-50]}>; rel="next"'
        second = client.get(f"/api/games?before={ids[-50]}")
        third = client.get(second.headers["Link"][1:].split(">")[0])
        assert [g["id"] for g in second.get_json() + third.get_json()] == ids[-51::-1]
        assert "Link" not in third.headers


def test_the_list_is_searched_by_mode_and_day(many):
    path, ids = many
    with table(path) as (companion, client):
        wind = client.get("/api/games?mode=wind").get_json()
        assert [g["id"] for g in wind] == ids[-2::-3]
        day = client.get("/api/games?date=2026-03-11").get_json()
        assert [g["id"] for g in day] == ids[79:39:-1]
        both = client.get("/api/games?date=2026-03-11&mode=base").get_json()
        assert [g["id"] for g in both] == [i for i in ids[79:39:-1] if (i - 1) % 3 == 0]
        page = client.get("/games?mode=wind").get_data(as_text=True)
        assert page.count("Way of the Wind</td>") == 40 and "Older games" not in page
        page = client.get("/games").get_data(as_text=True)
        assert f'href="/games?before={ids[-50]}"' in page and page.count("<tr>") == 51


@pytest.mark.parametrize("query", ["before=x", "before=-1", "date=2026-13-01", "date=yesterday",
                                   "mode=" + "x" * 41])
def test_a_bad_search_is_a_400(many, query):
    path, _ = many
    with table(path) as (companion, client):
        response = client.get(f"/api/games?{query}")
        assert response.status_code == 400 and response.get_json()["error"]
        assert client.get(f"/games?{query}").status_code == 400

"""Damage SQLite does not see stays inside its game (issue 14: the service did not start, and
the list and the records answered 500)."""

import sqlite3

import pytest
from disk_helpers import table

UNFINISHED, FINISHED = 2, 1
DAMAGE = {
    "bad JSON in the header": ("UPDATE games SET header = '{\"variant\": \"base\", ' WHERE id = ?",
                               "the header is not valid JSON"),
    "a header without start": ("UPDATE games SET header = json_remove(header, '$.start') WHERE id = ?",
                               "the header has no start"),
    "invalid UTF-8 in an action": ("UPDATE actions SET action = CAST(X'4f78ff' AS TEXT) "
                                   "WHERE game_id = ? AND seq = 1", "action 1 is not valid UTF-8"),
}


def damage(path, sql: str, game_id: int) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, (game_id,))
    db.commit()
    db.close()


def listed(client) -> dict:
    response = client.get("/api/games")
    assert response.status_code == 200
    return {g["id"]: g for g in response.get_json()}


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_unfinished_game_is_set_aside_and_the_table_starts(saved, kind):
    sql, reason = DAMAGE[kind]
    damage(saved, sql, UNFINISHED)
    with table(saved) as (companion, client):
        view = companion.view(None)
        assert view["game"] is None                       # not resumed: a new game can start
        assert view["oled"][0] == f"Game {UNFINISHED} set aside:"
        games = listed(client)
        assert reason in games[UNFINISHED]["damaged"]
        assert games[UNFINISHED]["result"]["how"] == "set aside"
        assert games[FINISHED]["damaged"] is None         # every other game stays readable
        assert client.get(f"/games/{FINISHED}/record.json").status_code == 200
        response = client.get(f"/games/{UNFINISHED}/record.json")
        assert response.status_code == 409 and reason in response.get_json()["error"]
        page = client.get("/games")
        assert page.status_code == 200 and reason in page.get_data(as_text=True)
        assert client.post("/api/new-game", json={"variant": "base"}).status_code == 200
    # Set aside once: the next start does not try it again, and its record is kept as it was.
    with table(saved) as (companion, client):
        assert companion.view(None)["game"]["id"] == UNFINISHED + 1


@pytest.mark.parametrize("column", ["header", "result"])
def test_bad_json_in_a_finished_game_is_listed_as_damaged(saved, column):
    damage(saved, f"UPDATE games SET {column} = '{{\"oops' WHERE id = ?", FINISHED)
    with table(saved) as (companion, client):
        assert companion.view(None)["game"]["id"] == UNFINISHED   # resumed as usual
        games = listed(client)
        assert f"the {column} is not valid JSON" in games[FINISHED]["damaged"]
        assert games[UNFINISHED]["damaged"] is None
        page = client.get("/games")
        assert page.status_code == 200
        assert f"damaged: the {column} is not valid JSON" in page.get_data(as_text=True)
        response = client.get(f"/games/{FINISHED}/record.json")
        assert response.status_code == 409 and "damaged" in response.get_json()["error"]
        assert client.get(f"/games/{UNFINISHED}/record.json").status_code == 200


def test_a_game_that_cannot_be_replayed_answers_409_with_the_reason(saved):
    # A well-formed record with a move the rules refuse (the file was edited, or a rule changed).
    damage(saved, "UPDATE actions SET action = 'Tiger a1a5' WHERE game_id = ?", FINISHED)
    with table(saved) as (companion, client):
        response = client.get(f"/games/{FINISHED}/record.json")
        assert response.status_code == 409
        assert "action 0 ('Tiger a1a5') does not replay" in response.get_json()["error"]


def test_an_unfinished_game_that_cannot_be_replayed_is_set_aside(saved):
    damage(saved, "UPDATE actions SET action = 'Ox a5a1' WHERE game_id = ? AND seq = 1", UNFINISHED)
    with table(saved) as (companion, client):
        assert companion.view(None)["game"] is None
        assert companion.view(None)["oled"][0] == f"Game {UNFINISHED} set aside:"
        result = listed(client)[UNFINISHED]["result"]
        assert result["how"] == "set aside" and "does not replay" in result["reason"]
        assert "Set aside: action 1" in client.get("/games").get_data(as_text=True)


@pytest.mark.parametrize("game_id", [9223372036854775808, 10**30, 0])
def test_a_game_id_out_of_range_is_not_found(saved, game_id):
    with table(saved) as (companion, client):
        response = client.get(f"/games/{game_id}/record.json")
        assert response.status_code == 404 and response.get_json()["error"]
        assert client.get(f"/api/games?before={game_id}").status_code == 200

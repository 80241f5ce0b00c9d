"""Two companions, each on its own simulated mat, play one game through a real Mosquitto:
each table plays its own seat on its own mat, the other table's moves are shown on the mat
as the computer's are and played once the mat shows them."""

from __future__ import annotations

import random

import pytest

from companion.rules.sealed import replay
from companion.table.errors import BadRequest

from two_tables import act, assert_honest, broker, play_across, rows, two_tables  # noqa: F401  (fixture)
from waiting import wait_for


# Wind games are played by the robot (tests/link/test_tables_robot.py, slow): the test hands
# here make a Spirit's swap in one lift, which the recognizer sometimes reads late.
# A second deal with -m slow (the suite's time; the slow robot plays many more).
@pytest.mark.parametrize("variant, seed", [("base", 1), pytest.param("base", 2, marks=pytest.mark.slow)])
def test_two_tables_play_a_whole_game_each_on_its_own_mat(tmp_path, broker, variant, seed):
    with two_tables(tmp_path, broker, {"variant": variant, "seed": seed, "table": ["blue"]}) as (host, guest):
        gv = wait_for(lambda: guest.companion.view(None).get("game"))
        assert gv["table"] == ["red"] and host.companion.view(None)["game"]["table"] == ["blue"]
        assert guest.companion.view(None)["table"]["position"] == host.companion.view(None)["table"]["position"]
        result = play_across(host, guest, random.Random(seed))
        assert guest.companion.view(None)["table"]["result"] == result
        # Both saved the same actions, each once, in the same order; each its own seat's
        # moves made on its mat, the other's made there as shown.
        assert rows(host) == rows(guest)
        assert {seat for seat, _ in rows(host)} == {"red", "blue"}
        assert not host.links.link.refused and not guest.links.link.refused


def test_the_other_tables_move_is_shown_in_words_and_lights(tmp_path, broker):
    with two_tables(tmp_path, broker, {"variant": "base", "seed": 5, "table": ["blue"]}) as (host, guest):
        rng = random.Random(5)
        wait_for(lambda: guest.companion.view(None).get("game"))
        for side in (host, guest):
            wait_for(lambda: act(side, rng) or side.companion.view(None)["game"]["status"] == "playing")

        def shown():
            # The first mover plays on its own mat; the other table's mat then asks for it.
            for side in (host, guest):
                if side.companion.view(None)["game"]["expected"]:
                    return side
                act(side, rng)
        side = wait_for(shown, timeout=20)
        view = side.companion.view(None)
        expected = view["game"]["expected"]
        mover = "red" if side is guest else "blue"
        assert expected["by"] == "table" and expected["seat"] == mover
        assert view["instruction"]["title"] == f"Make {mover.title()}'s move"
        assert view["instruction"]["detail"].startswith("From the other table: ")
        assert any("other table" in line for line in view["oled"]), view["oled"]


# A Light game by default (about 10 s); a Shadow game (about 30 s) with -m slow.
@pytest.mark.parametrize("variant, seed", [pytest.param("shadow", 3, marks=pytest.mark.slow), ("light", 2)])
def test_two_tables_play_light_and_shadow_each_keeping_its_own_ninjas(tmp_path, broker, variant, seed):
    with two_tables(tmp_path, broker, {"variant": variant, "seed": seed, "table": ["blue"]}) as (host, guest):
        wait_for(lambda: guest.companion.view(None).get("game"))
        host.links.club_games()             # the club page watches the broker from now on
        result = play_across(host, guest, random.Random(seed))
        assert guest.companion.view(None)["table"]["result"] == result
        shared = rows(host)
        assert shared == rows(guest) and {seat for seat, _ in shared} == {"red", "blue"}
        assert not host.links.link.refused and not guest.links.link.refused
        # Each table's hidden steps crossed as commitments, its answers as answers; its save
        # file keeps the full texts, which never crossed.
        for side, seat in ((host, "red"), (guest, "blue")):
            game_id = side.companion.view(None)["game"]["id"]
            saved = [(a.seat, a.action) for a in side.companion._store.game(game_id).actions]
            own_full = {text for who, text in saved if who == seat and (text, who) not in
                        {(t, w) for w, t in shared}}
            assert all("#" not in text for text in own_full)
            assert not own_full & {text for _, text in shared}
            assert all(" #" in text for who, text in shared if text.startswith(("setup", "ninja", "strike")))
        assert any(text.startswith("answer") for _, text in shared)
        assert_honest(host, guest)
        # Each table's record page, the game over, shows both tables' Ninjas (the other's
        # from its openings) and replays through the rules.
        for side in (host, guest):
            record = side.companion.record(side.companion.view(None)["game"]["id"])
            assert set(record["setup"]) == ({"red", "blue"} if variant == "shadow" else {"blue"})
            replay(record)
        # The club page: the game's moves as everyone saw them, no commitment, no hidden square.
        club = wait_for(lambda: next((g for g in host.links.club_games()
                                      if len(g["moves"]) == len(shared)), None), timeout=20)
        assert club["way"] == variant and club["presence"] == {"blue": "online", "red": "online"}
        assert [(m["seat"], m["text"]) for m in club["moves"]] == [(s, t.split(" #")[0]) for s, t in shared]


def test_two_tables_play_knowledge_drawing_each_card_together(tmp_path, broker):
    """Knowledge: neither table holds the face-down deck's order. Each table published its
    chain's tip before the first move, and each card drawn rests on both tables' keys."""
    with two_tables(tmp_path, broker, {"variant": "knowledge", "seed": 1, "table": ["blue"]}) as (host, guest):
        wait_for(lambda: guest.companion.view(None).get("game"))
        result = play_across(host, guest, random.Random(1))
        assert guest.companion.view(None)["table"]["result"] == result
        shared = rows(host)
        assert shared == rows(guest) and not host.links.link.refused and not guest.links.link.refused
        assert [text.split()[0] for _, text in shared[:2]] == ["chain", "chain"]
        logs = [side.companion.view(None)["table"]["log"] for side in (host, guest)]
        assert logs[0] == logs[1]
        draws = sum("+" in turn for turn in logs[0])
        assert draws and sum(text.startswith("key ") for _, text in shared) == 2 * draws
        # Each table's save file holds the rows as they crossed: nothing of its own kept back.
        for side in (host, guest):
            game_id = side.companion.view(None)["game"]["id"]
            assert [(a.seat, a.action) for a in side.companion._store.game(game_id).actions] == shared


def test_two_tables_play_simultaneous_moves_committed_then_revealed(tmp_path, broker):
    """Simultaneous play: each table's seat chooses on its phone; each turn crosses as both
    tables' commitments, Red's then Blue's, then both reveals, which both tables check."""
    with two_tables(tmp_path, broker, {"variant": "simultaneous", "seed": 2, "table": ["blue"]}) as (host, guest):
        wait_for(lambda: guest.companion.view(None).get("game"))
        result = play_across(host, guest, random.Random(2))
        assert guest.companion.view(None)["table"]["result"] == result and result["how"] != "lie"
        shared = rows(host)
        assert shared == rows(guest) and not host.links.link.refused and not guest.links.link.refused
        assert [text.split()[0] for _, text in shared] == ["commit", "commit", "reveal", "reveal"] * (len(shared) // 4)
        logs = [side.companion.view(None)["table"]["log"] for side in (host, guest)]
        assert logs[0] == logs[1] and len(logs[0]) == len(shared) // 4 >= 5
        # Each save file keeps its own seat's choices, which crossed only as commitments
        # until both were in.
        for side, seat in ((host, "red"), (guest, "blue")):
            game_id = side.companion.view(None)["game"]["id"]
            saved = [(a.seat, a.action) for a in side.companion._store.game(game_id).actions]
            assert [a for a in saved if a not in shared] == [(seat, t.split(" | ")[seat == "blue"]) for t in logs[0]]


def test_a_game_with_both_seats_at_other_tables_is_refused(tmp_path, broker):
    from two_tables import linked_side
    with linked_side(tmp_path / "h.db", broker.address) as host:
        with pytest.raises(BadRequest):
            host.companion.submit(None, {"type": "new_game", "table": ["red", "blue"]})


def test_a_table_that_reveals_another_move_than_it_committed_is_named_in_both_records(tmp_path, broker):
    with two_tables(tmp_path, broker, {"variant": "simultaneous", "seed": 2, "table": ["blue"]}) as (host, guest):
        wait_for(lambda: guest.companion.view(None).get("game"))
        referee = host.companion._game.referee
        honest = referee.answer

        def lying() -> str | None:
            # The host's table reveals another legal move than the one it committed.
            text = honest()
            if text is None or not text.startswith("reveal "):
                return text
            move, salt = text[len("reveal "):].rsplit(" ", 1)
            legal = referee.whole._legal(referee.state.sim, "red")     # this turn's moves
            other = next(str(m) for m in legal if str(m) != move)
            return f"reveal {other} {salt}"
        referee.answer = lying
        result = play_across(host, guest, random.Random(2))
        assert result == {"winner": "blue", "how": "lie"}
        for side in (host, guest):
            game_id = side.companion.view(None)["game"]["id"]
            record = side.companion.record(game_id)
            last = record["turns"][-1] if "turns" in record else record["moves"][-1]
            assert last.startswith("red's table lied: the move revealed") and "does not open" in last, last
            assert side.companion.view(None)["table"]["result"] == result

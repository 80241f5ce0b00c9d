"""A Way of the Shadow game at the table: phones join, place Ninjas and take the hidden
steps; the mat reads the main-board moves; secrets stay on the server."""

import json

import pytest

from companion.table.errors import Forbidden
from companion.rules.squares import parse_square

from service_helpers import wait_for

SHADOW_START = frozenset(parse_square(s) for s in ("a1", "c1", "e1", "a5", "c5", "e5"))


def join(companion, seat):
    token = companion.join_url(seat).rsplit("/", 1)[1]
    return companion.redeem(token)


def shadow_game(companion, hw):
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 5})
    red, blue = join(companion, "red"), join(companion, "blue")
    assert red["seat"] == "red" and blue["seat"] == "blue"
    hw.sim.set_pawns(SHADOW_START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    companion.submit("red", {"type": "action", "text": "Nb1"})
    companion.submit("blue", {"type": "action", "text": "Nd5"})
    return red, blue


def test_phones_join_once_per_code_and_views_keep_ninjas_secret(table):
    companion, hw, _ = table
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 5})
    assert companion.view(None)["oled"][0] == "Set up"          # first: where the pawns go
    hw.sim.set_pawns(SHADOW_START)
    # Then, while the Ninjas wait to be placed from phones: the first free seat's QR page.
    wait_for(lambda: companion.view(None)["oled"][0] == "Red seat")
    url = companion.join_url("red")
    assert url.startswith("HTTP://") or url.startswith("/J/")
    token = url.rsplit("/", 1)[1]
    first = companion.redeem(token)
    assert companion.seat_of(first["session"]) == "red"
    with pytest.raises(Forbidden):
        companion.redeem(token)                                # one use only
    for seat in (None, "red", "blue"):
        assert token not in json.dumps(companion.view(seat))   # no view carries a join code


def test_mat_moves_phone_ninja_steps_and_redaction(table):
    companion, hw, _ = table
    shadow_game(companion, hw)
    assert companion.view("red")["table"]["own_ninjas"] == ["b1"]
    assert companion.view("blue")["table"]["own_ninjas"] == ["d5"]
    assert "own_ninjas" not in companion.view(None)["table"]
    wait_for(lambda: companion.view(None)["table"]["phase"] == "move")
    view = companion.view(None)
    mover = view["table"]["turn"]
    # The mover makes a main-board move on the mat: any legal pawn step will do.
    legal = companion.view(mover)["table"]["legal"]
    step = next(a for a in legal if a.get("kind") == "move" and a.get("from") and a.get("to"))
    frm, to = parse_square(step["from"]), parse_square(step["to"])
    assert to not in hw.sim.pawns
    hw.sim.lift(frm)
    hw.sim.place(to)
    wait_for(lambda: companion.view(None)["table"]["phase"] == "ninja")
    other = "blue" if mover == "red" else "red"
    before = companion.view(other)
    companion.submit(mover, {"type": "action", "text": "skip"})
    after_skip = companion.view(other)
    assert after_skip["table"]["phase"] != "ninja" and before != after_skip


def test_taking_over_a_seat_needs_a_button_press(table):
    companion, hw, _ = table
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 5})
    first = join(companion, "red")
    second = join(companion, "red")
    assert "pending" in second and companion.pending(second["pending"])["state"] == "waiting"
    assert companion.view(None)["oled"][:2] == ["New phone for", "the Red seat"]
    hw.sim.tap("A", 0.1)
    wait_for(lambda: companion.pending(second["pending"])["state"] == "allowed")
    session = companion.pending(second["pending"])["session"]
    assert companion.seat_of(session) == "red" and companion.seat_of(first["session"]) is None


@pytest.mark.parametrize("token", ["", "é" * 16, "A" * 200, "abc", "0" * 16])
def test_made_up_join_codes_are_refused_at_once(table, token):
    companion, _, _ = table
    with pytest.raises(Forbidden):
        companion.redeem(token)


def test_the_record_is_public_while_playing_and_full_once_the_game_ends(table):
    from companion.rules.sealed import replay
    companion, hw, _ = table
    shadow_game(companion, hw)
    game_id = companion.games()[0]["id"]
    record = companion.record(game_id)
    assert record["kind"] == "public" and "Nb1" not in str(record)
    # Play on from the phones (each seat's first legal action) until the game ends.
    while companion.view(None)["table"]["result"] is None:
        seat = companion.view(None)["table"]["to_act"][0]
        legal = companion.view(seat)["table"]["legal"]
        companion.submit(seat, {"type": "action", "text": legal[0]["text"]})
    full = companion.record(game_id)
    assert full["kind"] == "full" and replay(full).result is not None


def test_simultaneous_moves_are_committed_on_phones_then_shown_on_the_mat(table):
    from service_helpers import START
    companion, hw, _ = table
    companion.submit(None, {"type": "new_game", "variant": "simultaneous", "seed": 2})
    hw.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    moves = {}
    for seat in ("red", "blue"):
        legal = companion.view(seat)["table"]["legal"]
        moves[seat] = sorted((a for a in legal if a["kind"] == "move"), key=lambda a: a["text"])[0]
        companion.submit(seat, {"type": "action", "text": moves[seat]["text"]})
        if seat == "red":
            # Red's choice stays sealed until both are in: Blue sees only that Red committed.
            assert moves["red"]["text"] not in str(companion.view("blue"))
    view = companion.view(None)
    assert view["game"]["status"] == "sync"
    # The mat shows both moves: each pawn's square paired with where it goes.
    assert sorted(view["mat"]["pairs"]) == sorted([m["from"], m["to"]] for m in moves.values())
    for m in moves.values():
        hw.sim.lift(parse_square(m["from"]))
        hw.sim.place(parse_square(m["to"]))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")

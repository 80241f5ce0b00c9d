"""The tables' protocol against a real Mosquitto: a message signed with another key, sent
for the wrong seat, applied twice, out of order, onto another game or as another action in
a number this table has is refused and changes nothing; the invite's code reads back."""

from __future__ import annotations

import random

import pytest

from companion.link import protocol
from companion.link.peer import client
from companion.link.protocol import Invite, Refused

from two_tables import act, broker, rows, two_tables  # noqa: F401  (fixture)
from waiting import wait_for

GAME, KEY, START = "abcdefghijkl", "k" * 26, "start position"


def test_a_message_opens_only_with_its_key_its_game_and_its_topic():
    body = protocol.move_body(GAME, "red", 0, "Ox a1a2", protocol.genesis(GAME, START))
    raw = protocol.seal(KEY, body)
    assert protocol.open_message(KEY, GAME, protocol.topic(GAME, "move", "red"), raw) == body
    for key, game, topic, payload, why in [
            ("x" * 26, GAME, protocol.topic(GAME, "move", "red"), raw, "bad signature"),
            (KEY, GAME, protocol.topic(GAME, "move", "blue"), raw, "does not match its topic"),
            (KEY, "bbbbbbbbbbbb", protocol.topic("bbbbbbbbbbbb", "move", "red"), raw, "another game"),
            (KEY, GAME, protocol.topic(GAME, "move", "red"), raw.replace(b"a1a2", b"a1a3"), "bad signature"),
            (KEY, GAME, protocol.topic(GAME, "move", "red"), b"{", "not JSON"),
            (KEY, GAME, "onitama/g/x/y", raw, "not a table topic")]:
        with pytest.raises(Refused, match=why):
            protocol.open_message(key, game, topic, payload)


def test_a_move_must_follow_this_tables_game():
    rows_ = [("red", "Ox a1a2"), ("blue", "Ox e5e4")]
    hashes = protocol.chain(GAME, START, rows_)
    assert protocol.check_move(protocol.move_body(GAME, "red", 2, "Ox b1b2", hashes[2]), hashes) == (2, "Ox b1b2")
    # Sent again: the game thread answers "have" for it.
    assert protocol.check_move(protocol.move_body(GAME, "blue", 1, "Ox e5e4", hashes[1]), hashes)[0] == 1
    with pytest.raises(Refused, match="out of order"):
        protocol.check_move(protocol.move_body(GAME, "blue", 3, "Ox e5e4", hashes[2]), hashes)
    with pytest.raises(Refused, match="another game"):
        protocol.check_move(protocol.move_body(GAME, "red", 2, "Ox b1b2", hashes[1]), hashes)
    other = protocol.chain(GAME, "another start", rows_)
    with pytest.raises(Refused, match="another game"):
        protocol.check_move(protocol.move_body(GAME, "red", 2, "Ox b1b2", other[2]), hashes)


def test_an_invite_reads_back_and_a_bad_one_is_refused():
    invite = Invite("192.168.1.20:1883", "abcdefghijkl", "a" * 26)
    assert Invite.parse(invite.code()) == invite and Invite.parse(invite.code().lower()) == invite
    for bad in ("", "OT1:host/abc/def", "OT2:h:1/abcdefghijkl/" + "a" * 26, "OT1:h:x/abcdefghijkl/" + "a" * 26):
        with pytest.raises(Refused):
            Invite.parse(bad)


def _forge(broker_, game: str, key: str, body: dict, seat: str) -> None:
    """A third client on the broker publishes a move for ``seat``."""
    intruder = client("intruder", clean=True)
    intruder.connect(broker_.bind, broker_.port)
    intruder.loop_start()
    intruder.publish(protocol.topic(game, "move", seat), protocol.seal(key, body), qos=1).wait_for_publish(5)
    intruder.loop_stop()
    intruder.disconnect()


def test_a_third_client_cannot_move_for_a_seat_nor_replay_a_move(tmp_path, broker):
    with two_tables(tmp_path, broker, {"variant": "base", "seed": 9, "table": ["blue"]}) as (host, guest):
        rng = random.Random(9)
        wait_for(lambda: guest.companion.view(None).get("game"))
        # Play until each table has made a move of its own.
        wait_for(lambda: (act(host, rng), act(guest, rng)) and len(rows(host)) >= 2 and rows(guest) == rows(host),
                 timeout=30)
        link = host.links.link
        game, have = link.game, rows(host)
        hashes = protocol.chain(game, link.start, have)
        n = len(have)
        legal = host.companion.view("blue")["table"]["legal"] or [{"text": "Ox e5e4"}]
        forged = protocol.move_body(game, "blue", n, legal[0]["text"], hashes[n])
        _forge(broker, game, "z" * 26, forged, "blue")                       # without the key
        wait_for(lambda: "bad signature" in link.refused)
        # Blue's own earlier move, signed, sent again as a new one (a replay).
        i = next(i for i, (seat, _) in enumerate(have) if seat == "blue")
        old = protocol.move_body(game, "blue", i, have[i][1], hashes[i])
        _forge(broker, game, link.key, {**old, "n": n}, "blue")
        wait_for(lambda: any("another game" in why for why in link.refused))
        # Another action as Blue's earlier move, with the right hash before it: a fork.
        fork = protocol.move_body(game, "blue", i, legal[0]["text"] + " ", hashes[i])
        _forge(broker, game, link.key, fork, "blue")
        wait_for(lambda: any("differs" in why for why in link.refused))
        # A move a few ahead waits for the ones before it (in a hidden way a turn is several
        # rows); one far ahead is refused at once. Neither changes anything.
        ahead = protocol.move_body(game, "blue", n + 3, legal[0]["text"], hashes[n])
        _forge(broker, game, link.key, ahead, "blue")
        far = protocol.move_body(game, "blue", n + 100, legal[0]["text"], hashes[n])
        _forge(broker, game, link.key, far, "blue")
        wait_for(lambda: any("out of order" in why for why in link.refused))
        assert rows(host) == have and host.companion.view(None)["game"]["expected"] is None

"""The twin-world check across tables, on the wire: the same public game of Light & Shadow
played twice, one seat hiding other Ninjas (tests/support/half_tables.py's twin_world); every
message the hiding table publishes (its moves and its presence, as companion/link/peer.py
seals them) and the other table's too are the same bytes in both worlds, but for the
hashes (a commitment, and the hash chain and signature over it), which are of the same length."""

from __future__ import annotations

import random
import re

import pytest

from companion.link import protocol
from companion.link.club import Club

from half_tables import GAME, twin_world

KEY = "uqudtrgzsr5va3zgnhuuhy6qju"
_HEX = re.compile(r"[0-9a-f]{64}")


def published(rows: list[tuple[str, str]], start: str) -> list[tuple[str, bytes]]:
    """(topic, payload) of every message the two tables publish for ``rows``: each row as its
    seat's move, then that seat's presence with its new count and head."""
    hashes = protocol.chain(GAME, start, rows)
    out = []
    for n, (seat, text) in enumerate(rows):
        out.append((protocol.topic(GAME, "move", seat),
                    protocol.seal(KEY, protocol.move_body(GAME, seat, n, text, hashes[n]))))
        presence = {"v": protocol.VERSION, "game": GAME, "kind": "presence", "seat": seat,
                    "state": "online", "have": n + 1, "head": hashes[n + 1]}
        out.append((protocol.topic(GAME, "presence", seat), protocol.seal(KEY, presence)))
    return out


def same_on_the_wire(wire_a, wire_b) -> list:
    """Twin worlds' MQTT messages: the same topics, sizes and payloads but for the hashes,
    and the same club page (which reads every game on the broker). Returns that page."""
    assert [t for t, _ in wire_a] == [t for t, _ in wire_b]
    assert [len(p) for _, p in wire_a] == [len(p) for _, p in wire_b]
    assert [_HEX.sub("-" * 64, p.decode()) for _, p in wire_a] == \
        [_HEX.sub("-" * 64, p.decode()) for _, p in wire_b]
    clubs = Club(), Club()
    for club, wire in zip(clubs, (wire_a, wire_b)):
        for topic, payload in wire:
            club.received(topic, payload)
    assert clubs[0].games() == clubs[1].games()
    return clubs[0].games()

@pytest.mark.parametrize("mode, hider", [("shadow", "red"), ("light", "blue")])
def test_the_broker_and_the_other_table_see_the_same_bytes_in_twin_worlds(mode, hider):
    differ = messages = 0
    for seed in range(3):
        for attempt in range(2):
            a, b, d, _ = twin_world(mode, seed, hider, attempt)
            start = str(a.halves["red"].start)
            wire_a, wire_b = published(a.sent, start), published(b.sent, start)
            club = same_on_the_wire(wire_a, wire_b)
            if a.sent:
                assert len(club[0]["moves"]) == len(a.sent)
            differ, messages = differ + d, messages + len(wire_a)
    assert differ >= 8 and messages >= 200, (differ, messages)


def simultaneous_twins(seed: int, attempt: int):
    """World A at random; in world B Red chooses another move every turn (Blue as in A),
    as long as the public game is the same. Each turn's rows, up to its first reveal, are
    compared: until then the worlds must not part, but for the commitment's hash. Returns
    the rows of both worlds up to each turn's reveals, and the views of Blue's table."""
    from simultaneous_tables import Tables

    a, b = Tables(seed), Tables(seed)
    rng, twin_rng = random.Random(seed), random.Random(100 + attempt)
    wire: tuple[list, list] = ([], [])
    views: tuple[list, list] = ([], [])
    for _ in range(40):
        if a.halves["red"].result is not None or b.halves["red"].result is not None:
            break
        red_moves = list(a.halves["red"].legal_actions("red"))
        mine = rng.choice(red_moves)
        twin = twin_rng.choice([m for m in red_moves if m != mine] or red_moves)
        blue_move = rng.choice(list(a.halves["blue"].legal_actions("blue")))
        for world, move, out, seen in ((a, mine, wire[0], views[0]), (b, twin, wire[1], views[1])):
            n = len(world.sent)
            world.play("red", move)
            world.halves["blue"].act("blue", blue_move)      # chosen: its commitment is owed
            seen.append((world.halves["blue"].view(None), world.halves["blue"].view("blue")))
            row = world.halves["blue"].answer()
            world.halves["blue"].act("blue", row)
            world.halves["red"].act("blue", row)
            world.sent.append(("blue", row))
            out.extend(world.sent[n:])
            seen.append((world.halves["blue"].view(None), world.halves["blue"].view("blue")))
            # Then both reveal (the rules tell the worlds apart from here: not compared).
            for seat in ("red", "blue"):
                owed = world.halves[seat].answer()
                world.halves[seat].act(seat, owed)
                world.halves["blue" if seat == "red" else "red"].act(seat, owed)
                world.sent.append((seat, owed))
        if str(a.halves["red"].position()) != str(b.halves["red"].position()):
            break
    return wire, views


def test_simultaneous_commitments_look_the_same_until_the_reveal():
    """The broker, the club page and Blue's table see the same bytes (but for the hashes,
    of the same length) whatever move Red's table committed, until the reveal. The worlds
    part at the reveal, so each pair is compared at its first turn (or as long as the
    public game stays the same)."""
    from simultaneous_tables import Tables

    turns = 0
    for seed in range(6):
        for attempt in range(2):
            (rows_a, rows_b), (seen_a, seen_b) = simultaneous_twins(seed, attempt)
            assert [text.split()[0] for _, text in rows_a] == ["commit", "commit"] * (len(rows_a) // 2)
            start = str(Tables(seed).halves["red"].start)
            wire_a, wire_b = published(rows_a, start), published(rows_b, start)
            same_on_the_wire(wire_a, wire_b)
            assert seen_a == seen_b
            turns += len(rows_a) // 2
    assert turns >= 12

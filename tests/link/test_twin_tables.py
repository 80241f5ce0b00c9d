"""The twin-world check across tables, on the wire: the same public game of Light & Shadow
played twice, one seat hiding other Ninjas (tests/support/half_tables.py's twin_world); every
message the hiding table publishes (its moves and its presence, as companion/link/peer.py
seals them) and the other table's too are the same bytes in both worlds, but for the
hashes (a commitment, and the hash chain and signature over it), which are of the same length."""

from __future__ import annotations

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


@pytest.mark.parametrize("mode, hider", [("shadow", "red"), ("light", "blue")])
def test_the_broker_and_the_other_table_see_the_same_bytes_in_twin_worlds(mode, hider):
    differ = messages = 0
    for seed in range(3):
        for attempt in range(2):
            a, b, d, _ = twin_world(mode, seed, hider, attempt)
            start = str(a.halves["red"].start)
            wire_a, wire_b = published(a.sent, start), published(b.sent, start)
            assert [t for t, _ in wire_a] == [t for t, _ in wire_b]
            assert [len(p) for _, p in wire_a] == [len(p) for _, p in wire_b]
            assert [_HEX.sub("-" * 64, p.decode()) for _, p in wire_a] == \
                [_HEX.sub("-" * 64, p.decode()) for _, p in wire_b]
            # The club page, which reads every game on the broker, shows the same page.
            clubs = Club(), Club()
            for club, wire in zip(clubs, (wire_a, wire_b)):
                for topic, payload in wire:
                    club.received(topic, payload)
            assert clubs[0].games() == clubs[1].games()
            assert len(clubs[0].games()[0]["moves"]) == len(a.sent) if a.sent else True
            differ, messages = differ + d, messages + len(wire_a)
    assert differ >= 8 and messages >= 200, (differ, messages)

"""The tables' protocol (docs/tables.md): topics, signed messages, the game's hash chain, and
the invite. Pure functions: no broker, no thread.

Every message is a JSON object signed with the game's key (HMAC-SHA256 over its canonical
form), so a client on the broker without the key cannot move for a seat. A move carries its
number ``n`` in the game and ``prev``, the hash of the game's ``n`` actions before it: a
table applies it only when both match its own game, so a message applied twice, out of order
or onto another game is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

VERSION = 1
ROOT = "onitama/g"
KINDS = ("deal", "move", "presence", "open")
_NAME = re.compile(r"^[a-z2-7]{10,32}$")


class Refused(ValueError):
    """A message this table does not apply, and why."""


# -- topics ------------------------------------------------------------------------------

def topic(game: str, kind: str, seat: str | None = None) -> str:
    """``onitama/g/<game>/<kind>[/<seat>]``: the deal has no seat, the rest are a seat's."""
    return f"{ROOT}/{game}/{kind}" + (f"/{seat}" if seat else "")


def parse_topic(name: str) -> tuple[str, str, str | None]:
    """(game, kind, seat) of a topic; :class:`Refused` for one that is not the protocol's."""
    parts = name.split("/")
    if len(parts) not in (4, 5) or "/".join(parts[:2]) != ROOT or parts[3] not in KINDS:
        raise Refused(f"not a table topic: {name!r}")
    return parts[2], parts[3], parts[4] if len(parts) == 5 else None


# -- signing -----------------------------------------------------------------------------

def canonical(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def mac(key: str, body: Mapping[str, Any]) -> str:
    return hmac.new(key.encode(), canonical(body), hashlib.sha256).hexdigest()


def seal(key: str, body: Mapping[str, Any]) -> bytes:
    """The message's bytes: ``body`` with its ``mac``."""
    return canonical({**body, "mac": mac(key, body)})


def open_message(key: str, game: str, topic_name: str, payload: bytes) -> dict[str, Any]:
    """The body of a message received on ``topic_name``, checked: well formed, signed with
    the key, for this game, and sent by the seat its topic names."""
    got_game, kind, seat = parse_topic(topic_name)
    try:
        body = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise Refused("not JSON") from None
    if not isinstance(body, dict) or not isinstance(body.get("mac"), str):
        raise Refused("not a signed message")
    given = body.pop("mac")
    if not hmac.compare_digest(given, mac(key, body)):
        raise Refused("bad signature")
    if body.get("v") != VERSION or body.get("game") != game or got_game != game:
        raise Refused("another game or protocol version")
    if body.get("kind") != kind or body.get("seat") != seat:
        raise Refused("the message does not match its topic")
    return body


# -- the game's hash chain -----------------------------------------------------------------

def genesis(game: str, start: str) -> str:
    """The hash of a game before its first action: its name and its dealt start."""
    return hashlib.sha256(f"onitama-tables/{VERSION}\0{game}\0{start}".encode()).hexdigest()


def chain(game: str, start: str, rows: Iterable[tuple[str | None, str]]) -> list[str]:
    """``out[n]``: the hash of the game after its first ``n`` actions (``out[0]``: genesis)."""
    out = [genesis(game, start)]
    for n, (seat, action) in enumerate(rows):
        row = canonical({"n": n, "seat": seat, "action": action})
        out.append(hashlib.sha256(out[-1].encode() + row).hexdigest())
    return out


def move_body(game: str, seat: str, n: int, action: str, prev: str) -> dict[str, Any]:
    return {"v": VERSION, "game": game, "kind": "move", "seat": seat, "n": n,
            "action": action, "prev": prev}


def check_move(body: Mapping[str, Any], hashes: list[str]) -> tuple[int, str]:
    """A signed move against this table's game (``hashes``, see :func:`chain`): (n, action).
    One this table has already is returned too (the game thread answers "have"); one whose
    ``prev`` is not this game's is refused."""
    n, action, prev = body.get("n"), body.get("action"), body.get("prev")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0 or not isinstance(action, str):
        raise Refused("a move has a number and an action")
    if n >= len(hashes):
        raise Refused(f"move {n} is out of order: this table has {len(hashes) - 1} actions")
    if prev != hashes[n]:
        raise Refused(f"move {n} follows another game than this table's")
    return n, action


# -- the invite --------------------------------------------------------------------------

PREFIX = "OT1"


@dataclass(frozen=True)
class Invite:
    """What the host's QR code and short code hold: where to meet, which game, its key."""
    broker: str                 # host:port
    game: str
    key: str

    def code(self) -> str:
        return f"{PREFIX}:{self.broker}/{self.game}/{self.key}".upper()

    @classmethod
    def parse(cls, text: str) -> "Invite":
        parts = text.strip().lower().split(":", 1)
        if len(parts) != 2 or parts[0] != PREFIX.lower() or parts[1].count("/") != 2:
            raise Refused("an invite reads OT1:HOST:PORT/GAME/KEY")
        broker, game, key = parts[1].split("/")
        host, _, port = broker.rpartition(":")
        if not host or not port.isdigit() or not _NAME.match(game) or not _NAME.match(key):
            raise Refused("an invite reads OT1:HOST:PORT/GAME/KEY")
        return cls(broker, game, key)

    @property
    def host(self) -> str:
        return self.broker.rpartition(":")[0]

    @property
    def port(self) -> int:
        return int(self.broker.rpartition(":")[2])

"""The club page's view of a broker: every live game on it, read-only (docs/tables.md).

A club client subscribes to every game's deal, moves and presence, the topics the club's
listener may read (``systemd/broker/club.acl``). It holds no game's key, so it checks no
signature and moves for no seat: it shows what the broker carries. Nothing hidden is there
to show: a row of a hidden step is its public form and a commitment, and the club drops the
commitment too, so twin worlds (one seat hiding other Ninjas) give the club the same page.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import protocol
from .peer import client

GAME_TOPICS = ("deal", "move/+", "presence/+")


@dataclass
class ClubGame:
    game: str
    variant: str | None = None
    start: str | None = None
    moves: dict[int, tuple[str, str]] = field(default_factory=dict)   # n -> (seat, public text)
    presence: dict[str, str] = field(default_factory=dict)            # seat -> online | gone

    def as_dict(self) -> dict[str, Any]:
        seq = [self.moves[n] for n in sorted(self.moves)]
        return {"game": self.game, "way": self.variant, "start": self.start,
                "moves": [{"seat": seat, "text": text} for seat, text in seq],
                "presence": dict(sorted(self.presence.items()))}


def public_text(action: str) -> str:
    """A row as the club shows it: a hidden step's public form without its commitment (a
    simultaneous move's commitment: ``commit`` alone)."""
    if action.startswith("commit "):
        return "commit"
    return action.split(" #", 1)[0]


class Club:
    """What the broker carries, game by game. ``received`` takes one message (paho's thread);
    ``games`` is the page's list, the newest activity first."""

    def __init__(self) -> None:
        self._games: dict[str, ClubGame] = {}
        self._order: list[str] = []
        self._lock = threading.Lock()

    def received(self, topic_name: str, payload: bytes) -> None:
        try:
            game, kind, seat = protocol.parse_topic(topic_name)
            body = json.loads(payload)
        except (protocol.Refused, ValueError, UnicodeDecodeError):
            return                  # not a table's message: not the club's business
        if not isinstance(body, dict):
            return
        with self._lock:
            entry = self._games.setdefault(game, ClubGame(game))
            if game in self._order:
                self._order.remove(game)
            self._order.append(game)
            self._note(entry, kind, seat, body)

    @staticmethod
    def _note(entry: ClubGame, kind: str, seat: str | None, body: dict[str, Any]) -> None:
        if kind == "deal" and isinstance(body.get("request"), dict):
            entry.variant = str(body["request"].get("variant"))
            entry.start = str(body.get("start"))
        elif kind == "move" and seat and isinstance(body.get("n"), int) and isinstance(body.get("action"), str):
            entry.moves[body["n"]] = (seat, public_text(body["action"]))
        elif kind == "presence" and seat:
            entry.presence[seat] = str(body.get("state"))

    def games(self) -> list[dict[str, Any]]:
        with self._lock:
            return [self._games[g].as_dict() for g in reversed(self._order)]


def watch(broker: tuple[str, int], club: Club) -> Callable[[], None]:
    """Subscribe ``club`` to every game on ``broker``; returns what stops it."""
    reader = client("", clean=True)
    reader.on_connect = lambda c, u, f, rc, p: c.subscribe(
        [(f"{protocol.ROOT}/+/{t}", 1) for t in GAME_TOPICS])
    reader.on_message = lambda c, u, msg: club.received(msg.topic, bytes(msg.payload))
    reader.connect_async(broker[0], broker[1])
    reader.loop_start()

    def stop() -> None:
        reader.disconnect()
        reader.loop_stop()
    return stop

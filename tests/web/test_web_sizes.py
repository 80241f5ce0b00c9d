"""Twin worlds over HTTP, whole games: the same public game played in two worlds side by side,
the secret seat choosing differently in each (Way of the Shadow: Red places its Ninja on the
other square and steps it whenever it safely may, or never; Way of the Light: the Shadow
Master places its Ninjas and steps them differently). Then:

- the opponent and the public receive the same bytes in both worlds: every answer to their
  requests, every view and every event of their streams (the public's OLED keys aside: a
  sample of the clock, see tests/web/phones/test_phone_secrets.py, which compares the pictures);
- the secret seat's own answers and stream messages, different in content, have the same
  sizes: a device on the network that sees only sizes cannot tell the worlds apart.

A stream sends the newest view when it wakes (``Subscription.get``): two views published in
quick succession may reach a page as one, and which ones merge depends on the threads' timing,
not on the game. So the streams are compared view by view, by version: at every version both
worlds' streams delivered (every version the test waited for among them) the views are the
same, and the bytes too whenever the message before was the same one in both worlds (a
message carries the turns since the one before it).

Each turn's main-board move is one both worlds allow and that no Ninja of either world can
meet, so the public game is the same; the players head for the win, so the game ends.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from contextlib import ExitStack
from dataclasses import dataclass, field

import pytest

from companion.rules.squares import parse_square
from companion.web import Server, create_app, padding
from companion.web.streams import GROWING

from loadgame import HAND_S, SeatPhone, _distance, _pieces, wait_for
from sim_table import sim_companion

SEEDS = {"shadow": 11, "light": 12}
SECRET = {"shadow": "red", "light": "blue"}          # the seat whose choices differ
START = {"shadow": ("a1", "c1", "e1", "a5", "c5", "e5"), "light": ("a1", "b1", "c1", "d1", "e1")}
PLACES = {"shadow": {"red": ("Nb1", "Nd1"), "blue": ("Nd5", "Nd5")},
          "light": {"blue": ("Na5 Nb5", "Na5 Nd5")}}
TEMPLE = {"red": "c5", "blue": "c1"}
MAX_TURNS = 60


class RawStream:
    """An event stream read on its own thread: each message's size on the wire (padding
    included), its event name and data."""

    def __init__(self, phone: SeatPhone, path: str):
        self.messages: list[tuple[int, str, str]] = []
        self.waited: list[int] = []              # the versions the test waited for
        self._changed = threading.Condition()
        self._response = phone.opener.open(urllib.request.Request(phone.base + path), timeout=30)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        size, name, data = 0, "", []
        try:
            for line in self._response:
                size += len(line)
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    name = text[7:]
                elif text.startswith("data: "):
                    data.append(text[6:])
                elif not text:
                    with self._changed:
                        self.messages.append((size, name, "\n".join(data)))
                        self._changed.notify_all()
                    size, name, data = 0, "", []
        except (OSError, ValueError, AttributeError):
            # Closed under the reading thread: http.client's reader may already be gone
            # (AttributeError: 'NoneType' object has no attribute 'peek').
            pass

    def wait_version(self, version: int) -> None:
        self.waited.append(version)
        with self._changed:
            assert self._changed.wait_for(lambda: any(
                n == "view" and json.loads(d)["version"] == version for _, n, d in self.messages), 10), \
                f"the stream never delivered version {version}"

    def close(self) -> None:
        self._response.close()

    def views(self) -> dict[int, Delivered]:
        """The view messages by version, each view whole as the page rebuilds it."""
        held: dict[str, list] = {}
        out: dict[int, Delivered] = {}
        before = None
        for size, name, data in self.messages:
            if name != "view":
                continue
            view = json.loads(data)
            table = view.get("table")
            if isinstance(table, dict):
                for key in GROWING:
                    delta = table.pop(f"{key}_since", None)
                    if delta is not None:
                        table[key] = held.get(key, [])[:delta["from"]] + delta["turns"]
                held = {key: table[key] for key in GROWING if isinstance(table.get(key), list)}
            out[view["version"]] = Delivered(before, size, data, view)
            before = view["version"]
        return out


@dataclass
class Delivered:
    """A view message of a stream: the version of the view message before it, its size on
    the wire, its data, and the view it gives the page."""
    before: int | None
    size: int
    data: str
    view: dict


def compare_streams(who: str, streams: list[RawStream], *, contents: bool, padded: bool) -> int:
    """The two worlds' streams side by side, view by view (see the module's docstring): the
    same sizes (whole buckets if ``padded``), and with ``contents`` the same views and bytes.
    Returns how many views were compared."""
    a, b = (s.views() for s in streams)
    common = sorted(a.keys() & b.keys())
    waited = set(streams[0].waited) | set(streams[1].waited)
    assert waited <= set(common), f"{who}: a version waited for is missing ({waited - set(common)})"
    compared = 0
    for version in common:
        x, y = a[version], b[version]
        assert x.size == y.size, f"{who}'s stream, version {version}: {x.size} != {y.size} bytes"
        assert x.size == padding.bucket(x.size) or not padded, (who, version, x.size)
        if contents and '"status":"finished"' not in x.data:
            # Once the game is over the Ninjas are revealed to all: the comparison stops there.
            assert x.view == y.view, f"{who}'s stream differs at version {version}"
            if x.before == y.before:
                assert x.data == y.data, f"{who}'s stream, version {version}: other bytes"
        compared += 1
    # The other messages (the retry hint, the watched seat) in order, the OLED's key aside.
    others = [[m for m in s.messages if m[1] not in ("view", "oled")] for s in streams]
    if contents:
        assert others[0] == others[1], f"{who}'s other messages differ"
    assert [m[0] for m in others[0]] == [m[0] for m in others[1]]
    return compared


@dataclass
class World:
    variant: str
    index: int                                   # 0: the quiet world, 1: the other choices
    tmp_path: object
    received: dict = field(default_factory=lambda: {"other": [], "public": []})
    secret_sizes: list = field(default_factory=list)

    def __post_init__(self):
        self._stack = ExitStack()
        servers = []
        sim = self._stack.enter_context(sim_companion(
            self.tmp_path / f"{self.variant}-{self.index}.db",
            public_url="http://10.42.0.1:8000",                 # the same in both worlds
            before_start=lambda c: servers.append(
                Server(create_app(c, secret_key=b"twins"), "127.0.0.1", 0).start())))
        self.hardware, self.companion, self.server = sim.hardware, sim.companion, servers[0]
        self.secret = SECRET[self.variant]
        self.other = "blue" if self.secret == "red" else "red"
        self.phones = {seat: SeatPhone(self.server.url) for seat in ("red", "blue")}
        self.public = SeatPhone(self.server.url)
        for seat, phone in self.phones.items():
            phone.join(self.companion.join_url(seat))
        self.streams = {"other": RawStream(self.phones[self.other], "/seat/events"),
                        "secret": RawStream(self.phones[self.secret], "/seat/events"),
                        "public": RawStream(self.public, "/events")}

    @property
    def sim(self):
        return self.hardware.sim

    def view(self, seat=None) -> dict:
        return self.companion.view(seat)

    def observe(self) -> None:
        for name, seat in (("other", self.other), ("secret", self.secret), ("public", None)):
            self.streams[name].wait_version(self.view(seat)["version"])
        self.received["other"].append(self.phones[self.other].request("/seat/view")[1])
        self.received["public"].append(self.public.request("/api/view")[1])
        self.secret_sizes.append(len(self.phones[self.secret].request("/seat/view")[1]))

    def act(self, seat: str, path: str, body: dict) -> None:
        table = self.view(seat)["table"]
        status, content = self.phones[seat].request(
            path, {**body, "step": f"{len(table['log'])}:{table['phase']}"})
        assert status == 200, (path, body, content[:200])
        if seat == self.other:
            self.received["other"].append(content)
        else:
            self.secret_sizes.append(len(content))
        self.observe()

    def ninjas(self) -> set[str]:
        return set(self.view(self.secret)["table"]["own_ninjas"]) | set(
            self.view(self.other)["table"].get("own_ninjas", []))

    def close(self) -> None:
        self.server.stop()
        for stream in self.streams.values():
            stream.close()
        self._stack.close()              # the companion, the hardware, the save file


def main_move(worlds: list[World], mover: str) -> dict:
    """A main-board move legal in both worlds that meets no Ninja of either, toward the win."""
    legal = [{a["text"]: a for a in w.view(mover)["table"]["legal"] if a["kind"] == "move"} for w in worlds]
    ninjas = set().union(*(w.ninjas() for w in worlds))
    common = [a for text, a in legal[0].items() if text in legal[1] and a["to"] not in ninjas]
    assert common, f"no move both worlds allow away from the Ninjas ({ninjas})"
    pieces = _pieces(worlds[0].view(None)["table"]["position"])
    own_master, enemy_master = ("R", "B") if mover == "red" else ("B", "R")
    master = next(sq for sq, p in pieces.items() if p == own_master)
    target = next((sq for sq, p in pieces.items() if p == enemy_master), None)

    def score(a):
        if a["to"] == target or (a["from"] == master and a["to"] == TEMPLE[mover]):
            return (0, 0, a["text"])
        to_master = _distance(a["to"] if a["from"] == master else master, TEMPLE[mover])
        return (1 if a["to"] in pieces else 2, to_master, a["text"])
    return min(common, key=score)


def shadow_master_steps(worlds: list[World]) -> list[str]:
    """The Way of the Light Shadow Master's hidden moves, one per world: the same card (it
    is public), never a capture (that would be public too), away from the Light Master and
    its goal. The worlds take different steps when the card allows two."""
    pieces = _pieces(worlds[0].view(None)["table"]["position"])
    master = next(sq for sq, p in pieces.items() if p in "RB")
    steps = [[a for a in w.view(w.secret)["table"]["legal"] if a.get("to") not in pieces]
             for w in worlds]
    cards = sorted({a["card"] for a in steps[0]} & {a["card"] for a in steps[1]})
    assert cards, steps
    away = lambda a: (-min(_distance(a["to"], master), _distance(a["to"], "c5")), a["text"])  # noqa: E731
    chosen = [sorted((a for a in s if a["card"] == cards[0]), key=away) for s in steps]
    return [chosen[0][0]["text"], chosen[1][min(1, len(chosen[1]) - 1)]["text"]]


def play_turn(worlds: list[World], variant: str) -> None:
    public = worlds[0].view(None)["table"]
    mover = public["turn"]
    if variant == "light" and mover == "blue":
        # The Shadow Master moves a Ninja on the phone: the same card in both worlds.
        for w, text in zip(worlds, shadow_master_steps(worlds)):
            w.act("blue", "/seat/action", {"text": text})
    else:
        move = main_move(worlds, mover)
        for w in worlds:
            frm, to = parse_square(move["from"]), parse_square(move["to"])
            if to in w.sim.pawns:
                w.sim.lift(to)
                time.sleep(HAND_S)
            w.sim.lift(frm)
            w.sim.place(to)
        for w in worlds:
            def moved(w=w):
                view = w.view(None)
                prompt = view["mat"]["prompt"]
                if prompt is not None:
                    w.act(prompt["seat"], "/seat/answer", {"card": move["card"]})
                return (view["game"]["status"] == "finished" or view["table"]["phase"] != "move"
                        or view["table"]["turn"] != mover)
            wait_for(moved, message=f"{move['text']}: {w.view(None)}")
            w.observe()
    for w in worlds:
        while (w.view(None)["game"]["status"] == "playing" and w.view(None)["table"]["turn"] == mover
               and w.view(None)["table"]["phase"] in ("ninja", "lantern")):
            text = "skip"
            if w.view(None)["table"]["phase"] == "ninja" and mover == w.secret and w.index == 1:
                avoid = set(_pieces(w.view(None)["table"]["position"])) | worlds[0].ninjas() | {
                    TEMPLE["red"], TEMPLE["blue"]}
                steps = sorted(a["text"] for a in w.view(mover)["table"]["legal"]
                               if a["kind"] == "ninja" and a["to"] not in avoid)
                text = steps[0] if steps else "skip"
            w.act(mover, "/seat/action", {"text": text})


@pytest.mark.parametrize("variant", ["shadow", "light"])
def test_a_whole_game_looks_the_same_whatever_the_secret_seat_chose(tmp_path, variant):
    worlds = [World(variant, i, tmp_path) for i in (0, 1)]
    try:
        for w in worlds:
            status, _ = w.public.request("/api/new-game", {"variant": variant, "seed": SEEDS[variant]})
            assert status == 200
            w.sim.set_pawns(frozenset(parse_square(s) for s in START[variant]))
            wait_for(lambda w=w: w.view(None)["game"]["status"] == "playing")
            for seat, choices in PLACES[variant].items():
                w.act(seat, "/seat/action", {"text": choices[w.index]})
        for _ in range(MAX_TURNS):
            if worlds[0].view(None)["game"]["status"] != "playing":
                break
            play_turn(worlds, variant)
        results = [w.view(None)["table"]["result"] for w in worlds]
        assert results[0] is not None and results[0] == results[1], (
            results, worlds[0].view(None)["table"]["log"], [w.ninjas() for w in worlds])
        secrets_ = [w.view(w.secret)["table"]["own_ninjas"] for w in worlds]
        assert worlds[0].view(worlds[0].secret) != worlds[1].view(worlds[1].secret), secrets_
    finally:
        for w in worlds:
            w.close()
    quiet, other = worlds
    # Once the game is over every seat's Ninjas are revealed to all (``all_ninjas``), as the
    # screens come down at the end of a real game: the comparison stops there.
    playing = lambda data: '"status":"finished"' not in (  # noqa: E731
        data.decode() if isinstance(data, bytes) else data)
    for who in ("other", "public"):
        a, b = ([x for x in w.received[who] if playing(x)] for w in worlds)
        assert len(a) == len(b) > 10
        assert len(quiet.received[who]) == len(other.received[who])
        for i, (x, y) in enumerate(zip(a, b)):
            at = next((j for j, (p, q) in enumerate(zip(x, y)) if p != q), 0)
            assert x == y, f"{who}, answer {i}: {x[at - 150:at + 100]!r} != {y[at - 150:at + 100]!r}"
        assert compare_streams(who, [w.streams[who] for w in worlds], contents=True,
                               padded=who == "other") > 10
    # The secret seat: the same sizes, answer by answer and message by message.
    assert quiet.secret_sizes == other.secret_sizes
    assert all(size == padding.bucket(size) for size in quiet.secret_sizes)
    assert compare_streams("secret", [w.streams["secret"] for w in worlds], contents=False,
                           padded=True) > 10
    contents = [[d for _, n, d in w.streams["secret"].messages if n == "view"] for w in worlds]
    assert contents[0] != contents[1]          # what differs is the content, not the size

"""Both seats playing a Way of the Shadow game over HTTP, every phone request timed (the load
test's players: tests/web/test_web_load.py and benchmarks/bench_load.py).

The main-board moves are made by hands on the simulated mat (in process, as a player's hands
on the real one); the Ninja placements, Ninja and Lantern skips and card answers come from the
seats' phones. The players head for the win (capture the master, or walk onto its temple,
else capture, else close in on the master), so the game ends in a few dozen turns.
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import time
import urllib.error
import urllib.request

from companion.mat.recognizer import CLEAR_S
from companion.rules.squares import parse_square

SHADOW_START = ("a1", "c1", "e1", "a5", "c5", "e5")
NINJAS = {"red": "Nb1", "blue": "Nd5"}
HAND_S = CLEAR_S + 0.07          # a captured pawn is held off the mat this long
TEMPLES = {"red": "c5", "blue": "c1"}   # the square each seat's master walks onto to win


class SeatPhone:
    """A seat's phone: its own cookie jar; every request timed."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.times: list[float] = []

    def request(self, path: str, body=None, timeout: float = 10.0) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=(
            {"Content-Type": "application/json"} if body is not None else {}))
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=timeout) as response:
                status, content = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, content = error.code, error.read()
        self.times.append(time.monotonic() - started)
        return status, content

    def join(self, url: str) -> None:
        status, _ = self.request("/J/" + url.rsplit("/J/", 1)[1])
        assert status == 200, status

    def act(self, companion, seat: str, path: str, body: dict) -> None:
        table = companion.view(seat)["table"]
        status, content = self.request(path, {**body, "step": f"{len(table['log'])}:{table['phase']}"})
        assert status == 200, (path, body, status, content[:300])


def wait_for(predicate, timeout: float = 10.0, message: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {message}")
        time.sleep(0.01)


def _choose(companion, mover: str, rng: random.Random) -> dict:
    table = companion.view(mover)["table"]
    moves = [a for a in table["legal"] if a["kind"] == "move"]
    enemy_master = "B" if mover == "red" else "R"
    pieces = _pieces(table["position"])
    target = next((sq for sq, p in pieces.items() if p == enemy_master), None)
    own_master = enemy_master.swapcase()

    def score(a):
        if a["to"] == target:
            return (0, 0)
        if pieces.get(a["from"]) == own_master and a["to"] == TEMPLES[mover]:
            return (0, 0)
        capture = a["to"] in pieces
        distance = _distance(a["to"], target) if target else 0
        return (1 if capture else 2, distance)

    best = min(score(a) for a in moves)
    return rng.choice([a for a in moves if score(a) == best])


def _pieces(position: str) -> dict[str, str]:
    rows = position.split()[0].split("/")
    out = {}
    for i, row in enumerate(rows):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            out["abcde"[file] + str(5 - i)] = ch
            file += 1
    return out


def _distance(a: str, b: str) -> int:
    return max(abs(ord(a[0]) - ord(b[0])), abs(int(a[1]) - int(b[1])))


def play_shadow(companion, sim, phones: dict[str, SeatPhone], *, seed: int = 5,
                max_turns: int = 200, new_game=None) -> dict:
    """Deals a Shadow game (``new_game``: how, default the red phone's POST) and plays it to
    the end, or ``max_turns``; returns {"turns", "result"}."""
    rng = random.Random(seed)
    status, _ = phones["red"].request("/api/new-game", {"variant": "shadow", "seed": seed})
    assert status == 200, status
    sim.set_pawns(frozenset(parse_square(s) for s in SHADOW_START))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing", message="set-up")
    for seat, text in NINJAS.items():
        phones[seat].act(companion, seat, "/seat/action", {"text": text})
    turns = 0
    while turns < max_turns and companion.view(None)["game"]["status"] == "playing":
        mover = companion.view(None)["table"]["turn"]
        move = _choose(companion, mover, rng)
        frm, to = parse_square(move["from"]), parse_square(move["to"])
        if to in sim.pawns:
            sim.lift(to)
            # Off the mat until the mat has seen it gone, and a moment more, as a hand is: a
            # scan thread starved for ~0.15 s (a loaded machine) missed a fixed 0.15 s lift,
            # and the capture was never read.
            wait_for(lambda: companion.view(None)["mat"]["state"] != "ok",
                     message=f"turn {turns}: the captured pawn on {move['to']} seen lifted")
            time.sleep(HAND_S)
        sim.lift(frm)
        sim.place(to)

        def moved():
            view = companion.view(None)
            prompt = view["mat"]["prompt"] if view["mat"] else None
            if prompt is not None and prompt["seat"] == mover:
                phones[mover].act(companion, mover, "/seat/answer", {"card": move["card"]})
            return (view["game"]["status"] != "playing" or view["table"]["phase"] != "move"
                    or view["table"]["turn"] != mover)
        wait_for(moved, message=f"turn {turns}: {move['text']}")
        while True:
            view = companion.view(None)
            if view["game"]["status"] != "playing" or view["table"]["turn"] != mover \
                    or view["table"]["phase"] not in ("ninja", "lantern"):
                break
            phones[mover].act(companion, mover, "/seat/action", {"text": "skip"})
        phones[mover].request("/seat/view")
        turns += 1
    return {"turns": turns, "result": companion.view(None)["table"]["result"]}

"""The secret-keeping property through the web: the same scripted Way of the Shadow game played
twice on a real server, once with Red's Ninja stepping wherever it may and once leaving it,
must send Blue's phone and the public exactly the same bytes: the seat's and the public JSON
views, every view their streams sent, every answer to Blue's own requests, the OLED picture
at every step and every picture the OLED was given to show.

The public stream's ``oled`` events are left out of the comparison: they are a sample of the
OLED pictures taken every half second, so which transient pictures they catch depends on the
clock, not on the game. The pictures themselves are compared in full instead."""

from __future__ import annotations

import dataclasses
from contextlib import ExitStack

from companion.mat.recognizer import CLEAR_S
from companion.rules.squares import parse_square
from companion.web import Server, create_app

from mat_moves import step_on_mat, twin_step
from phone_helpers import SHADOW_START, HttpPhone, wait_for
from sim_table import sim_companion

TURNS = 8
SEED = 11
HAND_S = CLEAR_S + 0.07   # how long a hand holds a captured pawn off the mat


def difference(a: bytes, b: bytes) -> str:
    """Where two readings part: the bytes around the first difference."""
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at byte {at}: {a[max(0, at - 80):at + 80]!r} != {b[max(0, at - 80):at + 80]!r}"


def steady_oled(public: HttpPhone, oled) -> bytes:
    """The OLED picture once the OLED worker has sent the newest screen over the bus (on a
    loaded machine it lags the views), read three times alike."""
    assert oled.wait_shown(5.0), "the OLED worker never caught up"
    seen = [public.get("/oled.png")]
    while len(seen) < 3 or len(set(seen[-3:])) > 1:
        seen.append(public.get("/oled.png"))
        assert len(seen) < 200, "the OLED never settled"
    return seen[-1]


class RecordingOled:
    """The OLED, noting every picture the companion gives it."""

    def __init__(self, oled):
        self._oled = oled
        self.shown: list[bytes] = []

    def display(self, image) -> None:
        self.shown.append(image.tobytes())
        self._oled.display(image)

    def __getattr__(self, name):
        return getattr(self._oled, name)


def play(tmp_path, name: str, script: list[dict] | None = None):
    """Plays TURNS turns. Without ``script`` Red's Ninja never moves and the moves played are
    returned; with it, the same moves, Red's Ninja stepping whenever it may (onto squares the
    script never lands on, so no pawn meets it)."""
    oled: list[RecordingOled] = []
    servers: list[Server] = []

    def recording(hardware):
        oled.append(RecordingOled(hardware.oled))
        return dataclasses.replace(hardware, oled=oled[0])

    stack = ExitStack()
    # The address the OLED shows: the same in both games (each server has a port of its own).
    table = stack.enter_context(sim_companion(
        tmp_path / f"{name}.db", public_url="http://10.42.0.1:8000", seen_as=recording,
        before_start=lambda c: servers.append(Server(create_app(c, secret_key=b"secrets"), "127.0.0.1", 0).start())))
    companion, hardware, server = table.companion, table.hardware, servers[0]
    stack.callback(server.stop)          # first: the streams end before the companion closes
    red, blue, public = (HttpPhone(server.url) for _ in range(3))
    red.join(companion.join_url("red"))
    blue.join(companion.join_url("blue"))
    streams = {"blue": blue.stream("/seat/events"), "public": public.stream("/events")}
    received = {"blue": [], "public": []}      # what Blue and the public got, step by step
    red_ninjas, moves = [], []
    avoid = {m["to"] for m in script or ()}

    def observe():
        # Wait until both streams carry the newest view, then read what each may read.
        streams["blue"].wait_version(companion.view("blue")["version"])
        streams["public"].wait_version(companion.view(None)["version"])
        received["blue"].append(blue.get("/seat/view"))
        received["public"].extend([public.get("/api/view"), steady_oled(public, oled[0])])
        red_ninjas.append(companion.view("red")["table"]["own_ninjas"])

    def send(phone, who, text):
        table = companion.view(who)["table"]
        status, body = phone.post("/seat/action", {"text": text, "step": f"{len(table['log'])}:{table['phase']}"})
        assert status == 200, body
        if who == "blue":
            received["blue"].append(body)

    try:
        public.post("/api/new-game", {"variant": "shadow", "seed": SEED})
        # The hands on the mat are the simulated switches themselves: a lift and the placement
        # after it land within one debounce window, as in the service's own secrecy test.
        sim = hardware.sim
        sim.set_pawns(frozenset(parse_square(s) for s in SHADOW_START))
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        observe()
        send(red, "red", "Nb1")
        observe()
        send(blue, "blue", "Nd5")
        observe()
        for turn in range(TURNS):
            mover, move = twin_step(companion, script, turn)
            phone = red if mover == "red" else blue
            moves.append(move)
            step_on_mat(sim, move, HAND_S)

            def moved():
                view = companion.view(None)
                prompt = view["mat"]["prompt"]
                if prompt is not None:
                    # Both streams carry the question before it is answered: a stream sends
                    # the newest view when it wakes, so on a loaded machine a quick answer
                    # hid the question from one game's stream only (the clock, not the game).
                    streams["blue"].wait_version(companion.view("blue")["version"])
                    streams["public"].wait_version(view["version"])
                    asker = red if prompt["seat"] == "red" else blue
                    table = companion.view(prompt["seat"])["table"]
                    status, body = asker.post("/seat/answer", {"card": move["card"], "step": f"{len(table['log'])}:{table['phase']}"})
                    if prompt["seat"] == "blue":
                        received["blue"].append(body)
                    observe()
                return (view["table"]["phase"] != "move" or view["table"]["turn"] != mover
                        or view["game"]["status"] == "finished")
            wait_for(moved, message=lambda: f"turn {turn}: {move['text']}: {companion.view(None)}")
            observe()
            if companion.view(None)["table"]["phase"] == "ninja":
                steps = sorted(a["text"] for a in companion.view(mover)["table"]["legal"]
                               if a["kind"] == "ninja" and parse_square(a["to"]) not in sim.pawns
                               and a["to"] not in avoid)
                secret = script is not None and mover == "red" and steps
                send(phone, mover, steps[0] if secret else "skip")
                observe()
            if companion.view(None)["table"]["phase"] == "lantern":
                send(phone, mover, "skip")
                observe()
            if companion.view(None)["game"]["status"] == "finished":
                break
    finally:
        stack.close()
        for stream in streams.values():
            stream.close()
    events = {who: [e for e in stream.events if e[0] != "oled"] for who, stream in streams.items()}
    received["oled"] = oled[0].shown
    return received, events, red_ninjas, moves


def test_blue_and_the_public_cannot_tell_whether_reds_ninja_moved(tmp_path):
    quiet, quiet_events, quiet_ninjas, script = play(tmp_path, "quiet")
    moving, moving_events, moving_ninjas, _ = play(tmp_path, "moving", script)
    assert quiet_ninjas != moving_ninjas          # Red's Ninja did move in one game only
    for who in ("blue", "public", "oled"):
        assert len(quiet[who]) == len(moving[who]) > TURNS
        for i, (a, b) in enumerate(zip(quiet[who], moving[who])):
            assert a == b, f"{who}, reading {i}: {difference(a, b)}"
    for who in ("blue", "public"):
        for i, (a, b) in enumerate(zip(quiet_events[who], moving_events[who])):
            assert a == b, f"{who}'s stream, event {i}: {a!r} != {b!r}"
        assert len(quiet_events[who]) == len(moving_events[who])

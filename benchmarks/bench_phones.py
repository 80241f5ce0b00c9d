"""Benchmark: ten phones on the event streams while the mat keeps scanning.

    python benchmarks/bench_phones.py [--presses 100] [--turns 30] [--gap 0.2]

The companion runs as `onitama-companion sim` runs it (simulated hardware, the real service
and web app under waitress, on 127.0.0.1), with a Way of the Shadow game on the mat. Two
phones hold the seats (/seat/events) and eight spectators watch the table (/events): ten
streams. Events that change every audience's view, so each is one event for all ten phones:
presses of button C on the simulated companion (the OLED turns to its next page), and a
player's "skip" of the Ninja step or the Lantern sent from their phone.

Measured:
1. Delivery: from the moment the service published a view (an in-process subscriber of each
   audience notes when each version appears) to each phone reading it off its stream.
2. End to end, from a phone: a player's "skip" (POST /seat/action, in a game the mat plays on)
   to each phone reading the view it caused. And from a button press request to each phone
   (a short press is known only once the button is let go: the simulated press is held 80 ms).
3. The mat meanwhile: scans per second against the pin map's rate and the gaps between scans,
   idle (no phone connected) and with the ten streams and the events.
4. A request while the ten streams are open: GET /api/view, to see that streams do not
   starve the other requests of waitress's threads.
"""

from __future__ import annotations

import argparse
import dataclasses
import http.cookiejar
import json
import sys
import threading
import time
import urllib.request
from pathlib import Path
from tempfile import TemporaryDirectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.table.service import Companion  # noqa: E402
from companion.rules.squares import parse_square  # noqa: E402
from companion.table.store import GameStore  # noqa: E402
from companion.web import Server, create_app  # noqa: E402
from firmware.hardware import make_hardware  # noqa: E402

SPECTATORS = 8
SHADOW_START = ("a1", "c1", "e1", "a5", "c5", "e5")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return (f"p50 {percentile(values, 50) * 1000:6.2f} ms   p99 {percentile(values, 99) * 1000:6.2f} ms   "
            f"max {max(values) * 1000:6.2f} ms   (n={len(values)})")


class CountingScanner:
    """The mat's scanner, noting when each scan ran."""

    def __init__(self, scanner):
        self._scanner = scanner
        self.config = scanner.config
        self.times: list[float] = []

    def scan(self):
        self.times.append(time.monotonic())
        return self._scanner.scan()

    def close(self) -> None:
        self._scanner.close()


class Published:
    """When each version of one audience's view appeared in the service."""

    def __init__(self, companion, seat):
        self.at: dict[int, float] = {}
        self._subscription = companion.subscribe(seat)
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self._subscription.closed:
            view = self._subscription.get(0.5)
            if view is not None:
                self.at.setdefault(view["version"], time.monotonic())

    def close(self) -> None:
        self._subscription.close()


class Phone:
    """A phone on a stream: notes when each view version arrives."""

    def __init__(self, opener, url: str, audience):
        self.audience = audience
        self.at: dict[int, float] = {}
        self.changed = threading.Condition()
        self._response = opener.open(url, timeout=30)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name = ""
        try:
            for raw in self._response:
                line = raw.decode()
                if line.startswith("event: "):
                    name = line[7:].strip()
                elif line.startswith("data: ") and name == "view":
                    now = time.monotonic()
                    version = json.loads(line[6:])["version"]
                    with self.changed:
                        self.at.setdefault(version, now)
                        self.changed.notify_all()
        except (OSError, ValueError):
            pass   # the server stopped

    def latest(self) -> int:
        with self.changed:
            return max(self.at, default=-1)

    def wait_beyond(self, version: int, timeout: float = 5.0) -> int:
        with self.changed:
            if not self.changed.wait_for(lambda: max(self.at, default=-1) > version, timeout):
                raise RuntimeError(f"a phone ({self.audience}) got no new view in {timeout} s")
            return max(self.at)


def opener():
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def post(base: str, path: str, body, client=None) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with (client or opener()).open(request, timeout=10) as response:
        return json.loads(response.read())


def wait_for(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError("the companion did not get there in time")
        time.sleep(0.01)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=100, help="events to send (button C presses)")
    parser.add_argument("--turns", type=int, default=30, help="turns of the game, two skips each")
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between events")
    args = parser.parse_args()

    hardware = make_hardware("sim")
    scanner = CountingScanner(hardware.scanner)
    hardware = dataclasses.replace(hardware, scanner=scanner)
    with TemporaryDirectory() as state:
        store = GameStore(Path(state) / "games.db")
        companion = Companion(hardware, store)
        server = Server(create_app(companion), "127.0.0.1", 0).start()
        companion.public_url = base = server.url
        companion.start()
        try:
            return run(args, companion, hardware, scanner, base)
        finally:
            server.stop()
            companion.close()
            hardware.close()
            store.close()


def run(args, companion, hardware, scanner, base: str) -> int:
    seats = {seat: opener() for seat in ("red", "blue")}
    for seat, client in seats.items():
        client.open(base + "/J/" + companion.join_url(seat).rsplit("/J/", 1)[1], timeout=10).read()
    post(base, "/api/new-game", {"variant": "shadow", "seed": 23})
    hardware.sim.set_pawns(frozenset(parse_square(s) for s in SHADOW_START))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    for seat, square in (("red", "Nd1"), ("blue", "Nb5")):
        table = companion.view(seat)["table"]
        post(base, "/seat/action", {"text": square, "step": f"{len(table['log'])}:{table['phase']}"}, seats[seat])

    idle_from = len(scanner.times)
    time.sleep(3)
    idle = scanner.times[idle_from:]

    published = {seat: Published(companion, seat) for seat in (None, "red", "blue")}
    phones = [Phone(seats[seat], base + "/seat/events", seat) for seat in seats]
    phones += [Phone(opener(), base + "/events", None) for _ in range(SPECTATORS)]
    for phone in phones:
        phone.wait_beyond(-1)

    delivery, pressed_to, acted_to, requests = [], [], [], []
    scans_from = len(scanner.times)
    started = time.monotonic()

    def event(trigger, into) -> None:
        before = [phone.latest() for phone in phones]
        sent = time.monotonic()
        trigger()
        for phone, old in zip(phones, before):
            version = phone.wait_beyond(old)
            arrived = phone.at[version]
            wait_for(lambda: version in published[phone.audience].at)
            delivery.append(arrived - published[phone.audience].at[version])
            into.append(arrived - sent)
        asked = time.monotonic()
        with urllib.request.urlopen(base + "/api/view", timeout=10) as response:
            response.read()
        requests.append(time.monotonic() - asked)
        time.sleep(max(0.0, sent + args.gap - time.monotonic()))

    for _ in range(args.presses):
        event(lambda: post(base, "/sim/button", {"button": "C"}), pressed_to)
    for _ in range(args.turns):
        if not turn(companion, hardware, base, seats, lambda trigger: event(trigger, acted_to)):
            break
    elapsed = time.monotonic() - started
    for audience in published.values():
        audience.close()

    rate = hardware.scanner.config.scan_hz
    print(f"{len(phones)} phones ({len(seats)} seats, {SPECTATORS} spectators), "
          f"{len(pressed_to) // len(phones) + len(acted_to) // len(phones)} events over {elapsed:.1f} s")
    print(f"publish -> phone:     {ms(delivery)}")
    print(f"skip -> phone:        {ms(acted_to)}")
    print(f"press -> phone:       {ms(pressed_to)}")
    print(f"GET /api/view:        {ms(requests)}")
    for name, times in (("idle", idle), ("10 phones", scanner.times[scans_from:])):
        gaps = [b - a for a, b in zip(times, times[1:])]
        print(f"mat scans, {name + ':':11s}{len(times) / (times[-1] - times[0]):6.1f} per second "
              f"(pin map: {rate:g}); gaps p99 {percentile(gaps, 99) * 1000:.1f} ms, "
              f"max {max(gaps) * 1000:.1f} ms (period {1000 / rate:.1f} ms)")
    return 0


def turn(companion, hardware, base: str, seats: dict, event) -> bool:
    """One turn of the game: the mover's first legal pawn step (not a capture) on the mat,
    then "skip" for the Ninja and the Lantern from the mover's phone, each one measured
    event. False once the game is over or no such step is left."""
    view = companion.view(None)
    if view["game"]["status"] != "playing":
        return False
    mover = view["table"]["turn"]
    pawns = hardware.sim.pawns
    moves = [a for a in companion.view(mover)["table"]["legal"] if a["kind"] == "move"
             and parse_square(a["to"]) not in pawns]
    unique = [a for a in moves if sum((m["from"], m["to"]) == (a["from"], a["to"]) for m in moves) == 1]
    if not unique:
        return False
    move = unique[0]
    hardware.sim.lift(parse_square(move["from"]))
    hardware.sim.place(parse_square(move["to"]))
    wait_for(lambda: companion.view(None)["table"]["phase"] != "move"
             or companion.view(None)["table"]["turn"] != mover)
    while companion.view(None)["table"]["phase"] in ("ninja", "lantern") and companion.view(None)["table"]["turn"] == mover:
        table = companion.view(mover)["table"]
        body = {"text": "skip", "step": f"{len(table['log'])}:{table['phase']}"}
        event(lambda: post(base, "/seat/action", body, seats[mover]))
    wait_for(lambda: companion.view(None)["game"]["status"] in ("playing", "finished"))
    return True


if __name__ == "__main__":
    sys.exit(main())

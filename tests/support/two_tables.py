"""A real Mosquitto on a free loopback port, and two companions on simulated mats linked
through it: the fixtures of the table-to-table tests (tests/link) and their benchmark.

The broker is this test's own (a temporary config and directory), never the system's
service; it listens on 127.0.0.1 only, so nothing talks off the machine."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import time

import pytest

from companion.link.broker import Mosquitto, installed
from companion.link.links import Links
from companion.table.opponent import Thinking

from companion.rules.actions import parse_action
from companion.rules.moves import Move
from companion.rules.position import board_pieces
from companion.rules.squares import parse_square
from companion.rules.ways import WAYS

from mat_moves import make_on_mat, set_up
from sim_table import SimTable, sim_companion
from waiting import wait_for

# Two companions and a broker share two cores with whatever else runs: a lift this long is
# seen by the scan loop even under a load of 15 (the usual 0.12 s was missed there).
LIFTED_S = 0.4
FAST = {"computer": Thinking(nodes=300, hint_nodes=300), "settle": 0.05, "public_url": None}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    if installed() is None:
        pytest.fail("mosquitto is not installed: ./dev installs it (apt-get install mosquitto)")
    server = Mosquitto(tmp_path / "broker")
    server.start()
    try:
        yield server
    finally:
        server.kill()


class Side:
    """One table: its companion on a simulated mat, and its links. ``restart()`` stops it all
    (as a power cut would, the save file kept) and starts it again on the same save file."""

    def __init__(self, db: Path, broker: str):
        self.db, self.broker = db, broker
        self.restarts = 0
        self._start()

    def _start(self) -> None:
        self._stack = ExitStack()
        self.table: SimTable = self._stack.enter_context(sim_companion(self.db, **FAST))  # type: ignore[arg-type]
        self.links = Links(self.table.companion, self.broker)
        self._stack.callback(self.links.close)

    def close(self) -> None:
        self._stack.close()

    def restart(self) -> None:
        self.close()
        self.restarts += 1
        self._start()

    @property
    def companion(self):
        return self.table.companion

    @property
    def hw(self):
        return self.table.hardware


@contextmanager
def linked_side(db: Path, broker: str) -> Iterator[Side]:
    side = Side(db, broker)
    try:
        yield side
    finally:
        side.close()


@contextmanager
def two_tables(tmp_path: Path, broker: Mosquitto, request: dict) -> Iterator[tuple[Side, Side]]:
    """The host deals ``request`` (its ``table`` names the guest's seat); the guest takes
    the invite. Yields (host, guest) once both have the game."""
    with ExitStack() as stack:
        host = stack.enter_context(linked_side(tmp_path / "host.db", broker.address))
        guest = stack.enter_context(linked_side(tmp_path / "guest.db", broker.address))
        host.companion.submit(None, {"type": "new_game", **request})
        invite = wait_for(lambda: host.links.invite(), message=lambda: "the host made no invite")
        guest.links.join(invite.code())
        yield host, guest


def local_seat(view: dict) -> str:
    return "red" if view["game"]["table"] == ["blue"] else "blue"


def progress(companion) -> tuple:
    v = companion.view(None)
    if v.get("game") is None:
        return ()
    # A hidden way's set-up and steps within a turn change the seat to act or the phase.
    return (len(v["table"]["log"]), v["game"]["status"], v["game"]["expected"] is not None,
            v["mat"]["prompt"] is not None, v["game"]["id"], tuple(v["table"]["to_act"]),
            v["table"].get("phase"))


def act(side: Side, rng) -> bool:
    """One thing the people at ``side``'s table do now, if any: lay out the mat, answer the
    mat's question, make the other table's move as shown, or play their own seat's move at
    random (on the mat when the mat reads it). False: nothing to do here now."""
    companion, hw = side.companion, side.hw
    view = companion.view(None)
    if view.get("game") is None or view["table"]["result"] is not None:
        return False
    table, game, here = view["table"], view["game"], local_seat(view)
    if game["status"] == "sync":
        if frozenset(board_pieces(table["position"])) == hw.sim.pawns:
            return False
        set_up(companion, hw)
    elif view["mat"]["prompt"] is not None:
        prompt = view["mat"]["prompt"]
        if prompt["seat"] != here:
            return False            # the service answers for the other table's move itself
        companion.submit(here, {"type": "answer", "card": rng.choice(prompt["choose"])})
    elif game["expected"] is not None:
        move = parse_action(game["expected"]["text"])
        assert isinstance(move, Move)
        make_on_mat(hw, table["position"], move, LIFTED_S)
    elif here in table["to_act"] and game["status"] == "playing":
        legal = companion.view(here)["table"]["legal"]
        # Players who take what they can: games of tens of moves, not hundreds.
        pieces = board_pieces(table["position"])
        takes = [a for a in legal if a.get("to") and parse_square(a["to"]) in pieces]
        action = rng.choice(takes if takes and rng.random() < 0.8 else legal)
        if (action.get("kind") == "move" and view["mat"]["state"] == "ok"
                and WAYS[game["variant"]].mat_reads_moves):
            make_on_mat(hw, table["position"], parse_action(action["text"]), LIFTED_S)
        else:
            companion.submit(here, {"type": "action", "text": action["text"]})
    else:
        return False
    return True


# A game is stuck when neither table moves on for this long (six of the links' 5 s resyncs).
STUCK_S = 30.0


def play_across(host: Side, guest: Side, rng, *, max_steps: int | None = 600, between=None,
                stuck_s: float = STUCK_S) -> dict:
    """Both tables play until the game ends at both: each side's people do what their table
    asks (``act``); ``between(step)`` runs between two rounds (a test kills something there).
    Returns the result. It fails once neither table has moved on for ``stuck_s`` seconds, or
    after ``max_steps`` rounds in which someone did something (``None``: no bound, as kills
    make a game long, not stuck). Rounds spent waiting for the other table do not count: a
    budget of them was a timeout in disguise, and a loaded machine ran it out mid-game."""
    seen, since = None, time.monotonic()
    done_rounds, step = 0, 0
    while max_steps is None or done_rounds < max_steps:
        now = (progress(host.companion), progress(guest.companion))
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since > stuck_s:
            break
        done = [side for side in (host, guest) if side.companion.view(None)["table"]["result"]]
        if len(done) == 2:
            return host.companion.view(None)["table"]["result"]
        moved = False
        for side in (host, guest):
            before = progress(side.companion)
            if act(side, rng):
                moved = True
                wait_for(lambda: progress(side.companion) != before, timeout=20,
                         message=lambda: f"stuck at {side.companion.view(None)}")
        if moved:
            done_rounds += 1
        else:
            time.sleep(0.02)
        if between is not None:
            between(step)
        step += 1
    raise AssertionError("the game did not end at both tables: " + "; ".join(
        f"{side.db.name}: {progress(side.companion)} {side.companion.view(None).get('instruction')} "
        f"rows {len(rows(side))} (last {rows(side)[-2:]}), link "
        f"{side.links.link and (side.links.link.peer_state, side.links.link.peer_have, side.links.link.refused[-3:], sorted(side.links.link._early), side.links.link._mqtt.is_connected())}"
        for side in (host, guest)) + "; " + _parting(host, guest))


def _parting(host: Side, guest: Side) -> str:
    """Where the two tables' rows first differ, for a failure's message (one desync seen once
    in the suite's 1,400 tests under load, with the rows' ends alike)."""
    a, b = rows(host), rows(guest)
    n = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"rows part at {n}: host {a[n:n + 3]}, guest {b[n:n + 3]}"


def rows(side: Side) -> list[tuple[str | None, str]]:
    game = side.companion.view(None)["game"]
    return side.companion.table_rows(game["id"])


def assert_honest(host: Side, guest: Side) -> None:
    """A game of halves is over: each table opened its commitments, audited the other's, found
    no lie, and kept its verdict with the game's result."""
    for side in (host, guest):
        wait_for(lambda: side.links.link is not None and side.links.link.lies is not None, timeout=30,
                 message=lambda: f"no audit at {side.db.name}")
        assert side.links.link.lies == [], side.links.link.lies
        game = side.companion.view(None)["game"]["id"]
        other = "blue" if side.companion.view(None)["game"]["table"] == ["blue"] else "red"
        audit = side.companion._store.game(game).result["audit"]
        assert {k: audit[k] for k in ("checked", "lies")} == {"checked": other, "lies": []}

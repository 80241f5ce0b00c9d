"""The table robot: whole random games through the running companion, played as players do.

A world is the companion as ``onitama-companion sim`` runs it: simulated hardware, the real
service, the web app under waitress on 127.0.0.1. The robot has two phones (each its own
cookie jar, joined by its seat's code) and a pair of hands on the simulated switches
(``/sim/lift``, ``/sim/place``, ``/sim/button``). It reads only what a player can see: the
seat pages' views (``/seat/view``), the public view, the OLED and the lit squares.

- The mat: a main-board move is lifted and placed square by square, captures in either order
  (the captured pawn first, or the mover first and both in the hand), the Wind Spirit's swaps,
  and now and then a hesitation (the pawn lifted and put back before the real move). After a
  move made from a phone the mat is set right by the view's out-of-step squares.
- The phones: every step the seat page offers (its ``legal`` list, as ``seat.js`` filters it)
  is sent as the page sends it (``POST /seat/action`` with the step it is for).
- Card questions: answered with button A or B under the OLED, or on the asking phone.

At every step: never stuck (whoever must act has a control that works: the move is read, or
the page's request is accepted), never leaks (a twin world whose hidden seat makes other
secret choices shows the other seat and the public the same views, streams, OLED text and
picture, and LED scene), always ends, and always replays (the saved record gives the result).
"""

from __future__ import annotations

import http.cookiejar
import json
import random
import re
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from companion.mat.recognizer import CLEAR_S
from companion.rules import sealed
from companion.rules.actions import action_dict
from companion.rules.position import board_pieces
from companion.rules.record import GameRecord, replay
from companion.rules.selfplay import secret_alternatives
from companion.rules.squares import square_name
from companion.table.opponent import Thinking
from companion.table.outputs import SHOW_S
from companion.table.service import Companion
from companion.web import Server, create_app
from instructions import check as check_instructions
from robot_checks import Checker, SecretScan
from seat_kinds import KINDS, MAT, SEATINGS, seating_request
from seat_changes import SeatChanges
from seat_play import SeatPlay
from sim_table import sim_companion
from sse import sse_events

SEATS = ("red", "blue")
# Every way of playing: (name, new-game request fields).
WAYS = [("base", {}), *[(f"wind{n}", {"variant": "wind", "wind_cards": n}) for n in range(6)],
        *[(v, {}) for v in ("shadow", "light", "seven", "nine", "knowledge", "simultaneous",
                            "conditional")]]
# The variants whose main-board moves the mat reads (seat.js MAT_VARIANTS).
MAT_VARIANTS = ("base", "wind", "shadow", "light")
HIDDEN = ("shadow", "light", "simultaneous")
SETTLE_S = 0.06          # the recognizer's settle time in the robot's worlds (at most 0.5)
HOLD_S = CLEAR_S + 0.1   # a lifted pawn is held off long enough to be seen gone, on a busy machine too
AMEND_GRACE_S = 1.0      # a read move is amended within this (the settle time, many times over)
STEP_S = 4.0             # whoever must act has made progress within this, or the table is stuck
MAX_TURNS = 300
# The computer's budget in the robot's worlds: a few hundred nodes, so that it decides at once.
ROBOT_THINKING = Thinking(nodes=200, hint_nodes=200)


class Stuck(AssertionError):
    """The player who must act has no control that works."""


class Leak(AssertionError):
    """The twin worlds show the other seat or the public something different."""


def wait_until(predicate, timeout: float, what) -> object:
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise Stuck(what() if callable(what) else what)
        time.sleep(0.008)


class Client:
    """A browser's requests: its own cookie jar, JSON in and out."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, path: str, body=None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if body is not None else {}
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data=data, headers=headers),
                                  timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def json(self, path: str, body=None) -> dict:
        status, data = self.request(path, body)
        if status != 200:
            raise AssertionError(f"{'POST' if body is not None else 'GET'} {path} {body}: {status} {data[:300]!r}")
        return json.loads(data)


class Stream:
    """The newest view an event stream delivered (read on a thread of its own)."""

    def __init__(self, client: Client, path: str):
        self.response = client.opener.open(client.base + path, timeout=30)
        self.latest: dict | None = None
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for name, data in sse_events(self.response):
                if name == "view":
                    with self._lock:
                        self.latest = _whole(self.latest, json.loads(data))
        except (OSError, ValueError, AttributeError):
            pass        # the stream ended (http.client drops its file when closed under a read)

    def view(self) -> dict | None:
        with self._lock:
            return self.latest

    def close(self) -> None:
        self.response.close()


def _whole(held: dict | None, view: dict) -> dict:
    """A stream's view made whole again, as the pages do (common.js ``withLog``): after the
    first view, the growing lists come as the entries since the last one. Which views a
    stream delivers depends on timing, so only whole views can be compared between twins."""
    table = view.get("table")
    if not isinstance(table, dict):
        return view
    old = (held or {}).get("table") or {}
    whole = dict(table)
    for key in ("log", "moves"):
        delta = whole.pop(f"{key}_since", None)
        if delta is not None:
            whole[key] = (old.get(key) or [])[:delta["from"]] + delta["turns"]
    return {**view, "table": whole}


def _bare(view: dict | None) -> dict | None:
    return None if view is None else {k: v for k, v in view.items() if k != "version"}


class World:
    """One companion on simulated hardware behind its web server, with two phones."""

    def __init__(self, state: Path, *, streams: bool = False, traces: bool = False):
        self._stack = ExitStack()
        self.state = state
        # ``traces``: the mat's traces recorded under ``state`` (serve --record-trace), for a
        # failed game's report.
        sim = self._stack.enter_context(sim_companion(state / "games.db", public_url=None,
                                                      settle=SETTLE_S, before_start=self._serve,
                                                      computer=ROBOT_THINKING,
                                                      record_trace=state / "trace.jsonl" if traces else None))
        self.hardware, self.companion = sim.hardware, sim.companion
        self.table = Client(self.server.url)
        self.phones = {seat: Client(self.server.url) for seat in SEATS}
        self.streams: dict[str | None, Stream] = {}
        self.want_streams = streams
        self.game_id: int | None = None

    def close(self) -> None:
        self.server.stop()               # ends the streams first: their readers see the end
        for stream in self.streams.values():
            stream.close()
        self._stack.close()              # the companion, the hardware, the save file

    def _serve(self, companion: Companion) -> None:
        """Before the companion starts: its web server, whose address the join codes name."""
        self.server_app = create_app(companion)
        self.server = Server(self.server_app, "127.0.0.1", 0).start()
        companion.public_url = self.server.url

    # -- what players see ----------------------------------------------------------------

    def public(self) -> dict:
        return self.table.json("/api/view")

    def seat(self, seat: str) -> dict:
        return self.phones[seat].json("/seat/view")

    def pawns(self) -> set[str]:
        return set(self.table.json("/sim/state")["pawns"])

    def outputs(self, observer: str | None, hidden: str | None = None) -> dict:
        """Everything ``observer`` (a seat, or None: only the public) and the table receive;
        and what the network sees of the ``hidden`` seat's phone: the size of its view."""
        out = {"public": _bare(self.public()), "oled": self.table.request("/oled.png")[1],
               # The animator's scene: the LED frames are drawn from it (their blink phase
               # depends only on the clock).
               "leds": repr(self.companion._display._scene)}
        if observer is not None and self.companion.joinable(observer):
            out["seat"] = _bare(self.seat(observer))        # the computer's is served to nobody
        if hidden is not None and self.companion.joinable(hidden):
            out["network"] = len(self.phones[hidden].request("/seat/view")[1])
        for audience, stream in self.streams.items():
            if audience is None or audience == observer:
                out[f"stream-{audience}"] = _bare(stream.view())
        return out

    # -- the robot's hands and phones ------------------------------------------------------

    def deal(self, request: dict, seed: int) -> None:
        answer = self.table.json("/api/new-game", {**request, "seed": seed})
        self.game_id = answer["game"]
        for seat, phone in self.phones.items():
            if not self.public()["seats"][seat] and self.companion.joinable(seat):
                status, _ = phone.request("/J/" + self.companion.join_url(seat).rsplit("/J/", 1)[1])
                assert status == 200, f"{seat}'s phone could not join: {status}"
        if self.want_streams and not self.streams:
            self.streams = {None: Stream(self.table, "/events"),
                            **{seat: Stream(phone, "/seat/events") for seat, phone in self.phones.items()
                               if self.companion.joinable(seat)}}

    def lift(self, square: str) -> None:
        self.table.json("/sim/lift", {"square": square})

    def place(self, square: str) -> None:
        self.table.json("/sim/place", {"square": square})

    def button(self, name: str, long: bool = False) -> None:
        self.table.json("/sim/button", {"button": name, "long": long})

    def seen_empty(self, square: str, timeout: float = 2.0) -> float:
        """Wait until the table has read ``square`` empty off the mat (harness only: the
        occupancy its game thread was given); the time it had, or now after ``timeout``."""
        sq, end = _sq(square), time.monotonic() + timeout
        while sq in self.companion._occupancy and time.monotonic() < end:
            time.sleep(0.005)
        return time.monotonic()

    def record(self) -> dict:
        return self.table.json(f"/games/{self.game_id}/record.json")

    def settled(self) -> None:
        """Wait until the game thread has published all it has done (harness only)."""
        self.companion._thread.call(lambda: None)

    def referee(self):
        """The referee, for the harness's twin bookkeeping only (never for a player's choice)."""
        return self.companion._game.referee


def progress(view: dict) -> str:
    """What changes when a player has done something: the game, its table and the mat's question."""
    return json.dumps([view["game"], view["table"] and {k: v for k, v in view["table"].items()
                                                      if k not in ("legal",)},
                       view["mat"] and view["mat"]["prompt"]], sort_keys=True)


def played(view) -> str:
    """The game's progress without the mat's question: what a read move changes."""
    if isinstance(view, list):                # a progress() key, decoded
        return json.dumps(view[:2], sort_keys=True)
    return json.dumps([view["game"], view["table"] and {k: v for k, v in view["table"].items()
                                                       if k not in ("legal",)}], sort_keys=True)


def has_pawns(position: str, seat: str) -> bool:
    return any(p in ("Rr" if seat == "red" else "Bb") for p in board_pieces(position).values())


def mat_turn(view: dict, seat: str) -> bool:
    """Does the mat read this seat's step (``seat.js`` offers nothing on the phone then)?"""
    t = view["table"]
    return (view["game"]["variant"] in MAT_VARIANTS and (t.get("phase") or "move") == "move"
            and has_pawns(t["position"], seat))


def step_key(view: dict) -> str:
    t = view["table"]
    return f"{len(t['log'])}:{t.get('phase') or 'move'}"


@dataclass
class GameReport:
    way: str
    seed: int
    turns: int = 0
    winner: str | None = None
    how: str = ""
    mat_moves: int = 0
    phone_steps: int = 0
    questions: int = 0
    twin_checks: int = 0
    seating: str = MAT
    computer_moves: int = 0      # moves the hands made on the mat for the computer
    wrong_moves: int = 0         # wrong ones made first, refused and guided back
    hints: int = 0               # hints given (asked on the phone or at the mat)
    refused: int = 0             # hints asked at the mat in a way with secrets: none spent
    intrusions: int = 0          # strangers at a seat's code, buttons pressed for them
    reports: int = 0             # report zips built and compared
    takeovers: int = 0           # a new phone asked for a person's seat (and took it, or gave up)
    gave_up: int = 0             # of those, it gave up asking
    abandoned: int = 0           # the game was abandoned for a new one
    notes: list[str] = field(default_factory=list)


class Robot(SeatPlay, SeatChanges):
    """Plays one game of ``way`` in ``world`` (and its ``twin``, if any) with ``seed``, its
    seats sat as ``seating`` says (``seat_kinds.SEATINGS``); ``checkers`` run at every step."""

    def __init__(self, world: World, twin: World | None, way: str, seed: int, seating: str = MAT,
                 checkers: list[Checker] | None = None):
        self.world, self.twin = world, twin
        self.way, self.request = way, dict(dict(WAYS)[way])
        self.request.setdefault("variant", way)
        self.variant = self.request["variant"]
        self.rng = random.Random(f"{way}-{seed}" + ("" if seating == MAT else f"-{seating}"))
        self.seed = seed
        self.report = GameReport(way, seed, seating=seating)
        self.hidden = self.rng.choice(SEATS)       # the seat whose secrets differ in the twin
        self.observer = next(s for s in SEATS if s != self.hidden)
        # The other kind of seat: the observer's (the computer's secrets are the same in both
        # worlds, since it sees the same; the hidden seat is always a person's).
        self.kinds = {seat: KINDS[MAT]() for seat in SEATS}
        if seating != MAT:
            self.kinds[self.observer] = KINDS[seating]()
            self.request.update(seating_request(seating, self.observer))
        self.checkers: list[Checker] = [SecretScan(report_at=2 + self.rng.randrange(4)), *(checkers or [])]

    # -- the game ---------------------------------------------------------------------------

    def play(self) -> GameReport:
        for w in (self.world, self.twin):
            if w is not None:
                self.deal(w)
        while True:
            # Every screen names its person's next action; the LEDs light only what a legal
            # continuation needs, all of it when a piece is lifted (tests/robot/instructions.py).
            check_instructions(self.world, probe=self.twin is None, seed=f"{self.way}-{self.seed}")
            for w in (self.world, self.twin):
                if w is not None:
                    self.set_mat(w)
            self.check_twin()
            for checker in self.checkers:
                checker.step(self)
            view = self.world.public()
            table = view["table"]
            if table["result"] is not None:
                break
            if len(table["log"]) >= MAX_TURNS:
                raise Stuck(f"{self.way} seed {self.seed}: no end after {MAX_TURNS} turns")
            if self.maybe_abandon():
                return self.finish_abandoned()
            seat = self.rng.choice(table["to_act"])
            self.act(seat)
            self.maybe_intrude()
            self.maybe_take_over()
        self.finish()
        return self.report

    def deal(self, w: World) -> None:
        w.deal(self.request, self.seed)

    def seat_view(self, w: World, seat: str) -> dict:
        """What ``seat``'s phone shows (its page's own request for it)."""
        return w.seat(seat)

    def act(self, seat: str) -> None:
        self.kinds[seat].act(self, seat)

    def act_at_mat(self, seat: str, from_afar: bool = False) -> None:
        """A person's step: a main-board move on the mat (sent from the phone first, for a seat
        played from afar), anything else on the phone."""
        view = self.seat_view(self.world, seat)
        t = view["table"]
        legal = t["legal"]
        if not legal:
            raise Stuck(f"{seat} must act at {step_key(view)} and has no control: {t}")
        if self.twin is not None:
            # Keep the twin going: steps the twin world can mirror, where there are some.
            legal = [a for a in legal if self.twin_step(seat, a["text"]) is not None] or legal
        if mat_turn(view, seat):
            action = self.choose(legal, view, seat)
            self.maybe_hint(seat, action["text"], from_afar)
            move = self.remote_move if from_afar else self.mat_move
            self.twin_follows(seat, action["text"], lambda w, text: move(w, seat, text))
            move(self.world, seat, action["text"])
            self.report.mat_moves += 1
        else:
            action = self.choose(legal, view, seat)
            self.twin_follows(seat, action["text"], lambda w, text: self.phone_step(w, seat, text))
            self.phone_step(self.world, seat, action["text"])
            self.report.phone_steps += 1

    def choose(self, legal: list[dict], view: dict, seat: str) -> dict:
        """A random choice, with a taste for the game's end so that games stay short."""
        pieces = board_pieces(view["table"]["position"])
        enemy_master = next((square_name(sq) for sq, p in pieces.items()
                             if p == ("B" if seat == "red" else "R")), None)
        temple = "c5" if seat == "red" else "c1"
        master = next((square_name(sq) for sq, p in pieces.items()
                       if p == ("R" if seat == "red" else "B")), None)
        wins = [a for a in legal if a.get("to") == enemy_master
                or (a.get("from") == master and a.get("to") == temple)]
        if wins and self.rng.random() < 0.8:
            return self.rng.choice(wins)
        takes = [a for a in legal if a.get("to") and a.get("kind") != "strike"
                 and pieces.get(_sq(a["to"]), "").lower() == ("b" if seat == "red" else "r")]
        if takes and self.rng.random() < 0.5:
            return self.rng.choice(takes)
        return self.rng.choice(legal)

    # -- the phones ---------------------------------------------------------------------------

    def phone_step(self, w: World, seat: str, text: str) -> None:
        view = self.seat_view(w, seat)
        status, body = w.phones[seat].request("/seat/action", {"text": text, "step": step_key(view)})
        if status != 200:
            raise Stuck(f"{self.way} seed {self.seed}: {seat}'s page sent {text!r} at "
                        f"{step_key(view)} and got {status} {body[:200]!r}")

    # -- the mat ---------------------------------------------------------------------------------

    def mat_move(self, w: World, seat: str, text: str) -> None:
        before = progress(w.public())
        log = w.referee().log
        self._logged = len(log)
        # The turn before, as made (each mat move is checked as read): the true game's answer
        # to a question about it that the mat puts during this move.
        self._previous = (log[-1].seat, log[-1].full) if log else None
        card, *steps = text.split()
        self.emptied: dict[str, float] = {}
        if steps == ["pass"]:
            pass                              # the mat has nothing to show: it asks at once
        else:
            for token in steps:
                if token != "-":
                    try:
                        self.hands(w, token[:2], token[2:])
                    except AssertionError as exc:
                        raise Stuck(f"{self.way} seed {self.seed}: {seat}'s {text} on the mat "
                                    f"{sorted(w.pawns())}: {exc}") from None
        self.until_read(w, seat, text, before)
        read = self.last_read(w, seat)
        # The move is read from the referee; the next choice is made from the views, which
        # follow it once the game thread has published.
        w.settled()
        if read is None or not (read == text or read.startswith(text + " ")):
            if (read is not None and _squares(read) == _squares(text)
                    and w.referee().result is not None):
                # A winning move that both cards make: the table does not ask which card (the
                # record keeps the first one asked about).
                self.report.notes.append(f"{text} won as {read!r}")
                return
            raise Stuck(f"{self.way} seed {self.seed}: {seat} made {text} on the mat, "
                        f"the companion read {read!r}")

    def last_read(self, w: World, seat: str) -> str | None:
        """The main-board move the referee took for ``seat`` since its move began (harness
        only: the turn in progress of a Light & Shadow game is not in any view yet): its
        turn, not the computer's reply after it, nor a turn from before the move began (the
        log is shorter when the move was refused or a turn taken back: wind4 computer 102
        named the turn before); None when nothing was read for it."""
        ref = w.referee()
        begun = getattr(self, "_logged", 0)
        read = next((t.full for t in ref.log[begun:] if t.seat == seat), None)
        if read is not None:
            return read
        in_progress = getattr(ref.state, "public", ())
        return str(in_progress[0]) if in_progress else None

    def hands(self, w: World, frm: str, to: str) -> None:
        pawns = w.pawns()
        r = self.rng.random()
        if to in pawns:
            # A capture, or the Wind Spirit's swap with a student: either one in the hand first.
            board = board_pieces(w.public()["table"]["position"])
            swap = "W" in (board.get(_sq(frm)), board.get(_sq(to)))
            if swap:
                # Both squares are seen empty, or the mat could not tell a swap from nothing.
                first, second = (frm, to) if r < 0.5 else (to, frm)
                self.lift(w, first)
                self.lift(w, second)
                time.sleep(HOLD_S)
                self.place(w, second)
                self.place(w, first)
                return
            if r < 0.5:
                self.lift(w, to)
                time.sleep(HOLD_S)
                self.lift(w, frm)
            else:
                self.lift(w, frm)
                self.lift(w, to)
                time.sleep(HOLD_S)
            self.place(w, to)
            return
        self.lift(w, frm)
        if r < 0.15:
            # A hesitation: the pawn goes back down, rests, and then makes its move.
            self.place(w, frm)
            time.sleep(SETTLE_S * 2)
            self.lift(w, frm)
        elif r < 0.25:
            time.sleep(SETTLE_S * 2)          # held in the air a while
        self.place(w, to)

    def lift(self, w: World, square: str) -> None:
        w.lift(square)
        # The hold counts from when the mat has seen the square empty, not from the request:
        # on a loaded machine the scan thread may not run for a while (wind4 remote seed 101,
        # load 16: a swap's two squares held off 0.18 s by the robot were scanned empty for
        # 9 ms, too short for a swap, and the game stalled).
        self.emptied[square] = w.seen_empty(square)

    def place(self, w: World, square: str) -> None:
        # A hand that has just emptied a square takes a moment to fill it again (the mat
        # would otherwise see the square as never emptied: a brush, not a move).
        since = self.emptied.pop(square, None)
        if since is not None:
            time.sleep(max(0.0, since + HOLD_S - time.monotonic()))
        w.place(square)

    def until_read(self, w: World, seat: str, text: str, before: str) -> None:
        """Wait for the mat to take the move in, answering its card question if it asks."""
        card = text.split()[0]
        answered = None

        read_at: list[float] = []

        def changed():
            view = w.public()
            prompt = view["mat"] and view["mat"]["prompt"]
            if prompt and prompt != answered:
                return view                      # a question to answer
            if played(view) != played_before:
                # The move was read. A Wind Spirit card's pawn step may be read first as the
                # other card's whole turn, then amended once the Spirit's step comes to rest:
                # wait for the squares made, a few settle times at most.
                read = self.last_read(w, seat)
                if read is not None and _squares(read) == _squares(text):
                    return view
                read_at.append(time.monotonic())
                if read_at[-1] - read_at[0] > AMEND_GRACE_S:
                    return view
            return None
        played_before = played(json.loads(before))
        asked_again = False
        while True:
            try:
                view = wait_until(changed, STEP_S, lambda: f"{self.way} seed {self.seed}: {seat}'s "
                                  f"{text} was never read: {w.public()['mat']} {sorted(w.pawns())}")
            except Stuck:
                if asked_again or answered is None or w.public()["mat"]["prompt"] != answered:
                    raise
                # The question still stands after its answer: the player answers once more, on
                # the phone (noted: seen only on a loaded machine, a button press lost).
                asked_again = True
                self.report.notes.append(f"{text}: answered twice")
                if answered["seat"] != seat and (answered.get("reply") or {}).get("seat") != seat:
                    self.answer_previous(w, seat, answered)
                else:
                    self.answer_on_phone(w, seat, answered, next(c for c in answered["choose"]
                                                                if c.replace("-", " ").lower() == card.replace("-", " ").lower()))
                continue
            prompt = view["mat"] and view["mat"]["prompt"]
            if not prompt or prompt == answered:
                return
            name = card.replace("-", " ")
            reply = prompt.get("reply")
            if prompt["seat"] != seat and reply is not None and reply["seat"] == seat:
                # "Whose step was it?": the step was the mover's own, with the card it played.
                choice = next((c for c in reply["choose"] if c.replace("-", " ").lower() == name.lower()), None)
                if choice is None:
                    raise Stuck(f"the mat asks whose step; {seat} played {card}, offered {reply['choose']}")
                self.report.questions += 1
                answered = prompt
                self.answer_on_phone(w, seat, prompt, choice)
                continue
            if prompt["seat"] != seat:
                # A question about the turn before: its mover answers with the card played.
                self.answer_previous(w, seat, prompt)
                answered = prompt
                continue
            self.report.questions += 1
            answered = prompt
            choice = next((c for c in prompt["choose"] if c.replace("-", " ").lower() == name.lower()), None)
            if choice is None:
                raise Stuck(f"the mat asks {prompt['choose']} but {seat} played {card}")
            self.answer(w, seat, prompt, choice)

    def answer_previous(self, w: World, seat: str, prompt: dict) -> None:
        """The mat asks the previous mover about its turn during ``seat``'s move (the Spirit
        put straight back: its Wind card's step, or the other card's pawn step alone, wind2
        remote 148): a person there answers as the game was played, with the card of the
        turn made; the computer's seat has no phone, so the hands press its button."""
        previous = getattr(self, "_previous", None)
        asked = prompt["seat"]
        card = previous[1].split()[0].replace("-", " ").lower() if previous and previous[0] == asked else None
        choice = next((c for c in prompt["choose"] if c.replace("-", " ").lower() == card), None)
        if choice is None:
            raise Stuck(f"the mat asks {asked} during {seat}'s move: {prompt}, the turn before {previous}")
        self.report.questions += 1
        if self.kinds[asked].kind == "computer":
            if choice not in prompt["buttons"]:
                raise Stuck(f"the mat asks the computer's {asked} {prompt} with no button for {choice}")
            w.button(prompt["buttons"][choice])
        else:
            self.answer(w, asked, prompt, choice)

    def answer(self, w: World, seat: str, prompt: dict, choice: str) -> None:
        """The card question: button A or B under the OLED, or the asking phone."""
        if choice in prompt["buttons"] and self.rng.random() < 0.5:
            w.button(prompt["buttons"][choice])
        else:
            self.answer_on_phone(w, seat, prompt, choice)

    def answer_on_phone(self, w: World, seat: str, prompt: dict, choice: str) -> None:
        if self.kinds[seat].kind == "computer":
            # The computer's seat has no phone: "Whose step was it?" during the move its
            # hands make is answered at the table, under the button the OLED names its card
            # with (wind5 computer 123: Red's phone was asked, and the robot stopped), as
            # the browser robot does.
            reply = prompt.get("reply") or {}
            buttons = reply["buttons"] if reply.get("seat") == seat else prompt["buttons"]
            if choice not in buttons:
                raise Stuck(f"the mat asks the computer's {seat} {prompt} with no button for {choice}")
            w.button(buttons[choice])
            return
        status, body = w.phones[seat].request(
            "/seat/answer", {"card": choice, "step": step_key(w.seat(seat))})
        if status != 200:
            raise Stuck(f"{seat}'s answer {choice} refused: {status} {body[:200]!r}")

    def set_mat(self, w: World) -> None:
        """Stand the pawns as the game has them, by the squares the companion marks."""
        view = w.public()
        if view["game"]["status"] != "sync":
            return
        board = view["setup"]["board"] if view["setup"] else view["table"]["position"]
        want = {square_name(sq) for sq in board_pieces(board)}
        wrong = view["mat"]["wrong"]
        if not wrong:
            raise Stuck(f"the mat is out of step but no square is marked: {view['mat']}")
        self.fix_mat(w, wrong, want)
        wait_until(lambda: w.public()["game"]["status"] != "sync", STEP_S,
                   lambda: f"{self.way} seed {self.seed}: the mat matches but the game stays in sync: "
                           f"{w.public()['mat']} {sorted(w.pawns())}")

    def fix_mat(self, w: World, wrong: list[str], want: set[str]) -> None:
        pawns = w.pawns()
        for square in wrong:
            if square in pawns and square not in want:
                w.lift(square)
        for square in wrong:
            if square not in pawns and square in want:
                w.place(square)

    # -- for the seats' kinds and the checkers (seat_play.py, robot_checks.py) -------------------

    step_of = staticmethod(step_key)
    progress_of = staticmethod(progress)

    def wait(self, predicate, timeout: float, what):
        return wait_until(predicate, timeout,
                          lambda: f"{self.way} seed {self.seed}: {what() if callable(what) else what}")

    def stuck(self, what: str) -> Stuck:
        return Stuck(f"{self.way} ({self.report.seating}) seed {self.seed}: {what}")

    def leak(self, what: str) -> Leak:
        return Leak(f"{self.way} ({self.report.seating}) seed {self.seed}: {what}")

    def compare_twins(self, when: str) -> None:
        """The twins show the other seat, the public and the table the same things now."""
        if self.twin is None:
            return
        # Each world's computer replies on its own, after its own thinking: wait for both.
        # Each world also holds its announcements for their own seconds from when its step
        # was read: on a loaded machine one world may still show one the other has done with
        # (light remote seeds 102, 144: a Ninja capture's, a Lantern's). A leak stays.
        patience = 15.0 if any(k.kind == "computer" for k in self.kinds.values()) else SHOW_S + 2.0
        try:
            wait_until(lambda: self.world.outputs(self.observer, self.hidden)
                       == self.twin.outputs(self.observer, self.hidden), patience, "")
        except Stuck:
            a, b = self.world.outputs(self.observer, self.hidden), self.twin.outputs(self.observer, self.hidden)
            diff = [k for k in a if a[k] != b.get(k)]
            # Read again, the worlds agree: one was still publishing when the patience ran
            # out (a loaded machine); a difference that stays is a leak.
            if diff:
                raise self.leak(f"{when}, {self.observer} and the public see a difference in {diff}: "
                                f"{_show(a, b, diff)}") from None
            self.report.notes.append(f"{when}: the twins agreed late")
        self.report.twin_checks += 1

    # -- the twin -----------------------------------------------------------------------------

    def twin_follows(self, seat: str, text: str, do) -> None:
        """The twin takes another secret choice where the hidden seat makes one, and the same
        step otherwise; it is dropped once the worlds may differ in public by the rules."""
        if self.twin is None:
            return
        ref, tref = self.world.referee(), self.twin.referee()
        other = self.twin_step(seat, text, self.rng)
        if other is None:
            self.drop_twin(f"{text} is not legal in the twin")
            return
        events_before = len(tref.events(None))
        try:
            do(self.twin, other)
        except Stuck:
            raise
        self._twin_events_from = (len(ref.events(None)), events_before)

    def twin_step(self, seat: str, text: str, rng: random.Random | None = None) -> str | None:
        """The twin's step for ``text``: another secret choice of the hidden seat, the same
        step, or one that looks the same to the others; None when it has none."""
        ref, tref = self.world.referee(), self.twin.referee()
        action = ref.parse(seat, text)
        theirs = tref.legal_actions(seat)
        card = ref.view(seat).get("card")
        if seat == self.hidden:
            alternatives = [a for a in secret_alternatives(ref, seat, action) if a in theirs]
            if alternatives:
                return action_dict((rng or random).choice(alternatives), card)["text"] if rng else text
        if action in theirs:
            return text
        # A Ninja's strike or capture shows only where it lands and the card: the twin's
        # Ninja may land there from its own square.
        same = [a for a in theirs if type(a) is type(action) and getattr(a, "to", None) is not None
                and a.to == getattr(action, "to", None) and a.card == action.card]
        if not same:
            return None
        return action_dict((rng or random).choice(same), card)["text"] if rng else text

    def drop_twin(self, why: str) -> None:
        self.report.notes.append(f"twin dropped: {why}")
        self.twin.close()
        self.twin = None

    def check_twin(self) -> None:
        if self.twin is None:
            return
        if getattr(self, "_twin_events_from", None) is not None:
            mine, theirs = self._twin_events_from
            self._twin_events_from = None
            told = [e.as_dict() for e in self.world.referee().events(None)[mine:]]
            twin_told = [e.as_dict() for e in self.twin.referee().events(None)[theirs:]]
            if told != twin_told:
                # A public announcement tells the worlds apart (a strike's hit, a Lantern's
                # answer, a pawn landing on a hidden Ninja): a difference the rules make.
                self.drop_twin("the rules announced different things")
                return
        over = self.world.public()["table"]["result"]
        if over is not None:
            # The screens come down at the end: every Ninja is shown, in both worlds.
            assert self.twin.public()["table"]["result"] == over, "the twin game ended otherwise"
            return
        self.compare_twins("after the step")

    # -- the end ------------------------------------------------------------------------------

    def finish(self) -> None:
        view = self.world.public()
        result = view["table"]["result"]
        self.report.turns = len(view["table"]["log"])
        self.report.winner, self.report.how = result["winner"], result["how"]
        record = self.world.record()
        if record.get("format") == "onitama-record":
            replayed = replay(GameRecord.loads(json.dumps(record)))
            assert replayed.error is None, replayed.error
            got = None if replayed.result is None else replayed.result.as_dict()
        else:
            got = sealed.replay(record).result.as_dict()
        assert got == result, f"the record replays to {got}, the game ended {result}"
        for checker in self.checkers:
            checker.finish(self)
        if self.twin is not None:
            self.twin.close()
            self.twin = None


def _squares(text: str) -> list[str]:
    """The squares of a main-board move's text, its card and a skipped step left out."""
    return [t for t in text.split()[1:3] if t not in ("-", "xN")]


def _sq(name: str) -> int:
    return "abcde".index(name[0]) + (int(name[1]) - 1) * 5


def _show(a: dict, b: dict, keys: list[str]) -> str:
    parts = []
    for k in keys:
        parts += [f"{path}: {x!r:.200} != {y!r:.200}" for path, x, y in _differences(a[k], b.get(k), k)][:4]
    return "; ".join(parts)


def _differences(x, y, path: str):
    """The innermost places where two views differ: (path, one, the other)."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in sorted(set(x) | set(y), key=str):
            if x.get(key) != y.get(key):
                yield from _differences(x.get(key), y.get(key), f"{path}.{key}")
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y)):
            if p != q:
                yield from _differences(p, q, f"{path}[{i}]")
    else:
        yield path, x, y


def seatings(way: str) -> list[str]:
    """The seatings a way is played with: a remote seat and the computer where the mat reads
    the moves (the computer plays no simultaneous game)."""
    variant = dict(dict(WAYS)[way]).get("variant", way)
    return list(SEATINGS) if variant in MAT_VARIANTS else [MAT]


def play(state: Path, way: str, seed: int, *, twins: bool = True, streams: bool = False,
         seating: str = MAT, checkers: list[Checker] | None = None, traces: bool = False) -> GameReport:
    """One game of ``way`` in fresh worlds under ``state``, its seats sat as ``seating`` says
    (``traces``: each world records the mat's traces in its folder)."""
    world = World(_fresh(state, "a"), streams=streams, traces=traces)
    twin = None
    variant = dict(dict(WAYS)[way]).get("variant", way)
    if twins and variant in HIDDEN:
        twin = World(_fresh(state, "b"), streams=streams, traces=traces)
    robot = Robot(world, twin, way, seed, seating, checkers)
    try:
        return robot.play()
    finally:
        for checker in robot.checkers:
            if isinstance(checker, SecretScan):
                checker.close()
        if robot.twin is not None:
            robot.twin.close()
        world.close()


def _fresh(state: Path, name: str) -> Path:
    path = state / name
    n = 0
    while path.exists():
        n += 1
        path = state / f"{name}{n}"
    path.mkdir(parents=True)
    return path

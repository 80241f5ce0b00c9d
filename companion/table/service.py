"""The companion service: one thread owns the game, everything else hands it events.

The scan loop, the buttons and the web handlers never touch the game: they put events on a
queue. The game thread reads the mat through the recognizer, checks every turn with the
referee, writes it to the save file (synchronously, before anything confirms it), and then
publishes: a snapshot per audience (each seat, and the public) for the pages, a scene for the
LED animator, an image for the OLED worker. Neither of those two blocks the game thread, and
nothing here blocks the scan thread.

A game is in one of three states. ``sync``: the mat must be made to match the game (at
set-up, after a restart, after a move made from a phone); the LEDs show the squares that
want a pawn and the ones that should be empty. ``playing``: the recognizer reads moves.
``finished``: the result is shown until a new game.
"""

from __future__ import annotations

import base64
import io
import logging
import queue
import secrets
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware import screens
from firmware.animation import Blink, Effect, Pulse, Steady, Urgency, sweep
from firmware.hardware import Hardware
from firmware.matrix import ScanLoop

from ..rules.cards import CARDS
from ..rules.deal import fixed_deal
from ..rules.errors import OnitamaError
from ..mat.feedback import PALETTE, Cue, cues
from ..rules.position import ABSENT, COLORS, board_pieces, format_position, parse_position
from ..mat.recognizer import Recognizer, pair_up
from ..rules.record import GameRecord
from ..rules.referee import SEATS, Referee
from ..rules.sealed import full_record, public_record
from ..rules.shadow import ShadowReferee
from ..rules.squares import parse_square, square_name
from .store import GameStore
from ..mat.tracerecord import RecordingScanner, TraceRecorder
from ..rules.variants import VARIANTS, ClassicReferee, new_referee

log = logging.getLogger(__name__)

# Variants whose main-board moves the mat reads (Ninja and Lantern steps come from the
# phones); the others are played from the phones while the sync state keeps the mat in step.
MAT_VARIANTS = ("base", "wind", "shadow", "light")
# Only these replay from their start position; the others are dealt again from their seed.
CLASSIC = ("base", "wind")
SHOW_S = 4.0          # how long an announcement holds the OLED and its squares
SWEEP_S = 2.0         # a Lantern's sweep along its line, before the answer shows
PENDING_S = 60.0      # how long a phone may wait for the table to let it take a seat
LONG_PRESS_NEW_GAME = "C"
CONFIRM_S = 5.0       # a second long press within this time abandons a running game
NOISY_BOUNCES = (0.0015, 0.001, 0.0025, 0.001)  # a switch's chatter when a magnet arrives



def _effect(cue: Cue) -> Effect:
    """A recognizer cue (``companion.mat.feedback``) as the animator's effect."""
    urgency = Urgency[cue.urgency.upper()]
    if cue.kind == "blink":
        return Blink(cue.rgb, urgency, cue.phase)
    if cue.kind == "pulse":
        return Pulse(cue.rgb, urgency)
    return Steady(cue.rgb, urgency)


class RequestError(Exception):
    """A request the service refuses; nothing was changed. ``status`` is the HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class _Show:
    """An announcement: OLED lines and lit squares for ``seconds``, over the normal view."""
    seconds: float
    lines: tuple[str, ...]
    scene: dict
    until: float = 0.0


def _line_squares(line: str) -> list[int]:
    """``"rank 3"`` or ``"file c"`` (a Lantern's line) -> its squares, in sweep order."""
    kind, name = line.split()
    if kind == "rank":
        return [(int(name) - 1) * 5 + f for f in range(5)]
    return [r * 5 + "abcde".index(name) for r in range(5)]


@dataclass
class _Game:
    id: int
    header: dict
    referee: Referee
    status: str = "sync"                 # "sync" | "playing" | "finished"
    recognizer: Recognizer | None = None
    seq: int = 0                         # the next action's number in the save file
    wrong: tuple[int, ...] = ()          # squares the recognizer found out of step


class Subscription:
    """The views of one audience as they change: ``get()`` returns the newest one."""

    def __init__(self, companion: "Companion", seat: str | None):
        self._companion = companion
        self._seat = seat
        self._seen = -1
        self.closed = False

    def get(self, timeout: float) -> dict | None:
        """The newest view once it differs from the last one returned; None on timeout."""
        c = self._companion
        with c._changed:
            ready = c._changed.wait_for(
                lambda: self.closed or c._closed or c._snapshots[self._seat]["version"] != self._seen,
                timeout)
            if not ready or self.closed or c._closed:
                return None
            view = c._snapshots[self._seat]
            self._seen = view["version"]
            return view

    def close(self) -> None:
        with self._companion._changed:
            self.closed = True
            self._companion._changed.notify_all()


class Companion:
    def __init__(self, hardware: Hardware, store: GameStore, *, settle: float = 0.35,
                 sets: tuple[str, ...] = ("base",), public_url: str | None = None,
                 record_trace: Path | None = None):
        self.mode = "sim" if hardware.sim is not None else "pi"
        self.public_url = public_url
        self._hw = hardware
        self._store = store
        self._settle = settle
        self._sets = tuple(sets)
        self._queue: queue.Queue = queue.Queue()
        self._changed = threading.Condition()
        self._closed = False
        self._game: _Game | None = None
        self._occupancy: frozenset[int] = frozenset()
        self._confirm_until = 0.0
        self._scene: tuple | None = None
        self._oled_lines: tuple[str, ...] = ()
        self._oled_image = screens.status_screen("Onitama", ["Starting..."])
        self._snapshots: dict[str | None, dict] = {s: {"version": 0} for s in (None, *SEATS)}
        self._scan: ScanLoop | None = None
        # --record-trace: every scan is also written to a trace, a new one each time the
        # recognizer starts on a game (FILE, then FILE-2, FILE-3 ...).
        self._trace_path = record_trace
        self._tap = RecordingScanner(hardware.scanner, None) if record_trace else None
        self._traces = 0
        self._shows: list[_Show] = []
        # Seats: a one-time join token per seat (what its QR code holds), the phone session
        # holding each seat, and phones waiting for the table to let them take a held seat.
        self._tokens: dict[str, str] = {seat: self._mint() for seat in SEATS}
        self._holders: dict[str, str] = {}
        self._pending: dict[str, dict] = {}
        self._oled_page = 0
        self._thread = threading.Thread(target=self._run, name="game", daemon=True)

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Resume the unfinished game, if any, and start reading the mat."""
        saved = self._store.unfinished()
        if saved is not None:
            try:
                self._game = self._rebuild(saved)
            except OnitamaError as exc:
                # A save that no longer replays is kept on disk; the table starts afresh.
                log.error("game %s cannot be resumed: %s", saved.id, exc)
        self._hw.buttons.on_press = lambda name: self._queue.put(("button", name, False))
        self._hw.buttons.on_long_press = lambda name: self._queue.put(("button", name, True))
        self._publish()
        self._thread.start()
        self._scan = ScanLoop(self._tap or self._hw.scanner,
                              lambda occ, t: self._queue.put(("mat", occ, t)))

    def close(self) -> None:
        """Stop reading the mat and the buttons, then the game thread. Every confirmed action
        is already on disk; the hardware (LEDs off, OLED blank) is closed by its owner."""
        if self._scan is not None:
            self._scan.close()
        self._hw.buttons.on_press = self._hw.buttons.on_long_press = None
        if self._thread.is_alive():
            self._queue.put(("stop",))
            self._thread.join()
        self._stop_trace()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _start_trace(self, position, variant: str) -> None:
        if self._tap is None:
            return
        self._stop_trace()
        self._traces += 1
        assert self._trace_path is not None, "the tap exists when a trace path was given"
        path = self._trace_path if self._traces == 1 else self._trace_path.with_name(
            f"{self._trace_path.stem}-{self._traces}{self._trace_path.suffix}")
        matrix = self._hw.scanner.config
        settings = {"settle": self._settle, "scan_hz": matrix.scan_hz,
                    "debounce_ms": round(matrix.debounce_s * 1000, 3)}
        self._tap.recorder = TraceRecorder(open(path, "w", encoding="utf-8"), position, variant,
                                           start=time.monotonic(), settings=settings)

    def _stop_trace(self) -> None:
        if self._tap is not None and self._tap.recorder is not None:
            recorder, self._tap.recorder = self._tap.recorder, None
            recorder.close(time.monotonic())

    @property
    def closed(self) -> bool:
        """True once the companion has stopped (open streams end on it)."""
        return self._closed

    # -- what other threads may call -------------------------------------------------------

    def view(self, seat: str | None) -> dict:
        self._check_seat(seat)
        with self._changed:
            return self._snapshots[seat]

    def subscribe(self, seat: str | None) -> Subscription:
        self._check_seat(seat)
        return Subscription(self, seat)

    def submit(self, seat: str | None, request: Any, timeout: float = 5.0) -> dict:
        """Run ``request`` on the game thread. Raises :class:`RequestError` on bad input."""
        self._check_seat(seat)
        if not isinstance(request, dict) or not isinstance(request.get("type"), str):
            raise RequestError(400, "a request is a JSON object with a \"type\"")
        future: Future = Future()
        self._queue.put(("request", seat, request, future))
        try:
            return future.result(timeout)
        except TimeoutError:
            raise RequestError(503, "the companion is busy; try again") from None

    def oled_png(self) -> bytes:
        """The OLED as a picture. On the Pi a join QR code never leaves the table: a page
        showing one is sent as its text lines instead."""
        if self._hw.sim is not None:
            image = self._hw.sim.i2c.image()
        else:
            with self._changed:
                lines = self._oled_lines
            image = screens.status_screen(lines[0], lines[1:]) if lines else self._oled_image
        out = io.BytesIO()
        image.save(out, format="PNG")
        return out.getvalue()

    # Seats and phones.

    @staticmethod
    def _mint() -> str:
        # Base32 in upper case: a QR code stores it in the compact alphanumeric mode.
        return base64.b32encode(secrets.token_bytes(10)).decode()

    def join_url(self, seat: str) -> str:
        """The URL a seat's QR code holds: one use, replaced once used. Shown on the OLED, and
        on the simulation page; never sent to any other page."""
        self._check_seat(seat)
        with self._changed:
            token = self._tokens[seat]
        return f"{(self.public_url or '').upper()}/J/{token}"

    def redeem(self, token: str) -> dict:
        """A phone scanned a join code. ``{"seat", "session"}`` when the seat was free, or
        ``{"seat", "pending"}`` when another phone holds it and the table must allow it."""
        if not isinstance(token, str):
            raise RequestError(400, "a join token is text")
        return self.submit(None, {"type": "_redeem", "token": token.strip().upper()})

    @staticmethod
    def _token_shape(token: str) -> bool:
        # What _mint makes: 16 characters of the base32 alphabet (compare_digest wants ASCII).
        return len(token) == 16 and all(ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" for ch in token)

    def pending(self, pending_id: str) -> dict:
        """``{"state": "waiting" | "allowed" | "refused" | "expired", "session"?}``."""
        with self._changed:
            entry = self._pending.get(pending_id)
            if entry is None:
                raise RequestError(404, "no such request to take a seat")
            if entry["state"] == "waiting" and time.monotonic() > entry["until"]:
                entry["state"] = "expired"
            return {k: v for k, v in entry.items() if k in ("state", "session", "seat")}

    def seat_of(self, session: str | None) -> str | None:
        """The seat a phone's session holds now (None: none, or taken over since)."""
        with self._changed:
            return next((seat for seat, sid in self._holders.items() if sid == session), None)

    def games(self) -> list[dict]:
        return self._store.games()

    def record(self, game_id: int) -> dict:
        """A saved game's record (KeyError for an unknown id): the public record while it is
        played, and once a game with hidden moves has ended the full one, every seat's secrets
        revealed, as the screens come down at the end of a real game."""
        saved = self._store.game(game_id)
        game = self._rebuild(saved)
        ref = game.referee
        if ref.mode in CLASSIC:
            result = None if ref.result is None else ref.result.as_dict()
            record = GameRecord(variant=ref.mode, start=saved.header["start"],
                                moves=[t.public for t in ref.log], sets=saved.header.get("sets", []),
                                seed=saved.header.get("seed"), result=result,
                                date=time.strftime("%Y-%m-%d", time.localtime(saved.created)))
            return record.to_json()
        return full_record(ref) if ref.result is not None else public_record(ref)

    # The simulated mat: a person's hands on the simulated switches and buttons.

    def sim_state(self) -> dict:
        sim = self._sim()
        frame = sim.strip.frame()
        return {"pawns": sorted(square_name(sq) for sq in sim.pawns),
                "leds": {square_name(sq): list(rgb) for sq, rgb in frame.lit().items()},
                "edges": {name: list(rgb) for name, rgb in frame.edges.items()},
                "frame": sim.strip.written}

    def sim_place(self, square: str, noisy: bool = False) -> None:
        self._sim_switch(square, True, noisy)

    def sim_lift(self, square: str, noisy: bool = False) -> None:
        self._sim_switch(square, False, noisy)

    def sim_button(self, name: str, long: bool = False) -> None:
        sim = self._sim()
        if name not in sim.pinmap.buttons.pins:
            raise RequestError(400, f"no button {name!r} (A, B or C)")
        hold = sim.pinmap.buttons.long_press_s + 0.2 if long else 0.08
        sim.press(name)
        threading.Timer(hold, sim.release, (name,)).start()

    def _sim(self):
        if self._hw.sim is None:
            raise RequestError(404, "only the simulation has simulated hands")
        return self._hw.sim

    def _sim_switch(self, square: str, on: bool, noisy: bool) -> None:
        sim = self._sim()
        try:
            sq = parse_square(square)
        except (ValueError, TypeError):
            raise RequestError(400, f"{square!r} is not a square (a1 to e5)") from None
        if (sq in sim.pawns) == on:
            raise RequestError(409, f"{square} already {'holds' if on else 'has no'} a pawn")
        if not noisy:
            (sim.place if on else sim.lift)(sq)
            return

        def chatter():
            # A reed switch closing under an arriving magnet chatters for a few milliseconds.
            state = on
            for gap in NOISY_BOUNCES:
                (sim.place if state else sim.lift)(sq)
                time.sleep(gap)
                state = not state
            (sim.place if on else sim.lift)(sq)
        threading.Thread(target=chatter, daemon=True).start()

    @staticmethod
    def _check_seat(seat: str | None) -> None:
        if seat is not None and seat not in SEATS:
            raise RequestError(404, f"no seat {seat!r} (red or blue)")

    # -- the game thread -------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                event = self._queue.get(timeout=self._timeout())
            except queue.Empty:
                event = None
            if event is not None and event[0] == "stop":
                return
            try:
                if event is not None:
                    self._handle(event)
                game = self._game
                if game is not None and game.recognizer is not None:
                    self._recognized(game.recognizer.advance(time.monotonic()))
            except Exception:
                # Keep the table alive: log the bug and go on with the next event.
                log.exception("game thread: %r failed", event)
            self._publish()

    def _timeout(self) -> float:
        game = self._game
        deadlines = [show.until for show in self._shows[:1] if show.until]
        if game and game.recognizer and game.recognizer.next_deadline is not None:
            deadlines.append(game.recognizer.next_deadline)
        deadline = min(deadlines, default=None)
        if deadline is None:
            return 1.0
        return min(1.0, max(0.0, deadline - time.monotonic()))

    def _handle(self, event: tuple) -> None:
        kind = event[0]
        if kind == "mat":
            _, occupancy, t = event
            self._occupancy = occupancy
            game = self._game
            if game is None:
                return
            if game.recognizer is not None:
                self._recognized(game.recognizer.update(t, occupancy))
            elif game.status == "sync":
                self._sync_check(game)
        elif kind == "button":
            self._button(event[1], event[2])
        elif kind == "request":
            _, seat, request, future = event
            try:
                result = self._request(seat, request)
            except RequestError as exc:
                future.set_exception(exc)
            except OnitamaError as exc:
                future.set_exception(RequestError(409, str(exc)))
            except Exception as exc:
                # A bug: fail this request now (the caller sees the error) rather than let it
                # wait for a result that will never come; the game thread goes on.
                log.exception("request %r failed", request)
                future.set_exception(exc)
            else:
                # Publish before answering: once a request returns, every view shows it.
                self._publish()
                future.set_result(result)

    # -- turns -----------------------------------------------------------------------------

    def _play(self, game: _Game, seat: str | None, action: str) -> None:
        """Check ``action`` with the referee, then save it; only then is it confirmed."""
        ref = game.referee
        if action == "takeback":
            ref.undo()
        else:
            assert seat is not None, "only a takeback has no seat"
            self._announce(ref.act(seat, action))
        try:
            self._store.append(game.id, game.seq, action, seat)
        except Exception:
            if action != "takeback":
                ref.undo()
            raise
        game.seq += 1
        if ref.result is not None:
            game.status = "finished"
            game.recognizer = None
            self._store.finish(game.id, ref.result.as_dict())

    def _recognized(self, events: list[dict]) -> None:
        game = self._game
        assert game is not None, "the recognizer belongs to the game in play"
        for event in events:
            if "move" in event:
                seat = game.referee.to_act()[0]
                try:
                    self._play(game, seat, event["move"])
                except OnitamaError as exc:
                    # The mat shows a move the referee refuses (a rule the mat cannot know,
                    # such as a hidden Ninja of one's own): say why and guide the pawn back.
                    self._shows.append(_Show(SHOW_S, ("Not allowed", str(getattr(exc, "reason", exc))), {}))
                    self._enter_sync(game)
                    return
                if not self._in_step(game):
                    # The turn goes on off the mat (a Ninja step, a Lantern) or changed it.
                    self._enter_sync(game)
                    return
            elif "takeback" in event:
                self._play(game, None, "takeback")
            elif "mismatch" in event:
                game.wrong = tuple(parse_square(s) for s in event["mismatch"])
            elif "synced" in event:
                game.wrong = ()

    @staticmethod
    def _table(game: _Game) -> tuple[dict[int, str], list[str]]:
        """The main board's pieces and the public position string's five fields."""
        text = game.referee.view(None)["position"]
        return board_pieces(text), text.split()

    def _mat_turn(self, game: _Game) -> bool:
        """Does the mat read the next step: a main-board move by a seat with pawns on it?"""
        ref = game.referee
        to_act = ref.to_act()
        if ref.mode not in MAT_VARIANTS or len(to_act) != 1:
            return False
        if ref.view(None).get("phase", "move") != "move":
            return False
        pieces = self._table(game)[0]
        return any(p in ("Rr" if to_act[0] == "red" else "Bb") for p in pieces.values())

    def _in_step(self, game: _Game) -> bool:
        rec = game.recognizer
        return (rec is not None and game.status == "playing" and self._mat_turn(game)
                and str(rec.board.position) == " ".join(self._table(game)[1]))

    def _enter_sync(self, game: _Game) -> None:
        if game.status != "finished":
            game.status, game.recognizer, game.wrong = "sync", None, ()
            self._sync_check(game)

    def _sync_check(self, game: _Game) -> None:
        """Start reading moves once the mat shows the game's position."""
        pieces, fields = self._table(game)
        if self._occupancy == frozenset(pieces) and game.referee.result is None:
            game.status = "playing"
            if self._mat_turn(game):
                pos = parse_position(" ".join(fields), game.referee.cards)
                ref = game.referee
                if isinstance(ref, ShadowReferee) and ref.light is not None:   # Way of the Light
                    # The Shadow Master has no master on the mat: not a game won by the Stone.
                    shadow = COLORS[1 - ref.light]
                    pos = (replace(pos, red_master=ABSENT) if shadow == "red"
                           else replace(pos, blue_master=ABSENT))
                game.recognizer = Recognizer(pos, cards=game.referee.cards, settle=self._settle,
                                             t=time.monotonic())
                self._start_trace(pos, game.referee.mode)

    # -- requests --------------------------------------------------------------------------

    def _request(self, seat: str | None, request: dict) -> dict:
        kind = request["type"]
        if kind == "new_game":
            game = self._game
            if (seat is None and self.mode == "pi" and game is not None
                    and game.status != "finished"):
                # Anyone on the network may watch, but only the players at the table end a
                # game: by holding C on the companion twice.
                raise RequestError(409, "a game is being played: to end it, hold C on the "
                                        "companion twice")
            return self._new_game(request)
        if kind == "_redeem" and seat is None:
            return self._redeem(request["token"])
        game = self._game
        if seat is None:
            raise RequestError(403, f"{kind!r} needs a seat")
        if game is None or game.status == "finished":
            raise RequestError(409, "no game is being played")
        if kind == "answer":
            card, takeback = request.get("card"), request.get("takeback") is True
            rec = game.recognizer
            if not takeback and not isinstance(card, str):
                raise RequestError(400, "an answer names a card, or is {\"takeback\": true}")
            prompt = rec.prompt if rec is not None else None
            if prompt is None or prompt["seat"] != seat:
                raise RequestError(409, "there is no question for this seat")
            if takeback and "takeback" not in prompt:
                raise RequestError(400, "this question offers no takeback")
            if not takeback and card not in prompt["choose"]:
                raise RequestError(400, f"choose one of {', '.join(prompt['choose'])}")
            now = time.monotonic()
            assert rec is not None, "a prompt comes from the recognizer"
            if self._tap is not None and self._tap.recorder is not None:
                self._tap.recorder.answer(now, seat, card, takeback=takeback)
            self._recognized(rec.answer(now, seat, card, takeback=takeback))
            return {"ok": True}
        if kind == "action":
            text = request.get("text")
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                raise RequestError(400, "an action is its notation text")
            self._play(game, seat, text.strip())
            # Whatever the phone did (a Ninja took a pawn, a move made from the phone), the mat
            # is checked against the game and the recognizer restarts from it.
            self._enter_sync(game)
            return {"ok": True}
        raise RequestError(400, f"unknown request type {kind!r}")

    def _redeem(self, token: str) -> dict:
        seat = None
        if self._token_shape(token):
            seat = next((s for s, t in self._tokens.items() if secrets.compare_digest(t, token)), None)
        if seat is None:
            raise RequestError(403, "this join code is unknown or was used already: scan the one "
                                    "the companion shows now")
        with self._changed:
            self._tokens[seat] = self._mint()
            session = secrets.token_urlsafe(18)
            if seat not in self._holders:
                self._holders[seat] = session
                return {"seat": seat, "session": session}
            pending_id = secrets.token_urlsafe(12)
            self._pending[pending_id] = {"seat": seat, "state": "waiting", "session": None,
                                         "new": session, "until": time.monotonic() + PENDING_S}
        return {"seat": seat, "pending": pending_id}

    def _waiting_takeover(self) -> tuple[str, dict] | None:
        now = time.monotonic()
        for pending_id, entry in self._pending.items():
            if entry["state"] == "waiting" and now <= entry["until"]:
                return pending_id, entry
        return None

    def _new_game(self, request: dict) -> dict:
        variant = request.get("variant", "base")
        sets = request.get("sets", list(self._sets))
        wind_cards = request.get("wind_cards", 2)
        seed = request.get("seed")
        fixed = request.get("cards")
        if variant not in VARIANTS:
            raise RequestError(400, f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
        if not isinstance(sets, list) or not sets or not all(isinstance(s, str) for s in sets):
            raise RequestError(400, "sets is a list of card set names")
        if not isinstance(wind_cards, int) or isinstance(wind_cards, bool):
            raise RequestError(400, "wind_cards is a number from 0 to 5")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RequestError(400, "seed is a whole number")
        if fixed is not None:
            ref = self._fixed_referee(variant, fixed)
        else:
            ref = new_referee(variant, seed=seed, sets=tuple(sets), wind_cards=wind_cards)
        game = self._game
        if game is not None and game.status != "finished":
            # The table asked for a new game: the old one stays in the list, unfinished.
            self._store.finish(game.id, {"winner": None, "how": "abandoned"})
        header = {"variant": variant, "sets": sets, "wind_cards": wind_cards, "seed": ref.seed,
                  "start": format_position(ref.start),
                  "fixed": fixed is not None}
        self._game = _Game(self._store.new_game(header), header, ref)
        self._enter_sync(self._game)
        return {"ok": True, "game": self._game.id}

    @staticmethod
    def _fixed_referee(variant: str, fixed: Any) -> Referee:
        if variant not in CLASSIC:
            raise RequestError(400, f"fixed cards are for base and wind games, not {variant}")
        if (not isinstance(fixed, dict) or not isinstance(fixed.get("red"), list)
                or not isinstance(fixed.get("blue"), list) or not isinstance(fixed.get("side"), str)):
            raise RequestError(400, "cards is {\"red\": [2 cards], \"blue\": [2 cards], \"side\": card}")
        if len(fixed["red"]) != 2 or len(fixed["blue"]) != 2:
            raise RequestError(400, "each player takes two cards")
        d = fixed_deal(fixed["red"], fixed["blue"], fixed["side"], variant=variant)
        return ClassicReferee(d.position, variant)

    def _rebuild(self, saved) -> _Game:
        header = saved.header
        if header.get("fixed") or header["variant"] in CLASSIC:
            ref: Referee = ClassicReferee(parse_position(header["start"]), header["variant"],
                                          seed=header.get("seed"))
        else:
            ref = new_referee(header["variant"], seed=header["seed"], sets=tuple(header["sets"]),
                              wind_cards=header.get("wind_cards", 2))
        for action in saved.actions:
            if action.action == "takeback":
                ref.undo()
            else:
                ref.act(action.seat, action.action)
        game = _Game(saved.id, header, ref, seq=len(saved.actions))
        game.status = "finished" if ref.result is not None else "sync"
        return game

    # -- buttons ---------------------------------------------------------------------------

    def _button(self, name: str, long: bool) -> None:
        game = self._game
        now = time.monotonic()
        waiting = self._waiting_takeover()
        if waiting is not None and not long and name in ("A", "B"):
            # A phone asks for a held seat: A lets it take the seat, B refuses.
            pending_id, entry = waiting
            with self._changed:
                if name == "A":
                    self._holders[entry["seat"]] = entry["new"]
                    entry["state"], entry["session"] = "allowed", entry["new"]
                else:
                    entry["state"] = "refused"
            return
        if name == "C" and not long and (game is None or game.recognizer is None
                                         or game.recognizer.prompt is None):
            self._oled_page = (self._oled_page + 1) % 3     # game, Red's QR, Blue's QR
            return
        if long and name == LONG_PRESS_NEW_GAME:
            if game is None or game.status == "finished" or now < self._confirm_until:
                self._confirm_until = 0.0
                self._new_game({"type": "new_game", "variant": "base", "sets": list(self._sets)})
            else:
                self._confirm_until = now + CONFIRM_S
            return
        if game is not None and game.recognizer is not None and not long:
            if self._tap is not None and self._tap.recorder is not None:
                self._tap.recorder.button(now, name)
            self._recognized(game.recognizer.button(now, name))

    # -- announcements ---------------------------------------------------------------------

    def _announce(self, events) -> None:
        """Public events of a turn, shown on the OLED and the mat one after another."""
        for event in events:
            if not event.public:
                continue
            data = event.data
            if event.kind == "strike":
                sq = parse_square(data["square"])
                colour = PALETTE[data["by"]]
                self._shows.append(_Show(SHOW_S, ("Strike: a hit!" if data["hit"] else "Strike: a miss",
                                                  f"{data['by'].title()}'s Ninja at {data['square']}",
                                                  "shown until their next turn"),
                                         {sq: Blink(colour, Urgency.NORMAL)}))
            elif event.kind == "ninja_capture":
                sq = parse_square(data["square"])
                loser = "Blue" if data["by"] == "red" else "Red"
                self._shows.append(_Show(SHOW_S, (f"{data['by'].title()}'s Ninja strikes",
                                                  f"{loser}: remove your", f"{data['captured']} on {data['square']}",
                                                  f"The Ninja stands on {data['square']}"),
                                         {sq: Blink(PALETTE["amber"], Urgency.ERROR)}))
            elif event.kind == "ninja_captured":
                sq = parse_square(data["square"])
                self._shows.append(_Show(SHOW_S, ("Ninja captured!", f"{data['owner'].title()}'s Ninja",
                                                  f"was on {data['square']}"),
                                         {sq: Pulse(PALETTE["green"])}))
            elif event.kind == "lantern":
                squares = _line_squares(data["line"])
                self._shows.append(_Show(SWEEP_S, ("Lantern", f"{data['by'].title()} searches",
                                                   data["line"]), sweep(squares, PALETTE["white"])))
            elif event.kind == "lantern_answer":
                colour = PALETTE["green"] if data["answer"] else PALETTE["red"]
                self._shows.append(_Show(SHOW_S, (f"Lantern: {'yes' if data['answer'] else 'no'}",
                                                  data["line"]),
                                         {sq: Steady(colour, Urgency.HINT) for sq in _line_squares(data["line"])}))

    def _current_show(self) -> _Show | None:
        now = time.monotonic()
        while self._shows:
            show = self._shows[0]
            if not show.until:
                show.until = now + show.seconds
            if now < show.until:
                return show
            self._shows.pop(0)
        return None

    # -- outputs ---------------------------------------------------------------------------

    def _publish(self) -> None:
        game = self._game
        show = self._current_show()
        qr_seat = self._qr_seat(game)
        waiting = self._waiting_takeover()
        lines: tuple[str, ...]
        if waiting is not None:
            lines = ("New phone for", f"the {waiting[1]['seat']} seat", "A: allow  B: refuse")
        elif show is not None:
            lines = show.lines
        elif qr_seat is not None:
            lines = (f"{qr_seat.title()} seat", "Scan to join", "C: next page")
        else:
            lines = self._oled(game)
        key = (lines, self._tokens[qr_seat] if qr_seat else None)
        if key != getattr(self, "_oled_key", None):
            self._oled_key = key
            with self._changed:
                self._oled_lines = lines
            self._oled_image = (screens.qr_screen(self.join_url(qr_seat), f"{qr_seat.title()} seat: scan to join")
                                if qr_seat and show is None and waiting is None
                                else screens.status_screen(lines[0], lines[1:]))
            self._hw.oled.display(self._oled_image)
        scene = self._leds(game)
        if show is not None:
            scene = tuple(sorted({**dict(scene), **show.scene}.items()))
        if scene != self._scene:
            self._scene = scene
            self._hw.animator.set_scene(dict(scene))
        with self._changed:
            for seat in (None, *SEATS):
                view = self._view(game, seat)
                old = self._snapshots[seat]
                if {k: v for k, v in old.items() if k != "version"} != view:
                    view["version"] = old["version"] + 1
                    self._snapshots[seat] = view
            self._changed.notify_all()

    def _sync_diff(self, game: _Game) -> tuple[frozenset[int], frozenset[int]]:
        want = frozenset(self._table(game)[0])
        return want - self._occupancy, self._occupancy - want

    def _view(self, game: _Game | None, seat: str | None) -> dict:
        view: dict[str, Any] = {"game": None, "setup": None, "table": None, "mat": None,
                "oled": list(self._oled_lines), "variants": list(VARIANTS), "sets": dict(CARDS.sets),
                "seats": {s: s in self._holders for s in SEATS}}
        if game is None:
            return view
        ref = game.referee
        view["game"] = {"id": game.id, "variant": ref.mode, "sets": game.header.get("sets", []),
                        "status": game.status}
        view["table"] = ref.view(seat)
        if game.status == "sync" and not ref.log:
            fields = self._table(game)[1]
            view["setup"] = {"board": " ".join(fields), "red": fields[2].split(","),
                             "blue": fields[3].split(","), "side": fields[4], "first": fields[1],
                             "ninjas": ref.mode in ("shadow", "light")}
        rec = game.recognizer
        if game.status == "sync":
            missing, extra = self._sync_diff(game)
            state, wrong, pairs = "setup" if not ref.log else "mismatch", missing | extra, pair_up(extra, missing)
        else:
            prompt = rec.prompt if rec is not None else None
            wrong = frozenset(game.wrong)
            pairs = rec.feedback().pairs if rec is not None else ()
            state = "prompt" if prompt else "mismatch" if wrong else "ok"
        prompt = rec.prompt if rec is not None else None
        view["mat"] = {
            "state": state,
            "prompt": None if prompt is None else self._prompt_view(game, prompt),
            "wrong": sorted(square_name(s) for s in wrong),
            "pairs": [[square_name(a), square_name(b)] for a, b in pairs],
        }
        return view

    def _prompt_view(self, game: _Game, prompt: dict) -> dict:
        # Buttons A and B stand for the prompted player's first and second card in hand.
        hand = self._table(game)[1][2 if prompt["seat"] == "red" else 3].split(",")
        buttons = {card: "AB"[hand.index(card.replace(" ", "-"))] for card in prompt["choose"]
                   if card.replace(" ", "-") in hand[:2]}
        out = {"seat": prompt["seat"], "choose": list(prompt["choose"]), "buttons": buttons,
               "question": f"{prompt['seat'].title()}: which card? " +
                           "  ".join(f"{b}: {c}" for c, b in buttons.items())}
        if "takeback" in prompt:
            out["takeback"] = prompt["takeback"]
            out["question"] += "  C: take back"
        return out

    def _qr_seat(self, game: _Game | None) -> str | None:
        """The seat whose join code the OLED shows: the page chosen with C, or, while a
        hidden-information game waits for phones, the first seat without one."""
        if self._oled_page:
            return SEATS[self._oled_page - 1]
        # Only while nothing on the mat needs saying: set-up, a prompt or a mismatch come first.
        if (game is not None and game.status == "playing"
                and game.referee.mode in ("shadow", "light", "simultaneous")
                and (game.recognizer is None or (game.recognizer.prompt is None and not game.wrong))):
            return next((seat for seat in SEATS if seat not in self._holders), None)
        return None

    def _oled(self, game: _Game | None) -> tuple[str, ...]:
        if game is None:
            return ("Onitama", "Hold C: new game", *(() if not self.public_url else (self.public_url,)))
        ref = game.referee
        if game.status == "finished":
            r = ref.result
            assert r is not None, "a finished game has its result"
            head = "Draw" if r.winner is None else f"{r.winner.title()} wins ({r.how})"
            return (head, "Hold C: new game")
        if game.status == "sync":
            missing, extra = self._sync_diff(game)
            fields = self._table(game)[1]
            if not ref.log:
                return ("Set up", f"Red: {fields[2].replace(',', ', ')}",
                        f"Blue: {fields[3].replace(',', ', ')}", f"Side: {fields[4]}",
                        f"{fields[1].title()} starts")
            return ("Put pawns back", f"{len(missing)} missing, {len(extra)} extra",
                    "Lit squares: where they go")
        if time.monotonic() < self._confirm_until:
            return ("New game?", "Hold C again to", "abandon this one")
        if game.recognizer is not None:
            return tuple(game.recognizer.feedback().oled)
        phase = ref.view(None).get("phase", "move")
        who = " and ".join(s.title() for s in ref.to_act())
        return {"setup": (f"{who}: place", "your Ninja on", "your phone"),
                "ninja": (f"{who}: move your", "Ninja or skip,", "on your phone"),
                "lantern": (f"{who}: a Lantern", "or skip,", "on your phone"),
                "commit": (f"{who}: choose", "your move on", "your phone")}.get(
                    phase, (f"{who} to play", "on the phone"))

    def _leds(self, game: _Game | None) -> tuple:
        if game is None:
            return ()
        if game.status == "sync":
            pieces = self._table(game)[0]
            missing, extra = self._sync_diff(game)
            scene: dict[int, Effect] = {}
            for sq in missing:
                piece = pieces[sq]
                colour = "red" if piece in "Rr" else "blue" if piece in "Bb" else "white"
                scene[sq] = Pulse(PALETTE[colour])
            for sq in extra:
                scene[sq] = Blink(PALETTE["amber"], Urgency.ERROR)
            return tuple(sorted(scene.items()))
        if game.recognizer is None:
            return ()
        return tuple(sorted((sq, _effect(cue)) for sq, cue in cues(game.recognizer.feedback()).items()))

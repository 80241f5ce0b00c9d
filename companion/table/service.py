"""The companion service: one thread owns the game, everything else hands it events.

The scan loop, the buttons and the web handlers never touch the game: they hand work to the
game thread (:mod:`companion.table.thread`). It reads the mat through the recognizer, checks
every turn with the referee, writes it to the save file (synchronously, before anything
confirms it), and then publishes: a view per audience (each seat, and the public) for the
pages, a scene for the LED animator, an image for the OLED worker. Neither of those two
blocks the game thread, and nothing here blocks the scan thread.

Every check that guards the game (whose turn, the step a phone's action was meant for, a
takeover's consent) runs on the game thread together with the action it guards.

The parts: :mod:`.session` (one game: referee, recognizer, save file), :mod:`.seats` (join
codes, phones, takeovers), :mod:`.outputs` and :mod:`.views` (what the OLED, the LEDs and
the pages show), :mod:`.display` (driving the OLED and the LEDs), :mod:`.publisher` (the views' streams), :mod:`.hands` (the simulation's
hands), :mod:`.tracing` (``--record-trace``), :mod:`.computer` (seats played by the computer
or from a phone away from the table, and the thread that thinks and computes hints).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware.hardware import Hardware
from firmware.matrix import ScanLoop

from ..rules.errors import IllegalActionError
from ..rules.referee import SEATS
from ..rules.squares import parse_square
from ..mat.events import MatEvent
from . import answers, outputs, views
from .display import Display
from .errors import REFUSALS, BadRequest, Conflict, Declared, NotFound
from .hands import Hands
from .opponent import Opponent, Thinking
from .network import Hotspot
from .publisher import Publisher, Subscription
from .seats import SeatDoors, Seats
from .session import GameSession, public_games, replace_game, record, resume_unfinished
from .store import GameStore, StoreUnavailable
from .tables import TableDoors, invite_lines
from .thread import GameThread
from .tracing import Traces
from .viewtypes import ListedGame, Reply, SimState, View
from .wins import reads_on, stand_win


LONG_PRESS_NEW_GAME = "C"
LONG_PRESS_HINT = "A"         # the seat to move at the mat asks for a hint
LONG_PRESS_COMPUTER = "B"     # base game set-up: the computer plays Blue, then Red, then nobody
CONFIRM_S = 5.0       # a second long press within this time abandons a running game


def check_seat(seat: str | None) -> None:
    if seat is not None and seat not in SEATS:
        raise NotFound(f"no seat {seat!r} (red or blue)")


def wait_s(game: GameSession | None, display: Display) -> float:
    """How long the game thread may wait for an event: until the next deadline of the
    recognizer (a settled mat) or of the display (an announcement ending), at most 1 s."""
    deadlines = [t for t in (display.deadline(),) if t is not None]
    if game and game.recognizer and game.recognizer.next_deadline is not None:
        deadlines.append(game.recognizer.next_deadline)
    deadline = min(deadlines, default=None)
    if deadline is None:
        return 1.0
    return min(1.0, max(0.0, deadline - time.monotonic()))


def taken_back(game: GameSession, event: MatEvent, store: GameStore, display: Display,
               enter_sync: Callable[[GameSession], None],
               read_again: Callable[[GameSession], None]) -> bool:
    """The mat took the last move back: played as a takeback; False when it is not (the mat
    is put back, or read afresh)."""
    if game.seating.table:
        # The other table has the move: a game across tables only goes forward.
        display.announce([outputs.refused_show("No takebacks across tables")])
        enter_sync(game)
        return False
    try:
        game.play(store, None, "takeback")
    except Declared:
        # The mat's reading that would undo it is wrong, not the move: the pawns as they
        # stand are the next move (a Wind Spirit put back on its square for a moment), read
        # from the declared move's position, or a mismatch the LEDs guide back.
        read_again(game)
        return False
    except StoreUnavailable:
        enter_sync(game)
        return False
    if not event.get("amend"):
        # An amendment is the same turn, played again: the recognizer's OLED says
        # "Red amended:", not that a move was taken back.
        display.announce([views.takeback_show(game, event["takeback"])])
    return True


class Companion(SeatDoors, TableDoors):
    def __init__(self, hardware: Hardware, store: GameStore, *, settle: float = 0.35,
                 sets: tuple[str, ...] = ("base",), public_url: str | None = None,
                 record_trace: Path | None = None, computer: Thinking = Thinking(),
                 wifi: Hotspot | None = None):
        self.mode = "sim" if hardware.sim is not None else "pi"
        self.public_url = public_url
        self._hw = hardware
        self._store = store
        self._settle = settle
        self._sets = tuple(sets)
        self._game: GameSession | None = None
        self._occupancy: frozenset[int] = frozenset()
        self._confirm_until = 0.0
        self._oled_page = 0                     # views.oled_pages: the game, Wi-Fi, join codes
        self.wifi_qr = views.wifi_qr(wifi)      # (network name, WIFI: payload) or None
        self._display = Display(hardware, self.wifi_qr,
                                lambda: self._game.version if self._game is not None else None)
        self._seats = Seats()
        self._publisher = Publisher((None, *SEATS))
        self._hands = Hands(hardware.sim)
        self._traces = Traces(hardware.scanner, record_trace, settle)
        self._thread = GameThread(self._tick, lambda: wait_s(self._game, self._display), self._publish)
        self._scan: ScanLoop | None = None
        self._opponent = Opponent(computer, store, current=lambda: self._game,
                                  play_off_mat=self._play_off_mat, announce=self._display.announce)

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Resume the unfinished game, if any, and start reading the mat."""
        self._game, set_aside = resume_unfinished(self._store)
        if set_aside is not None:
            self._display.announce([outputs.set_aside_show(set_aside)])
        self._hw.buttons.on_press = lambda name: self._thread.post(lambda: self._button(name, False))
        self._hw.buttons.on_long_press = lambda name: self._thread.post(lambda: self._button(name, True))
        self._publish()
        self._opponent.start(self._thread.post)
        self._thread.start()
        self._scan = ScanLoop(self._traces.scanner,
                              lambda occ, t: self._thread.post(lambda: self._mat(occ, t)))

    def close(self) -> None:
        """Stop the mat, the buttons, the game thread; the hardware's owner closes it."""
        if self._scan is not None:
            self._scan.close()
        self._hw.buttons.on_press = self._hw.buttons.on_long_press = None
        self._opponent.close()
        self._thread.stop()
        self._traces.stop()
        self._publisher.close()

    @property
    def closed(self) -> bool:
        """True once the companion has stopped (open streams end on it)."""
        return self._publisher.closed

    # -- what other threads may call -------------------------------------------------------

    def view(self, seat: str | None) -> View:
        check_seat(seat)
        return self._publisher.view(seat)

    def subscribe(self, seat: str | None) -> Subscription:
        check_seat(seat)
        return self._publisher.subscribe(seat)

    def submit(self, seat: str | None, request: Any, timeout: float = 5.0) -> Reply:
        """Run ``request`` on the game thread. Raises a :class:`~.errors.TableError` (or the
        referee's error) when it is refused; nothing has changed then."""
        check_seat(seat)
        if not isinstance(request, dict) or not isinstance(request.get("type"), str):
            raise BadRequest("a request is a JSON object with a \"type\"")
        return self._thread.call(lambda: self._request(seat, request), timeout)

    def oled_png(self, *, for_table: bool = True) -> bytes:
        """The OLED as a picture. A join code leaves the table only for the table itself (the
        simulation's own page): anyone else gets its text lines (see Display.png)."""
        return self._display.png(for_table=for_table)

    def games(self, **query: Any) -> list[ListedGame]:
        """A page of the saved games (see :func:`companion.table.session.public_games`)."""
        return public_games(self._store, **query)

    def record(self, game_id: int) -> dict[str, Any]:
        """A saved game's record (:class:`~.errors.NotFound` for an unknown id); see
        :func:`companion.table.session.record`."""
        return record(self._store, game_id)

    # The simulated mat: a person's hands on the simulated switches and buttons.
    def sim_state(self) -> SimState:
        return self._hands.state()

    def sim_place(self, square: str, noisy: bool = False) -> None:
        self._hands.switch(square, True, noisy)

    def sim_lift(self, square: str, noisy: bool = False) -> None:
        self._hands.switch(square, False, noisy)

    def sim_button(self, name: str, long: bool = False) -> None:
        self._hands.button(name, long)

    # -- the game thread: the mat, the buttons, the clock ------------------------------------

    def _tick(self) -> None:
        game = self._game
        if game is not None and game.recognizer is not None:
            self._recognized(game.recognizer.advance(time.monotonic()))
        self._opponent.think(game)
        self._publish()

    def _mat(self, occupancy: frozenset[int], t: float) -> None:
        self._occupancy = occupancy
        game = self._game
        if game is None:
            return
        game.notices.mat_moved(occupancy)
        if game.recognizer is not None:
            self._recognized(game.recognizer.update(t, occupancy))
        elif game.status == "sync":
            self._sync_check(game)

    def _button(self, name: str, long: bool) -> None:
        game = self._game
        now = time.monotonic()
        if long:
            self._long_press(game, name, now)
        elif name in ("A", "B") and not views.asking(game) and self._seats.decide(allow=name == "A"):
            # A phone asks for a held seat: A lets it take the seat, B refuses; but while the
            # mat asks a question, A and B answer that (the OLED shows the question).
            return
        elif name == "C" and (game is None or game.recognizer is None or game.recognizer.prompt is None):
            self._oled_page = views.next_page(self._oled_page, self._display.shown,
                                              wifi=self.wifi_qr is not None,
                                              computer=frozenset(game.seating.computer) if game else frozenset())
        elif game is not None and game.recognizer is not None:
            self._traces.button(now, name)
            self._recognized(game.recognizer.button(now, name))

    def _long_press(self, game: GameSession | None, name: str, now: float) -> None:
        if name in (LONG_PRESS_COMPUTER, LONG_PRESS_HINT):
            self._opponent.long_press(game, name == LONG_PRESS_HINT, self._sets, self._new_game)
        elif name == LONG_PRESS_NEW_GAME:
            # Hold C twice during a game: the first press asks to confirm on the OLED.
            if game is None or game.status == "finished" or now < self._confirm_until:
                self._confirm_until = 0.0
                self._new_game({"type": "new_game", "way": "base", "sets": list(self._sets)})
            else:
                self._confirm_until = now + CONFIRM_S

    def _recognized(self, events: list[MatEvent]) -> None:
        game = self._game
        assert game is not None
        stand_win(game)
        moves = [event for event in events if "move" in event]  # a move and its reply: one batch
        quiet = False           # a held step amended: the whole move was never played before
        for event in events:
            if "move" in event:
                seat = game.referee.to_act()[0]
                if not self._opponent.as_expected(game, seat, event["move"], self._enter_sync):
                    return
                try:
                    self._display.announce(outputs.announcements(game.play(self._store, seat, event["move"])))
                except REFUSALS as exc:
                    # A move the disk could not save (the views say so) is not played: the
                    # pawn is guided back. One the referee refuses is explained (_refused).
                    if isinstance(exc, StoreUnavailable):
                        self._enter_sync(game)
                    else:
                        self._refused(game, seat, exc)
                    return
                game.unannounced = event["move"] if quiet else None
                if event is moves[-1] and not game.in_step():
                    # The turn goes on off the mat (a Ninja step, a Lantern) or changed it.
                    self._enter_sync(game)
                    return
            elif "takeback" in event:
                if self._opponent.took_back_held(game, event):
                    quiet = bool(event.get("amend"))
                elif not taken_back(game, event, self._store, self._display, self._enter_sync,
                                    lambda g: g.read_again(self._occupancy, self._settle, at_once=True)):
                    return
            elif "prompt" in event and (answered := game.answer_a_win(time.monotonic())) is not None:
                self._recognized(answered)
                return
            elif "mismatch" in event:
                game.wrong = tuple(parse_square(s) for s in event["mismatch"])
            elif "synced" in event:
                game.wrong = ()
        self._opponent.let_go(game, self._enter_sync)
        self._opponent.answer_for_expected(
            game, self._recognized, lambda t, seat, card: self._traces.answer(t, seat, card, False, None))

    def _refused(self, game: GameSession, seat: str, exc: Exception) -> None:
        if isinstance(exc, IllegalActionError) and exc.public_reason is None:
            game.notices.tell(seat, f"{exc.private_reason}: take the pawn back", self._occupancy)
            game.read_again(self._occupancy, self._settle)
        else:   # a public rule: the table says why and guides the pawn back
            self._display.announce([outputs.refused_show(str(getattr(exc, "public_reason", None) or exc))])
            self._enter_sync(game)

    def _enter_sync(self, game: GameSession) -> None:
        game.enter_sync()
        if game.status == "sync":
            self._sync_check(game)

    def _sync_check(self, game: GameSession) -> None:
        """Start reading moves once the mat shows the game's position."""
        if game.synced(self._occupancy, self._settle) and game.recognizer is not None:
            self._traces.start(game.recognizer.board.position, game.referee.mode)

    # -- the game thread: requests -----------------------------------------------------------

    def _request(self, seat: str | None, request: dict[str, Any]) -> Reply:
        kind = request["type"]
        if kind == "new_game":
            game = self._game
            if seat is None and self.mode == "pi" and game is not None and game.status != "finished":
                # Anyone on the network may watch, but only the players at the table end a
                # game: by holding C on the companion twice.
                raise Conflict("a game is being played: to end it, hold C on the companion twice")
            return self._new_game(request)
        game = self._game
        seat = self._seats.check(kind, seat, request.get("session"))
        if kind == "handover":          # the seat's holder answers a phone asking for it
            self._seats.consent(seat, request.get("session"), request.get("allow") is True)
            return {"ok": True}
        if game is None or (game.status == "finished" and not (kind == "answer" and reads_on(game))):
            # (A won game's mat is still read while the winner may amend the winning turn:
            # a question about that amendment is answered from the phone too.)
            raise Conflict("no game is being played")
        game.check_step(seat, request.get("step"))
        if kind == "answer":
            return self._answer(game, seat, request)
        if kind == "hint":
            return self._opponent.hint_request(game, seat)
        if kind == "action":
            text = request.get("text")
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                raise BadRequest("an action is its notation text")
            if self._opponent.remote_move(game, seat, text.strip()):
                return {"ok": True, "on_mat": True}
            self._play_off_mat(game, seat, text.strip())
            return {"ok": True}
        raise BadRequest(f"unknown request type {kind!r}")

    def _play_off_mat(self, game: GameSession, seat: str, text: str) -> None:
        """A step made off the mat (a phone, the computer): then the mat is checked against it."""
        self._display.announce(outputs.announcements(game.play(self._store, seat, text)))
        self._enter_sync(game)

    def _answer(self, game: GameSession, seat: str, request: dict[str, Any]) -> Reply:
        answer = answers.checked(game, seat, request)
        now = time.monotonic()
        self._traces.answer(now, seat, answer.card, answer.takeback, answer.turn)
        self._recognized(answer.rec.answer(now, seat, answer.card, takeback=answer.takeback,
                                           turn=answer.turn))
        return {"ok": True, "kept": True} if answer.kept else {"ok": True}

    def _new_game(self, request: dict[str, Any]) -> Reply:
        try:
            session = replace_game(self._store, self._game, request, self._sets)
        except StoreUnavailable as exc:     # said on the OLED too: a long press has no other answer
            self._display.announce([outputs.no_new_game_show(exc.short)])
            raise
        self._game = session
        self._enter_sync(session)
        return {"ok": True, "game": session.id}

    # -- the game thread: outputs ------------------------------------------------------------

    def _publish(self) -> None:
        game = self._game
        # A seat the computer or another table plays has no join code here.
        self._seats.seat_computer(frozenset(game.seating.computer) | frozenset(game.seating.table)
                                  if game else frozenset())
        self._seats.seat_remote(frozenset(game.seating.remote) if game else frozenset())
        self._display.update(
            game, occupancy=self._occupancy, seats=self._seats, page=self._oled_page,
            join_url=self.join_url,
            game_lines=lambda: invite_lines(
                views.oled_lines(game, occupancy=self._occupancy, public_url=self.public_url,
                                 confirming=time.monotonic() < self._confirm_until),
                self.tables.pending_invite() if self.tables is not None else None))
        self._tell_tables()
        seats = self._seats.held()
        parts = {seat: views.seat_part(game, seat, notice=game.notices.get(seat) if game else None,
                                       asked=self._seats.asked(seat)) for seat in SEATS}
        self._publisher.publish({audience: views.view(game, None if audience is None else parts[audience],
                                                      occupancy=self._occupancy,
                                                      oled=self._display.lines, seats=seats,
                                                      takeover=self._display.takeover)
                                 for audience in (None, *SEATS)})

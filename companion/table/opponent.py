"""The game thread's side of the computer and of hints.

It asks the :class:`~.computer.Thinker` for a computer seat's step or for a hint, each for
one version of the game, and takes the answers back on the game thread, dropping those made
for a version that is gone. It keeps the mat to the expected move: a move read for a seat
that is not at the mat is played only when it is the one asked for. Playing, announcing and
putting the mat back in step stay with the service (``play_off_mat``, ``announce``).
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..ai.dealtables import TABLES
from ..ai.hints import summary
from ..ai.view import SeatView
from ..mat.readings import read_move
from ..rules.actions import parse_action
from ..rules.errors import OnitamaError
from ..rules.moves import Move
from ..rules.position import parse_position
from ..mat.events import MatEvent
from . import outputs
from .computer import (HINT_NODES, Chooser, Expected, Thinker, Version, board_move,
                       default_hints, default_player, same_move)
from .errors import BadRequest, Conflict, Forbidden
from .instructions import expected_words
from .session import GameSession
from .store import GameStore, StoreError
from .viewtypes import Reply

log = logging.getLogger(__name__)

HintTable = dict[str, dict[str, str]]


@dataclass(frozen=True)
class Thinking:
    """How the computer thinks: ``nodes`` per decision (None: each level's own budget; tests
    and benchmarks set one), ``hint_nodes`` per hint, the makers of its players and of
    hint tables (tests give slow or scripted ones), and ``endgames``: whether each base game
    the computer or the hints play has its exact endgames built at the deal (the service
    does; tests that do not test them leave the CPU to the rest)."""
    nodes: int | None = None
    hint_nodes: int = HINT_NODES
    players: Callable[[str, int, int | None], Chooser] = default_player
    hints: Callable[[SeatView, int], HintTable] = default_hints
    endgames: bool = False

ENDGAMES_QUIET_S = 2.0      # a build this short says nothing on the OLED
ENDGAMES_EVERY_S = 5.0      # then its progress this often, for two seconds (announcements queue)


class Opponent:
    def __init__(self, thinking: Thinking, store: GameStore, *, current: Callable[[], GameSession | None],
                 play_off_mat: Callable[[GameSession, str, str], None],
                 announce: Callable[[list[outputs.Show]], None]):
        self._store = store
        self._current = current
        self._play_off_mat = play_off_mat
        self._announce = announce
        self._nodes = thinking.nodes
        self._hint_nodes = thinking.hint_nodes
        self._make_player = thinking.players
        self._hint_table = thinking.hints
        # One player per game and seat: it keeps what it learnt (its tables, its belief).
        self._players: dict[tuple[int, str], Chooser] = {}
        self._thinker: Thinker | None = None
        self._endgames = thinking.endgames
        self._endgames_for: int | None = None      # the game whose table was asked for
        self._endgames_said = 0.0

    def start(self, post: Callable[[Callable[[], object]], None]) -> None:
        self._thinker = Thinker(post)

    def close(self) -> None:
        if self._thinker is not None:
            self._thinker.close()

    # -- the computer's steps --------------------------------------------------------------

    def think(self, game: GameSession | None) -> None:
        """When a computer seat is to act, ask it once for this version of the game. It
        thinks on the thinker's thread from a copy of its seat's view."""
        if game is None:
            return
        self._prepare_endgames(game)
        computer = game.seating.computer
        if (game.status != "playing" or game.expected is not None or self._thinker is None
                or game.thinking == game.version):
            return
        seat = next((s for s in game.referee.to_act() if s in computer), None)
        if seat is None:
            return
        player = self._players.get((game.id, seat))
        if player is None:
            # Only this game's players stay: each holds its search tables (up to tens of MB).
            self._players = {key: p for key, p in self._players.items() if key[0] == game.id}
            player = self._players[(game.id, seat)] = self._make_player(
                computer[seat], int(game.header.get("seed") or 0), self._nodes)
        data = copy.deepcopy(game.referee.view(seat))    # its only input
        asked = game.thinking = game.version
        self._thinker.submit(lambda: player.choose(SeatView.from_view(data)),
                             lambda text: self._decided(asked, seat, text),
                             lambda _error: self._gave_up(asked, seat))

    def _gave_up(self, asked: Version, seat: str) -> None:
        """The computer could not choose (its error is in the log): the seat goes back to a
        person, and the table and the phones say so; the game is not left thinking. The
        error's text is not shown: it may come from the seat's secrets."""
        game = self._current()
        if game is None or game.version != asked or game.status == "finished":
            return
        computer = {s: level for s, level in game.seating.computer.items() if s != seat}
        header = {**game.header, "computer": computer}
        try:
            self._store.reseat(game.id, header)     # a restart seats a person there too
        except StoreError as exc:
            # Handed back all the same (else the game waits for ever); until a restart.
            log.error("%s", exc)
        game.header = header
        game.thinking = None
        game.handed_back = (seat, game.version)
        self._players.pop((game.id, seat), None)
        self._announce([outputs.handed_back_show(seat)])

    def _prepare_endgames(self, game: GameSession) -> None:
        """At the deal of a base game the computer or the hints play: its exact endgames,
        built on a thread of their own (``companion.ai.dealtables``); while that takes more
        than two seconds, its progress on the OLED."""
        if not self._endgames:
            return
        if self._endgames_for != game.id:
            self._endgames_for = game.id
            seating = game.seating
            if game.referee.mode == "base" and game.status != "finished" and (seating.computer or seating.hints):
                pos = parse_position(str(game.referee.view(None)["position"]), game.referee.cards)
                TABLES.start((*pos.hands[0], *pos.hands[1], *pos.side), game.referee.cards)
        building = TABLES.building()
        now = time.monotonic()
        if building is not None and building[0] > ENDGAMES_QUIET_S and now - self._endgames_said >= ENDGAMES_EVERY_S:
            self._endgames_said = now
            self._announce([outputs.endgames_show(building[1])])

    def _decided(self, asked: Version, seat: str, text: str) -> None:
        """The computer's choice, back on the game thread: dropped when the game has moved
        on since it was asked (a takeback, a new game)."""
        game = self._current()
        if game is None or game.version != asked or game.status == "finished":
            # Not the decision itself: a hidden step (a Ninja's square) must not reach the log.
            log.info("a stale decision for %s was dropped", seat)
            return
        try:
            move = board_move(game.referee, seat, text)
        except BadRequest as exc:
            log.error("the computer chose an action for %s that is not legal now", seat)
            return
        if move is not None and game.mat_turn():
            game.expected = Expected(seat, text, move, "computer")
            return
        # A step the mat does not show (a Ninja, a Lantern, a pass, a move off the mat).
        self._play_off_mat(game, seat, text)

    # -- the mat and the expected move -----------------------------------------------------

    def as_expected(self, game: GameSession, seat: str, move: str,
                    enter_sync: Callable[[GameSession], None]) -> bool:
        """A move read for a seat not at the mat must be the one it asked for. False: it is
        not to be played; the mat is guided back to the game's position (``enter_sync``),
        then the expected move shows again."""
        expected = game.expected
        seating = game.seating
        if seat not in seating.away:
            return True
        if expected is not None and same_move(expected, move, game.referee):
            if game.recognizer is not None:
                game.recognizer.declared(move)   # the mat may not take it back nor amend it
            return True
        held = _finishing(game, expected, move)
        if held is not None:
            game.held = held                     # its other step is still to come
            return False
        self._refuse(game, seat, enter_sync)
        return False

    def _refuse(self, game: GameSession, seat: str, enter_sync: Callable[[GameSession], None]) -> None:
        expected = game.expected
        if expected is not None:
            self._announce([outputs.wrong_move_show(
                expected_words(expected, " ".join(game.table()[1])))])
        else:
            self._announce([outputs.refused_show(f"{seat.title()} has not chosen yet")])
        enter_sync(game)

    @staticmethod
    def took_back_held(game: GameSession, event: MatEvent) -> bool:
        """The held step taken back by the mat, or amended into another turn: it was never
        played, so there is nothing to take back."""
        if game.held is None or event.get("takeback") != str(game.held):
            return False
        game.held = None
        return True

    def let_go(self, game: GameSession, enter_sync: Callable[[GameSession], None]) -> None:
        """A held step its mover can no longer finish (the opponent started, so the mat no
        longer amends it): a wrong move after all, refused as one."""
        if game.held is not None and _finishing(game, game.expected, str(game.held)) is None:
            game.held = None
            self._refuse(game, game.referee.to_act()[0], enter_sync)

    @staticmethod
    def answer_for_expected(game: GameSession, recognized: Callable[[list[MatEvent]], None],
                            note: Callable[[float, str, str], None] = lambda t, seat, card: None) -> None:
        """The mat cannot tell which card made the expected move: the move names it (the
        recognizer's events go to ``recognized``). Also when it asks whose step it was and
        offers the expected seat's cards as the reply ("Blue: which card? B: Rabbit or Red:
        Ox, Crab"): the computer has no phone to answer on, and the table knows its move; but
        only when the mat shows that move. Another step is the mover's own going on (a Wind
        Spirit card's Spirit step, which another card would make for the expected seat): the
        mover answers. ``note`` hears the answer first (the trace records it, as a phone's)."""
        rec, expected = game.recognizer, game.expected
        if rec is None or expected is None or game.status != "playing" or rec.prompt is None:
            return
        prompt, card = rec.prompt, expected.move.card
        reply = prompt.get("reply")
        asked = prompt["seat"] == expected.seat and card in prompt["choose"]
        as_reply = (reply is not None and reply["seat"] == expected.seat and card in reply["choose"]
                    and read_move(rec.board.position, expected.move).occupancy == rec.occupancy)
        if asked or as_reply:
            now = time.monotonic()
            note(now, expected.seat, card)
            recognized(rec.answer(now, expected.seat, card))

    @staticmethod
    def remote_move(game: GameSession, seat: str, text: str) -> bool:
        """A remote seat's phone sent ``text``: True when it is a main-board move, now the one
        the mat waits for (someone at the table makes it; it is played when they have)."""
        if seat in game.seating.computer:
            raise Forbidden("the computer plays this seat")
        if seat not in game.seating.remote or not game.mat_turn():
            return False
        if seat not in game.referee.to_act():
            raise Conflict(f"it is not {seat}'s turn")
        move = board_move(game.referee, seat, text)
        if move is None:
            return False
        game.expected = Expected(seat, text, move, "remote")
        return True

    # -- hints -----------------------------------------------------------------------------

    def ask_hint(self, game: GameSession, seat: str) -> bool:
        """Start a hint for ``seat``'s move on the mat; False when none may be given now. A
        seat played from afar gets none: its hint would light up for its opponents."""
        if (seat in game.seating.away or game.status != "playing" or not game.mat_turn()
                or tuple(game.referee.to_act()) != (seat,) or game.hints_left(seat) <= 0
                or self._thinker is None):
            return False
        if game.hint_asked == (game.version, seat):
            return True                                   # already on its way
        used = dict(game.hints_used or {})
        used[seat] = used.get(seat, 0) + 1
        try:
            # On disk before it is given: a restart must not hand the hint back.
            self._store.note_hints(game.id, seat, used[seat])
        except StoreError as exc:
            log.error("%s", exc)
            return False
        game.hints_used = used
        asked = game.version
        game.hint_asked = (asked, seat)
        data = copy.deepcopy(game.referee.view(seat))    # only what the asking seat may know
        nodes = self._hint_nodes
        if not game.way.hidden:
            # In a way with secrets the hint is the asking phone's alone: not a word at the table.
            self._announce([outputs.hint_asked_show(seat, game.hints_left(seat))])
        self._thinker.submit(lambda: self._hint_table(SeatView.from_view(data), nodes),
                             lambda grades: self._hinted(asked, seat, grades))
        return True

    def hint_request(self, game: GameSession, seat: str) -> Reply:
        """A phone asks for a hint (see :meth:`ask_hint`); refused with the reason."""
        if seat in game.seating.computer:
            raise Forbidden("the computer plays this seat")
        if not (game.hint is not None and game.hint[0] == seat) and not self.ask_hint(game, seat):
            raise Conflict("no hint now: hints are for your own move on the mat, on your turn, "
                           "and only as many as the game allows")
        return {"ok": True, "left": game.hints_left(seat)}

    def long_press(self, game: GameSession | None, hint: bool, sets: tuple[str, ...],
                   new_game: Callable[[dict[str, Any]], object]) -> None:
        """Hold A: a hint for the seat to move at the mat, in a way with no secrets (in one
        with secrets anyone at the table could press it, and the hint is the asking seat's
        alone: it is asked on the phone). Hold B: a new game that seats the computer
        (:func:`computer_cycle`), dealt by ``new_game``, if one is to be dealt."""
        if not hint:
            request = computer_cycle(game, sets)
            if request is not None:
                new_game(request)
        elif game is not None and game.way.hidden:
            self._announce([outputs.HINT_ON_PHONE_SHOW])
        elif game is not None and game.recognizer is not None:
            if not self.ask_hint(game, game.referee.to_act()[0]):
                self._announce([outputs.NO_HINT_SHOW])

    def _hinted(self, asked: Version, seat: str, grades: HintTable) -> None:
        game = self._current()
        if game is not None and game.version == asked:
            game.hint = (seat, grades)
            # A solved position's outcome in words, at the table as the grades are (the phone
            # says it too); in a way with secrets the hint is the phone's alone.
            solved = summary(getattr(grades, "exact", None) or {})
            if solved is not None and not game.way.hidden:
                self._announce([outputs.solved_hint_show(seat, solved)])


def computer_cycle(game: GameSession | None, sets: tuple[str, ...]) -> dict[str, Any] | None:
    """Hold B before a base game's first move: the request of a new game where the computer
    plays Blue, then Red, then nobody; the same deal again, so no pawn moves. None during a
    game."""
    if game is not None and game.status != "finished" and game.referee.log:
        return None
    request: dict[str, Any] = {"type": "new_game", "way": "base", "sets": list(sets)}
    nxt: str | None = "blue"
    if game is not None and game.status != "finished" and game.referee.mode == "base":
        nxt = {(): "blue", ("blue",): "red"}.get(tuple(game.seating.computer))
        request.update({k: game.header[k] for k in ("sets", "seed") if k in game.header})
        if game.header.get("fixed"):
            fields = game.table()[1]
            request["cards"] = {"red": fields[2].split(","), "blue": fields[3].split(","),
                                "side": fields[4]}
    if nxt is not None:
        request["computer"] = {nxt: "medium"}
    return request


def _finishing(game: GameSession, expected: Expected | None, move: str) -> Move | None:
    """``move``, the last turn the mat read, when it is one step of the expected move that its
    mover may still finish (the recognizer then amends it into the whole move); else None."""
    rec = game.recognizer
    if expected is None or rec is None or not rec.amendable or not rec.board.move_stack:
        return None
    try:
        read = parse_action(move, None, game.referee.cards)
    except OnitamaError:
        return None
    if isinstance(read, Move) and expected.begun_by(read) and str(rec.board.peek()) == move:
        return read
    return None

"""One game's session: its referee, the recognizer reading its mat, and its save file rows.

A game is in one of three states. ``sync``: the mat must be made to match the game (at
set-up, after a restart, after a move made from a phone). ``playing``: the recognizer reads
moves (when the way of playing lets the mat read them). ``finished``: the result is shown
until a new game. Everything here runs on the game thread.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..mat.readings import read_move
from ..mat.recognizer import SCAN_S, Recognizer
from ..rules.errors import OnitamaError
from ..rules.moves import Move
from ..rules.position import ABSENT, board_pieces, format_position, parse_position
from ..rules.record import GameRecord
from ..rules.referee import Event, Referee
from ..rules.sealed import full_record, public_record
from ..rules.ways import WAYS, Way, named_way, new_referee, way
from ..mat.events import MatEvent, Prompt
from .computer import Expected, Seating, Version, seating, version
from .errors import REFUSALS, BadRequest, CompanionError, Conflict, Declared, NotFound
from .notices import Notices
from .replay import rebuild
from .tables import LINK_KEY, last_linked, link_header, opened_half_record, table_referee
from .store import DamagedGame, GameStore, SavedGame, StoreError, StoreUnavailable
from .viewtypes import ListedGame
from .wins import settle_result

log = logging.getLogger(__name__)

# Kept in the save file, never shown: what ordered a hidden deck (see companion.rules.ways).
HIDDEN_KEYS = ("hidden_seed",)


@dataclass
class GameSession:
    id: int
    header: dict[str, Any]
    referee: Referee[Any]
    status: str = "sync"                 # "sync" | "playing" | "finished"
    recognizer: Recognizer | None = None
    seq: int = 0                         # the next action's number in the save file
    wrong: tuple[int, ...] = ()          # squares the recognizer found out of step
    expected: Expected | None = None     # a move the mat is asked to make (computer, remote)
    # One step of the expected move, which the mat read as a whole turn of its own (a Wind
    # Spirit card's pawn step is often another card's move): neither played nor refused while
    # the recognizer may still amend it into the whole move (Opponent.as_expected).
    held: Move | None = None
    # The expected move so amended and played: the OLED does not call it amended, since
    # nothing was played before it.
    unannounced: str | None = None
    thinking: Version | None = None      # the version the computer is thinking about
    # A computer seat that could not move went back to a person: (seat, at this version).
    handed_back: tuple[str, Version] | None = None
    hint: tuple[str, dict[str, dict[str, str]]] | None = None   # (seat, grades) this turn
    hint_asked: tuple[Version, str] | None = None   # a hint being computed: (version, seat)
    hints_used: dict[str, int] | None = None
    unsaved: str | None = None           # why the last action could not be saved, until one is
    # The mat has shown the game's position once: a mat out of step before the first move
    # (a wrong move made for the computer) is no longer the set-up.
    laid_out: bool = False
    # Why the referee refused a seat's move on the mat, for that seat's phone alone.
    notices: Notices = field(default_factory=Notices)

    @property
    def seating(self) -> Seating:
        return Seating.from_header(self.header)

    @property
    def version(self) -> Version:
        """Changes with every saved action: a decision or hint made for another is stale."""
        return version(self.id, self.seq)

    def hints_left(self, seat: str) -> int:
        return self.seating.hints - (self.hints_used or {}).get(seat, 0)

    @property
    def mat_hint(self) -> tuple[str, dict[str, dict[str, str]]] | None:
        """The hint the mat may show: none in a way with secrets, where a hint is graded from
        the asking seat's view (its hidden Ninja) and shows on its phone alone."""
        return None if self.way.hidden else self.hint

    @property
    def sets(self) -> list[str]:
        """The card sets dealt from (the header's public part)."""
        return list(self.header.get("sets", []))

    @property
    def way(self) -> Way:
        return way(self.referee.mode)

    def table(self) -> tuple[dict[int, str], list[str]]:
        """The main board's pieces and the public position string's five fields."""
        text = self.referee.view(None)["position"]
        return board_pieces(text), text.split()

    def step(self, seat: str | None) -> str:
        """The step of the game as ``seat``'s page names it: finished turns and the phase."""
        table = self.referee.view(seat)
        return f"{len(table['log'])}:{table.get('phase', 'move')}"

    def check_step(self, seat: str, step: Any) -> None:
        """The step the phone's page showed (None: none named): a request sent twice, or from a
        page that had not caught up, must not land on a later step where its text is legal
        again. Runs on the game thread, with the action it guards."""
        if step is None:
            return
        if not isinstance(step, str):
            raise BadRequest("a step is text, such as \"3:ninja\"")
        if step != self.step(seat):
            raise Conflict("the game has moved on since this was sent: look again")

    def question_for(self, seat: str) -> tuple[Prompt, Recognizer]:
        """The card question ``seat`` may answer now, and the recognizer that asks it: its own
        question, or the other seat's side of a "whose step was it?" (answered with its own
        card)."""
        rec = self.recognizer
        prompt = rec.prompt if rec is not None else None
        reply = prompt.get("reply") if prompt is not None else None
        if reply is not None and reply["seat"] == seat:
            prompt = {"seat": seat, "choose": reply["choose"]}
        if rec is None or prompt is None or prompt["seat"] != seat:
            raise Conflict("there is no question for this seat")
        return prompt, rec

    @property
    def setting_up(self) -> bool:
        """The pawns are being laid out for the first move."""
        return self.status == "sync" and not self.referee.log and not self.laid_out

    def sync_diff(self, occupancy: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        """Squares that want a pawn, and squares that should be empty."""
        want = frozenset(self.table()[0])
        return want - occupancy, occupancy - want

    def play(self, store: GameStore, seat: str | None, action: str) -> list[Event]:
        """Check ``action`` with the referee, then save it; only then is it confirmed.

        A save file that refuses it (:class:`StoreUnavailable`: a full or failing disk) leaves
        it confirmed nowhere: the referee is as it was, ``unsaved`` says why for the table,
        and the error is raised. So a takeback only ever undoes a move that was saved, and
        only the last one."""
        ref = self.referee
        before = ref.copy()
        events: list[Event] = []
        if action == "takeback":
            # Where the log changes: every takeback or amend of the mat's comes through here.
            if seat is None and ref.log and ref.log[-1].seat in self.seating.away:
                raise Declared(f"{str(ref.log[-1].seat).title()}'s move was chosen away from the mat")
            ref.undo()
        else:
            events = ref.act(seat, action)  # type: ignore[arg-type]
        try:
            store.append(self.id, self.seq, action, seat)
        except Exception as exc:
            self.referee = before
            if isinstance(exc, StoreUnavailable):
                self.unsaved = f"Cannot save: {exc.short}"
            raise
        self.unsaved = None
        self.seq += 1
        self.expected = self.hint = self.held = self.unannounced = None
        settle_result(self, store)
        return events

    def mat_turn(self) -> bool:
        """Does the mat read the next step: a main-board move by a seat with pawns on it?"""
        ref = self.referee
        to_act = ref.to_act()
        if not self.way.mat_reads_moves or len(to_act) != 1:
            return False
        if ref.view(None).get("phase", "move") != "move":
            return False
        return any(p in ("Rr" if to_act[0] == "red" else "Bb") for p in self.table()[0].values())

    def in_step(self) -> bool:
        """Is the recognizer still reading the game's own position, the game being played?"""
        return self.status == "playing" and self.mat_turn() and self.reads_game()

    def reads_game(self) -> bool:
        """Is there a recognizer, and does its board stand where the game does?"""
        rec = self.recognizer
        return rec is not None and str(rec.board.position) == " ".join(self.table()[1])

    def enter_sync(self) -> None:
        if self.status != "finished":
            self.status, self.recognizer, self.wrong, self.held = "sync", None, (), None

    def synced(self, occupancy: frozenset[int], settle: float) -> bool:
        """The mat shows the game's position: play on; True when the recognizer (re)starts."""
        pieces = self.table()[0]
        ref = self.referee
        if occupancy != frozenset(pieces) or ref.result is not None:
            return False
        self.status = "playing"
        self.laid_out = True
        if not self.mat_turn():
            return False
        self.recognizer = self._reader(settle, time.monotonic())
        return True

    def _reader(self, settle: float, t: float) -> Recognizer:
        """A recognizer reading the mat from the game's position at ``t``, its turns numbered as the game's."""
        ref = self.referee
        pos = parse_position(" ".join(self.table()[1]), ref.cards)
        if ref.mode == "light":
            # The Shadow Master has no master on the mat: not a game won by the Stone.
            pos = replace(pos, blue_master=ABSENT) if ref.light == 0 else replace(pos, red_master=ABSENT)
        return Recognizer(pos, cards=ref.cards, settle=settle, t=t, first=len(ref.view(None)["log"]) + 1)

    def answer_a_win(self, t: float) -> list[MatEvent] | None:
        """The mat's question answered, when every card it asks about wins the game there (the
        question would only hold up the end; the first card goes in the record): the
        recognizer's events, or None when the question stands, or the move asked for names
        its card (``Opponent.answer_for_expected``)."""
        card = self.winning_card()
        if card is None or self.expected is not None or self.recognizer is None or self.recognizer.prompt is None:
            return None
        return self.recognizer.answer(t, self.recognizer.prompt["seat"], card)

    def winning_card(self) -> str | None:
        """The card to answer with, if every card asked about wins (see ``answer_a_win``):
        None while a takeback is offered, a Wind Spirit card is unfinished, or a card does not
        win."""
        rec = self.recognizer
        prompt = rec.prompt if rec is not None else None
        if rec is None or prompt is None or "takeback" in prompt:
            return None
        board = rec.board
        for card in prompt["choose"]:
            fits = [m for m in board.legal_moves if m.card == card and not m.is_pass
                    and read_move(board.position, m).occupancy == rec.occupancy]
            if not fits:
                return None
            for move in fits:
                after = board.copy()
                after.push(move)
                if after.outcome() is None:
                    return None
        return str(prompt["choose"][0])

    def read_again(self, occupancy: frozenset[int], settle: float, at_once: bool = False) -> None:
        """The referee refused the move the mat showed for a reason only the mover may know: read
        the mat afresh from the game's position with the pawns as they stand, read when next moved;
        ``at_once`` (a refused amend of a declared move): read now, from a rest a scan before."""
        t = time.monotonic()
        self.recognizer, self.held = self._reader(settle, t - (SCAN_S if at_once else 0.0)), None
        self.recognizer.update(t, occupancy)


# -- new games and saved ones --------------------------------------------------------------

def new_session(store: GameStore, request: dict[str, Any], default_sets: tuple[str, ...]) -> GameSession:
    """A new game from a ``new_game`` request, saved; :class:`BadRequest` names what is wrong."""
    try:
        variant = named_way(request, "base")
    except OnitamaError as exc:
        raise BadRequest(str(exc)) from None
    sets = request.get("sets", list(default_sets))
    wind_cards = request.get("wind_cards", 2)
    seed = request.get("seed")
    fixed = request.get("cards")
    if not isinstance(variant, str) or variant not in WAYS:
        raise BadRequest(f"unknown way {variant!r} (known: {', '.join(WAYS)})")
    if not isinstance(sets, list) or not sets or not all(isinstance(s, str) for s in sets):
        raise BadRequest("sets is a list of card set names")
    if not isinstance(wind_cards, int) or isinstance(wind_cards, bool):
        raise BadRequest("wind_cards is a number from 0 to 5")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise BadRequest("seed is a whole number")
    seats = seating(request, mode=variant)
    if fixed is not None:
        ref = _fixed_referee(WAYS[variant], fixed)
    else:
        ref = new_referee(variant, seed=seed, sets=tuple(sets), wind_cards=wind_cards)
    # Every referee keeps the seed and the start it was dealt (declared on Referee).
    header = {"variant": variant, "sets": sets, "wind_cards": wind_cards,
              "seed": ref.seed, "start": format_position(ref.start),
              "fixed": fixed is not None, **seats.header(), **link_header(request, seats)}
    hidden_seed = getattr(ref, "hidden_seed", None)
    if hidden_seed is not None:
        header["hidden_seed"] = hidden_seed
    return GameSession(store.new_game(header), header, table_referee(header, ref))


def replace_game(store: GameStore, old: GameSession | None, request: dict[str, Any],
                 default_sets: tuple[str, ...]) -> GameSession:
    """A new game for ``request``; the game it replaces, unless finished, stays in the list
    as abandoned."""
    session = new_session(store, request, default_sets)
    if old is not None and old.status != "finished":
        store.finish(old.id, {"winner": None, "how": "abandoned"})
    return session


def _fixed_referee(chosen: Way, fixed: Any) -> Referee[Any]:
    if "cards" not in chosen.options:
        raise BadRequest(f"fixed cards are for ways dealt on an official board, not {chosen.name}")
    if (not isinstance(fixed, dict) or not isinstance(fixed.get("red"), list)
            or not isinstance(fixed.get("blue"), list) or not isinstance(fixed.get("side"), str)):
        raise BadRequest("cards is {\"red\": [2 cards], \"blue\": [2 cards], \"side\": card}")
    if len(fixed["red"]) != 2 or len(fixed["blue"]) != 2:
        raise BadRequest("each player takes two cards")
    return chosen.fixed(fixed["red"], fixed["blue"], fixed["side"])


def resume(saved: SavedGame) -> GameSession:
    """A saved game, replayed through its referee (:class:`~.replay.ReplayError`, a
    conflict, when it does not replay)."""
    header = saved.header
    ref = rebuild(header, ((a.seat, a.action) for a in saved.actions))
    game = GameSession(saved.id, header, ref, seq=len(saved.actions))
    game.status = "finished" if ref.result is not None else "sync"
    return game


def resume_unfinished(store: GameStore) -> tuple[GameSession | None, int | None]:
    """The unfinished game (or the newest, over and linked to another table:
    :func:`~.tables.last_linked`), resumed, or None; and the id of an unfinished game that could not
    be read or replayed. That one stays on disk, marked as set aside (the game list says why):
    the table starts afresh rather than not at all."""
    try:
        saved = store.unfinished() or last_linked(store)
    except DamagedGame as exc:           # the store has set it aside
        return None, exc.game_id
    if saved is None:
        return None, None
    try:
        game = resume(saved)
    except REFUSALS as exc:
        log.error("game %s cannot be resumed: %s", saved.id, exc)
        try:
            store.set_aside(saved.id, str(exc))
        except StoreError as failure:
            log.error("%s", failure)
        return None, saved.id
    try:
        game.hints_used = store.hints_used(saved.id)
    except StoreError as failure:
        # The hints asked for cannot be read back: the game goes on, with its full allowance.
        log.error("%s", failure)
    return game, None


def saved_game(store: GameStore, game_id: int) -> SavedGame:
    try:
        return store.game(game_id)
    except KeyError:
        raise NotFound(f"there is no game {game_id}") from None


def record(store: GameStore, game_id: int) -> dict[str, Any]:
    """A saved game's record: the public record while it is played, and once a game with
    hidden information has ended the full one, every secret revealed (the hidden seed too),
    as the screens come down at the end of a real game."""
    saved = saved_game(store, game_id)
    ref = resume(saved).referee
    if way(ref.mode).plain_record:
        result = None if ref.result is None else ref.result.as_dict()
        classic = GameRecord(variant=ref.mode, start=saved.header["start"],
                             moves=[t.public for t in ref.log], sets=saved.header.get("sets", []),
                             seed=saved.header.get("seed"), result=result,
                             date=time.strftime("%Y-%m-%d", time.localtime(saved.created)))
        return classic.to_json()
    if ref.result is None:
        public = public_record(ref)
        if saved.result is not None:
            # Abandoned: over, though no rule ended it (its secrets stay kept).
            public["header"] = {**public["header"], "result": saved.result}
        return public
    # Across tables, Light & Shadow: the other table's Ninjas, once it opened them.
    full = opened_half_record(ref, saved.header, saved.result) or full_record(ref)
    for key in HIDDEN_KEYS:
        if key in saved.header:
            full["header"] = {**full["header"], key: saved.header[key]}
    return full


def public_games(store: GameStore, **query: Any) -> list[ListedGame]:
    """A page of the game list (``GameStore.games``: limit, before, mode, dates), without
    what is kept secret in the save file (a damaged game's header may be None). ``turns``
    counts finished turns, as players do (a Light & Shadow turn is several saved actions, and
    a takeback undoes one); ``actions`` stays the saved rows."""
    return [{**g, "header": None if g["header"] is None else
             {k: v for k, v in g["header"].items() if k not in HIDDEN_KEYS and k != LINK_KEY},
             "turns": None if g.get("damaged") else _turns(store, g["id"])}
            for g in store.games(**query)]


def _turns(store: GameStore, game_id: int) -> int | None:
    try:
        return len(resume(store.game(game_id)).referee.log)
    except (OnitamaError, CompanionError, KeyError):
        return None         # a save that no longer replays: listed, without a count

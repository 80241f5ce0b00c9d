"""The seam to another table: a seat played on another table's mat, as the service sees it.

The service knows nothing of how tables talk (that is ``companion.link``, beside the web
layer). It keeps, in the game's header, the game's link: a name and a key shared by the two
tables (``link_header``), and it offers the link three things:

- :class:`TableState`, handed to a watcher on the game thread whenever the game may have
  changed: which game, how many actions are saved;
- the saved actions of a game (``rows``), the one truth both tables hash and compare;
- :func:`apply_row`: the other table's action number ``n``, on the game thread. A main-board
  move becomes the game's expected move, shown on this mat like the computer's, and is
  played once the mat shows it; any other step is played at once. An action this table
  already has is answered ``"have"`` and changes nothing, one out of order is refused.

In a way with a seat's secrets (Light & Shadow) each table's referee is its half of the game
(:func:`table_referee`, the way's ``table_half``): the rows the tables share are then the
half's, where this table's hidden steps are public forms and commitments, never the full
text its save file keeps; and this table answers the other's questions about its own Ninjas
as soon as one is asked (:meth:`TableDoors._tell_tables`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..mat.oled import COLUMNS
from ..rules.errors import RecordError
from ..rules.half_record import opened_record
from ..rules.referee import Referee
from ..rules.sealed_ninjas import table_salts
from ..rules.position import COLORS
from ..rules.shadow import ShadowReferee
from ..rules.shadow_half import HalfReferee
from ..rules.table_half import TableHalf
from ..rules.ways import way
from .computer import Expected, Seating, board_move
from .errors import BadRequest, Conflict, Forbidden
from .viewtypes import Reply

if TYPE_CHECKING:
    from .saved import SavedGame
    from .session import GameSession
    from .store import GameStore
    from .thread import GameThread

LINK_KEY = "link"           # the header's entry: never shown in the game list
ROLES = ("host", "guest")
_NAME = re.compile(r"^[a-z2-7]{10,32}$")     # topic-safe: lower-case base32


@dataclass(frozen=True)
class TableState:
    """What a watcher of the game is told: enough to notice a new game or a new action."""
    game_id: int
    seq: int                        # saved actions
    status: str
    header: Mapping[str, Any]       # the game's header: its deal, seating and link

    @property
    def link(self) -> Mapping[str, str]:
        """``{"game", "key", "role", "broker"?}``."""
        return dict(self.header[LINK_KEY])

    @property
    def seating(self) -> Seating:
        return Seating.from_header(self.header)


TableWatch = Callable[[TableState | None], None]


class Invites(Protocol):
    """The links as the pages reach them through the service (``companion.link.links``)."""
    def invite_code(self) -> str | None: ...
    def pending_invite(self) -> str | None: ...
    def club_games(self) -> list[dict[str, Any]]: ...
    def join(self, code: str) -> Reply: ...


def link_header(request: Mapping[str, Any], seats: Seating) -> dict[str, Any]:
    """The header's link for a new game: the guest's comes from the invite it took (checked
    here); the host's is made fresh, a name and a key for this game only."""
    given = request.get(LINK_KEY)
    if not seats.table:
        if given is not None:
            raise BadRequest("a game linked to another table names the seat played there (table)")
        return {}
    # ``secret``: this table's own, for the salts of its commitments (never sent).
    if given is None:
        return {LINK_KEY: {"game": new_name(), "key": new_name(26), "role": "host",
                           "secret": new_name(26)}}
    if (not isinstance(given, dict) or not isinstance(given.get("game"), str)
            or not isinstance(given.get("key"), str) or given.get("role") not in ROLES
            or not _NAME.match(given["game"]) or not _NAME.match(given["key"])
            or not isinstance(given.get("broker", ""), str)):
        raise BadRequest("link is {\"game\", \"key\", \"role\", \"broker\"} from an invite")
    return {LINK_KEY: {**{k: given[k] for k in ("game", "key", "role", "broker") if k in given},
                       "secret": new_name(26)}}


def table_referee(header: Mapping[str, Any], whole: Referee[Any]) -> Referee[Any]:
    """The referee this table plays ``whole`` with: its half, in a game across tables whose
    way keeps a seat's secrets; else the whole game."""
    link, half = header.get(LINK_KEY), way(whole.mode).table_half
    if not link or half is None:
        return whole
    here = "red" if Seating.from_header(header).table == ("blue",) else "blue"
    return half(whole, here, link["game"], table_salts(link["secret"], link["game"]))


def travels_sealed(referee: Referee[Any], text: str) -> bool:
    """Is ``text`` a row that only a half referee plays: a hidden step, an answer, a key, a
    commitment or reveal of a simultaneous move?"""
    return isinstance(referee, TableHalf) and referee.sealed_row(text)


def last_linked(store: "GameStore") -> "SavedGame | None":
    """The newest game when it is over and linked to another table: a restart resumes it as it
    resumes an unfinished one (the result shown), so that its link still sends the other table
    the last move and, in a game of halves, this table's openings."""
    newest = store.games(limit=1)
    if not newest or newest[0].get("damaged") or newest[0].get("result") is None:
        return None
    saved = store.game(newest[0]["id"])
    return saved if LINK_KEY in saved.header else None


def new_name(length: int = 12) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    return "".join(secrets.choice(alphabet) for _ in range(length))


def waiting_lines(seat: str) -> tuple[str, str, str]:
    """The OLED while the other table's seat chooses its move."""
    return (f"{seat.title()} plays", "at the other table", "waiting for the move")


def invite_lines(lines: tuple[str, ...], code: str | None) -> tuple[str, ...]:
    """The OLED's lines, and under them the invite while the other table has not taken it
    (the OLED pages a text longer than its screen)."""
    if code is None:
        return lines
    return (*lines, "Invite for the other", "table:",
            *(code[i:i + COLUMNS] for i in range(0, len(code), COLUMNS)))


def table_state(game: "GameSession | None") -> TableState | None:
    if game is None or LINK_KEY not in game.header:
        return None
    return TableState(game.id, game.seq, game.status, game.header)


def apply_row(game: "GameSession | None", game_id: int, seat: str, n: int, text: str,
              play_off_mat: Callable[["GameSession", str, str], None]) -> str:
    """Game thread: the other table played ``text`` as action ``n``. Returns ``"have"`` (this
    table has it already), ``"expected"`` (the mat shows it, for someone to make) or
    ``"played"``; raises when it is not for this game, out of order, or not legal."""
    if game is None or game.id != game_id:
        raise Conflict("that game is not the one on this table")
    if seat not in game.seating.table:
        raise Forbidden(f"{seat} is not played at the other table")
    # The rows the tables share: in a game of halves, the half's (a simultaneous move chosen
    # here is saved, but crosses only as its commitment, later).
    have = len(game.referee.rows) if isinstance(game.referee, TableHalf) else game.seq
    if n < have:
        return "have"
    if n > have:
        raise Conflict(f"action {n} came before action {have}")
    if game.status == "finished":
        raise Conflict("the game is over")
    if seat not in game.referee.to_act():
        raise Conflict(f"it is not {seat}'s turn")
    expected = game.expected
    if expected is not None and expected.seat == seat and expected.text == text:
        return "expected"                 # sent again (a resend after a reconnection)
    if travels_sealed(game.referee, text):
        play_off_mat(game, seat, text)    # no board move to show: a hidden step, an answer
        return "played"
    move = board_move(game.referee, seat, text)
    if move is not None and game.mat_turn():
        game.expected = Expected(seat, text, move, "table")
        return "expected"
    play_off_mat(game, seat, text)
    return "played"


def opened_half_record(referee: Referee[Any], header: Mapping[str, Any],
                       result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A finished Light & Shadow game of halves' full record with the other table's Ninjas,
    from the openings its audit kept with the result (None: not such a game, or no
    openings that replay: then the record shows this table's secrets only)."""
    openings = ((result or {}).get("audit") or {}).get("openings")
    if not isinstance(referee, HalfReferee) or referee.result is None or not isinstance(openings, dict):
        return None
    whole = way(header["variant"]).restart(header)
    assert isinstance(whole, ShadowReferee), "a game of halves is dealt as a whole Light & Shadow game"
    try:
        return opened_record(referee, whole, {n: (o[0], o[1]) for n, o in openings.items()})
    except (RecordError, TypeError, IndexError):
        return None


def half_rows(game: "GameSession | None", game_id: int) -> list[tuple[str | None, str]]:
    """Game thread: the current game's half's rows (none for a game no longer current: its
    link is closing)."""
    if game is None or game.id != game_id or not isinstance(game.referee, TableHalf):
        return []
    return [(seat, text) for seat, text in game.referee.rows]


ANSWERS_AT_ONCE = 4   # a bound on the rules' questions answered in one go (one is the rule)

class TableDoors:
    """The service's doors for ``companion.link`` (any thread): watch the game, read its
    saved actions, hand it the other table's. Mixed into the service, which sets these."""

    _thread: "GameThread"
    _store: "GameStore"
    _game: "GameSession | None"
    _table_watch: TableWatch | None = None
    # Set by whoever starts the links (companion.serve): the invite to show, taking one.
    tables: Invites | None = None
    _play_off_mat: Callable[["GameSession", str, str], None]

    def watch_tables(self, watch: TableWatch | None) -> None:
        """``watch`` is called on the game thread after every event, with the game's
        :class:`TableState` (None: no game linked to another table). It must not block."""
        self._table_watch = watch

    def _tell_tables(self) -> None:
        game = self._game
        for _ in range(ANSWERS_AT_ONCE):
            half = game.referee if game is not None and isinstance(game.referee, TableHalf) else None
            answer = half.answer() if half is not None else None
            if game is None or half is None or answer is None or game.status == "finished":
                break
            # The rules wait for this table (the other asks about its Ninjas; its key for a
            # draw; its seat's commitment or reveal): it answers at once, always its own seat,
            # and its referee offers the true answer only.
            self._play_off_mat(game, COLORS[half.here], answer)
        # Then the links hear of it, the answer included: a row the link never heard of would
        # wait for its next resync, which a busy link does not reach (the other table stuck).
        if self._table_watch is not None:
            self._table_watch(table_state(game))

    def table_rows(self, game_id: int) -> list[tuple[str | None, str]]:
        """The actions of game ``game_id`` as the tables share them, (seat, action) in order:
        the saved ones, or in a game of halves the half's rows (this table's hidden steps as
        public forms and commitments: its save file's full texts never leave it)."""
        saved = self._store.game(game_id)
        if way(saved.header["variant"]).table_half is None or LINK_KEY not in saved.header:
            return [(a.seat, a.action) for a in saved.actions]
        return self._thread.call(lambda: half_rows(self._game, game_id))

    def table_openings(self, game_id: int) -> dict[str, tuple[str, str]] | None:
        """This table's commitments opened, once game ``game_id`` (its half) is over; else None."""
        def opened() -> dict[str, tuple[str, str]] | None:
            game = self._game
            if (game is None or game.id != game_id or not isinstance(game.referee, TableHalf)
                    or game.referee.result is None):
                return None
            return game.referee.openings()
        return self._thread.call(opened)

    def table_verdict(self, game_id: int, verdict: dict[str, Any]) -> None:
        """This table's audit of the other's openings, kept with the game's result: the lies
        it found, naming the table that told each (none: the other table was honest)."""
        saved = self._store.game(game_id)
        self._store.finish(game_id, {**(saved.result or {}), "audit": verdict})

    def table_row(self, game_id: int, seat: str, n: int, text: str) -> str:
        """The other table's action ``n`` (see :func:`apply_row`)."""
        return self._thread.call(lambda: apply_row(self._game, game_id, seat, n, text,
                                                   self._play_off_mat))

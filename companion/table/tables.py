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
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from .computer import Expected, Seating, board_move
from .errors import BadRequest, Conflict, Forbidden
from .viewtypes import Reply

if TYPE_CHECKING:
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
    def join(self, code: str) -> Reply: ...


def link_header(request: Mapping[str, Any], seats: Seating) -> dict[str, Any]:
    """The header's link for a new game: the guest's comes from the invite it took (checked
    here); the host's is made fresh, a name and a key for this game only."""
    given = request.get(LINK_KEY)
    if not seats.table:
        if given is not None:
            raise BadRequest("a game linked to another table names the seat played there (table)")
        return {}
    if given is None:
        return {LINK_KEY: {"game": new_name(), "key": new_name(26), "role": "host"}}
    if (not isinstance(given, dict) or not isinstance(given.get("game"), str)
            or not isinstance(given.get("key"), str) or given.get("role") not in ROLES
            or not _NAME.match(given["game"]) or not _NAME.match(given["key"])
            or not isinstance(given.get("broker", ""), str)):
        raise BadRequest("link is {\"game\", \"key\", \"role\", \"broker\"} from an invite")
    return {LINK_KEY: {k: given[k] for k in ("game", "key", "role", "broker") if k in given}}


def new_name(length: int = 12) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    return "".join(secrets.choice(alphabet) for _ in range(length))


def waiting_lines(seat: str) -> tuple[str, str, str]:
    """The OLED while the other table's seat chooses its move."""
    return (f"{seat.title()} plays", "at the other table", "waiting for the move")


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
    if n < game.seq:
        return "have"
    if n > game.seq:
        raise Conflict(f"action {n} came before action {game.seq}")
    if game.status == "finished":
        raise Conflict("the game is over")
    if seat not in game.referee.to_act():
        raise Conflict(f"it is not {seat}'s turn")
    expected = game.expected
    if expected is not None and expected.seat == seat and expected.text == text:
        return "expected"                 # sent again (a resend after a reconnection)
    move = board_move(game.referee, seat, text)
    if move is not None and game.mat_turn():
        game.expected = Expected(seat, text, move, "table")
        return "expected"
    play_off_mat(game, seat, text)
    return "played"


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
        if self._table_watch is not None:
            self._table_watch(table_state(self._game))

    def table_rows(self, game_id: int) -> list[tuple[str | None, str]]:
        """The saved actions of game ``game_id``, (seat, action) in order."""
        return [(a.seat, a.action) for a in self._store.game(game_id).actions]

    def table_row(self, game_id: int, seat: str, n: int, text: str) -> str:
        """The other table's action ``n`` (see :func:`apply_row`)."""
        return self._thread.call(lambda: apply_row(self._game, game_id, seat, n, text,
                                                   self._play_off_mat))

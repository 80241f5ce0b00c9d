"""The game as every public output may read it: the OLED, the LEDs, the table page and the
public stream (their views, built in :mod:`.views`; their pictures, in :mod:`.display`).

Secrets live on the server and reach their own seat only. A public output must never read a
seat's view (its hidden Ninjas, its legal moves), a hint (graded from the asking seat's
view), the hidden seed, or the referee's full log (its turns' hidden parts). So public
renderers take a :class:`PublicGame`, not the game's session: a protocol that names only what
the public may see. A :class:`~.session.GameSession` is one, structurally; inside a function
typed with it, mypy refuses ``game.referee.view("red")`` (the referee's view takes no seat
here), ``game.hint``, ``game.header``, ``game.referee.log`` and every other private part. A
seat's private parts reach its own view through :class:`SeatPart`, built from the session by
:func:`.views.seat_part` and given to that seat's view alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..mat.recognizer import Recognizer
from ..rules.cards import CardTable
from ..rules.moves import Move
from ..rules.referee import Result
from ..rules.ways import Way
from .computer import Expected, Seating, Version
from .viewtypes import HintsView, RefereeView

HintGrades = dict[str, dict[str, str]]


class PublicReferee(Protocol):
    """The referee's public side: its view names no seat, so it is the public's."""

    @property
    def mode(self) -> str: ...
    @property
    def result(self) -> Result | None: ...
    @property
    def cards(self) -> CardTable: ...
    def to_act(self) -> tuple[str, ...]: ...
    def view(self, seat: None = None) -> RefereeView: ...


class PublicGame(Protocol):
    """What the public may know of a game: the public position, what the mat reads (its
    recognizer reads the public position), the move the mat is asked to make, the seating,
    and a hint the mat may show (only in a way with no secrets: ``mat_hint``)."""

    @property
    def id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def sets(self) -> list[str]: ...
    @property
    def referee(self) -> PublicReferee: ...
    @property
    def recognizer(self) -> Recognizer | None: ...
    @property
    def wrong(self) -> tuple[int, ...]: ...
    @property
    def expected(self) -> Expected | None: ...
    @property
    def held(self) -> Move | None: ...
    @property
    def unannounced(self) -> str | None: ...
    @property
    def thinking(self) -> Version | None: ...
    @property
    def handed_back(self) -> tuple[str, Version] | None: ...
    @property
    def version(self) -> Version: ...
    @property
    def unsaved(self) -> str | None: ...
    @property
    def seating(self) -> Seating: ...
    @property
    def way(self) -> Way: ...
    @property
    def mat_hint(self) -> tuple[str, HintGrades] | None: ...
    @property
    def setting_up(self) -> bool: ...
    def mat_turn(self) -> bool: ...
    def table(self) -> tuple[dict[int, str], list[str]]: ...
    def sync_diff(self, occupancy: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]: ...


@dataclass(frozen=True)
class SeatPart:
    """What one seat's view adds to the public view: the referee's view of that seat, its own
    hints, a word for it alone, and whether another phone asks for it."""
    seat: str
    table: RefereeView
    hints: HintsView | None
    notice: str | None = None
    asked: bool = False

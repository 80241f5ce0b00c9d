"""What every referee of one table's half of a game across two tables has (docs/tables.md):
:class:`~.shadow_half.HalfReferee` (Light & Shadow), :class:`~.knowledge_half.KnowledgeHalf`
and :class:`~.simultaneous_half.SimultaneousHalf`.

A half keeps every action as it travels between the tables (``rows``), plays some rows that
no seat's player chooses (a hidden step's public form, an answer about its Ninjas, a chain's
key, a commitment or a reveal: ``table_row``), the table's own at once (``answer``), and
opens at the game's end what it committed to (``openings``; none where every row was checked
as it came)."""

from __future__ import annotations

from typing import Protocol, Sequence, TypeVar

from .actions import Action
from .referee import GameState, Referee


class HalfGameState(GameState, Protocol):
    @property
    def rows(self) -> tuple[tuple[str, str], ...]: ...


H = TypeVar("H", bound=HalfGameState)


class TableHalf(Referee[H]):
    """``here``: this table's seat (its colour index); ``row_kinds``: the types of the rows
    only the tables play."""

    here: int
    row_kinds: tuple[type, ...]

    def answer(self) -> str | None:
        """The row this table owes now and plays at once (its own seat's), else None."""
        raise NotImplementedError

    def table_row(self, text: str) -> Action | None:
        """``text`` as a row only the tables play (never a seat's choice on its phone), or
        None when it is none."""
        raise NotImplementedError

    @property
    def rows(self) -> list[tuple[str, str]]:
        """Every action so far as it travels between the tables: (seat, text)."""
        return list(self._state.rows)

    def openings(self) -> dict[str, tuple[str, str]]:
        """This table's commitments opened at the game's end (action number -> text, salt):
        none by default, every row having been checked as it came."""
        return {}

    def sealed_row(self, text: str) -> bool:
        """Is ``text`` a row played off the mat at once?"""
        return self.table_row(text) is not None

    def legal_actions(self, seat: str) -> Sequence[Action]:
        """A seat's choices on its phone: the rows only the tables play are left out."""
        return [a for a in super().legal_actions(seat) if not isinstance(a, self.row_kinds)]

    def parse(self, seat: str, text: str) -> Action:
        row = self.table_row(text)
        return row if row is not None else super().parse(seat, text)

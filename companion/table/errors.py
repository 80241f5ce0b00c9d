"""The project's own errors, and what the table service refuses, by kind.

Two roots: :class:`~companion.rules.errors.OnitamaError` is bad input to the rules (an illegal
move, an unknown card); :class:`CompanionError` is everything else the project raises on
purpose (the save file, the settings, a trace file, the service's refusals). Either kind
changes nothing and says why (``REFUSALS``). Only the web layer turns them into HTTP statuses
(``companion.web.errors``); the service knows nothing of HTTP.
"""

from __future__ import annotations

from ..rules.errors import OnitamaError


class CompanionError(Exception):
    """The root of the project's errors that are not bad input to the rules."""


# What a refusal is, wherever one is caught: the rules' or the project's own.
REFUSALS: tuple[type[Exception], ...] = (OnitamaError, CompanionError)


class TableError(CompanionError):
    """A request the table refuses; the message says why, for the player."""


class BadRequest(TableError):
    """A request that is malformed, or names something that does not fit (an unknown way)."""


class NotFound(TableError):
    """Something that does not exist here: a seat, a saved game, the simulated hands on a Pi."""


class Forbidden(TableError):
    """A request this caller may not make: an unknown join code, an action without a seat."""


class Conflict(TableError):
    """A request that does not fit the game now: a step already played, no question to answer."""


class Declared(Conflict):
    """The mat would take back (or amend) a move a seat away from it declared (its phone, the
    computer): that move is the seat's, confirmed when it was played, not the mat's to undo."""


class Busy(TableError):
    """The game thread did not answer in time; the request may be sent again."""

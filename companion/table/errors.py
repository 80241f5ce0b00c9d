"""What the table service refuses, by kind. Nothing was changed when one is raised.

They sit under the project's one exception root (:class:`companion.rules.errors.OnitamaError`),
next to the referee's own refusals. Only the web layer turns them into HTTP statuses
(``companion.web.errors``); the service knows nothing of HTTP.
"""

from __future__ import annotations

from ..rules.errors import OnitamaError


class TableError(OnitamaError):
    """A request the table refuses; the message says why, for the player."""


class BadRequest(TableError):
    """A request that is malformed, or names something that does not fit (an unknown variant)."""


class NotFound(TableError):
    """Something that does not exist here: a seat, a saved game, the simulated hands on a Pi."""


class Forbidden(TableError):
    """A request this caller may not make: an unknown join code, an action without a seat."""


class Conflict(TableError):
    """A request that does not fit the game now: a step already played, no question to answer."""


class Busy(TableError):
    """The game thread did not answer in time; the request may be sent again."""

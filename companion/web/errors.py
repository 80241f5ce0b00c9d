"""The one place where the service's refusals become HTTP statuses."""

from __future__ import annotations

from companion.table.errors import BadRequest, Busy, Conflict, Forbidden, NotFound
from companion.table.store import StoreUnavailable

STATUS: tuple[tuple[type[Exception], int], ...] = (
    (BadRequest, 400), (Forbidden, 403), (NotFound, 404), (Conflict, 409), (Busy, 503),
    (StoreUnavailable, 507))    # the save file refused it (a full disk): nothing was played


def status_of(error: Exception) -> int:
    """The HTTP status of a refusal. The referee's own (an illegal move, not this seat's turn)
    and any other rules error are a conflict with the game as it stands: 409."""
    return next((status for kind, status in STATUS if isinstance(error, kind)), 409)

"""What the table may write to its log about a failure: never a hidden square or action.

The log is read on the table's terminal (the simulation prints it there) and goes into the
``report`` zip, so it is public. An exception's message may quote the action that failed (a
Ninja's step, the computer's hidden choice) or the private reason the referee refused it, so
no log line carries one: a refusal is told by its public reason only, anything else by its
kind, and a bug by its kind and where it happened (the traceback's frames, without the
message or any value).
"""

from __future__ import annotations

import logging
import traceback

from ..rules.errors import IllegalActionError
from .saved import StoreError


def public_words(exc: BaseException) -> str:
    """``exc`` as the log may say it."""
    if isinstance(exc, IllegalActionError):
        return f"refused: {exc.public_reason or 'for a reason only its seat may know'}"
    if isinstance(exc, StoreError):
        return str(exc)             # the disk's trouble: it names no move
    return type(exc).__name__


def bug(log: logging.Logger, what: str, exc: BaseException) -> None:
    """A bug, logged with where it happened: its kind and frames, not its message."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("%s failed: %s\n%s", what, type(exc).__name__, frames.rstrip())

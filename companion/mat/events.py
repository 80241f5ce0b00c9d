"""What the recognizer decides, as the trace spec's output objects (docs/traces.md): typed, so
that the service and the trace tool read the same keys the recognizer writes."""

from __future__ import annotations

from typing import TypedDict


class Seat(TypedDict):
    seat: str


class Reply(TypedDict):
    seat: str
    choose: list[str]


class Prompt(TypedDict, total=False):
    """A question: ``seat`` chooses among its cards (``choose``), or the ``takeback`` of the
    move named; under ``reply`` the other seat may answer with its own card; ``buttons``
    says which mat button answers which option (an option without one is answered on the
    phone)."""
    seat: str
    choose: list[str]
    takeback: str
    reply: Reply
    buttons: dict[str, str]   # option -> mat button A, B or C (asking.buttons)


class MatEvent(TypedDict, total=False):
    """One decision of the recognizer; ``t`` is when it was made. Exactly one of the other keys says what (with
    ``amend``/``amended`` marking an amendment's pair, ``ambiguous`` a mismatch's readings,
    ``how`` a win's)."""
    t: float
    move: str
    amended: bool
    takeback: str
    amend: bool
    prompt: Prompt
    prompt_cancelled: Seat
    mismatch: list[str]
    ambiguous: list[str]
    synced: bool
    winner: str
    how: str
    waiting: Seat

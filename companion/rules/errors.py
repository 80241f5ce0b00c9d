"""Exceptions of the rules engine. Each names what was wrong so a user never sees a traceback."""

from typing import Literal


class OnitamaError(ValueError):
    """Base class: bad input to the rules engine."""


class CardError(OnitamaError):
    """An unknown card name, or a card definition that cannot be played."""


class CardFileError(CardError):
    """A custom card file that cannot be loaded; names the card and the problem."""


class PositionError(OnitamaError):
    """A malformed position string. ``field`` names the part that is wrong."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"position {field}: {reason}")
        self.field = field
        self.reason = reason


class NotationError(OnitamaError):
    """Move text that does not follow the notation."""

    def __init__(self, text: str, reason: str):
        super().__init__(f"move {text!r}: {reason}")
        self.text = text
        self.reason = reason


class IllegalMoveError(OnitamaError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, move: str, reason: str):
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class SetupError(OnitamaError):
    """A game set-up that cannot be dealt (unknown set, too few cards, ...)."""


class RecordError(OnitamaError):
    """A game record that cannot be read."""


class VariantError(SetupError):
    """A variant name that is not known, or variants that cannot be combined."""


class RefereeError(OnitamaError):
    """An action the referee cannot accept. Nothing changes when one is raised."""


class GameOverError(RefereeError):
    """An action after the game has ended."""


class NotYourTurnError(RefereeError):
    """A seat acting when the rules do not ask anything of it."""

    def __init__(self, seat: str, waiting_for: tuple[str, ...]):
        who = " and ".join(waiting_for) or "nobody"
        super().__init__(f"{seat} may not act now (waiting for {who})")
        self.seat = seat
        self.waiting_for = waiting_for


class IllegalActionError(RefereeError):
    """A well-formed action that the rules do not allow now; ``reason`` says which rule.

    The reason may rest on a secret of the acting seat (its own hidden Ninja stands there), so
    it is the ``private_reason``, for that seat alone. ``public_reason`` is what the others
    may be told: the same text when the rule is public, or None when even the refusal is
    secret, and to everyone else the seat is still making its move."""

    # public_reason left out (True): the rule is public, and so is the reason.
    def __init__(self, action: str, reason: str, *, public_reason: str | None | Literal[True] = True):
        super().__init__(f"illegal action {action!r}: {reason}")
        self.action = action
        self.reason = reason
        self.public_reason: str | None = reason if public_reason is True else public_reason

    @property
    def private_reason(self) -> str:
        return self.reason

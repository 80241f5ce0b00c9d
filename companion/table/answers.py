"""A phone's answer to the mat's question, checked before the recognizer hears it.

An answer names the turn it is about (``turn``, as the question's view showed it:
docs/recognizer.md, "Answering a prompt"). One for the question open is checked against that
question. One naming another turn was sent as the mat's question changed: it is passed on,
to be kept for its own turn, only if a question raised earlier offered it to this seat for
that turn (a phone sends nothing else); anything else is refused, and changes nothing."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..mat.reaching import reaches
from ..mat.recognizer import Recognizer
from .errors import BadRequest, Conflict
from .session import GameSession


class Answer(NamedTuple):
    rec: Recognizer
    card: str | None
    takeback: bool
    turn: int | None
    kept: bool       # for another turn than the open question's


def checked(game: GameSession, seat: str, request: dict[str, Any]) -> Answer:
    card, takeback, turn = request.get("card"), request.get("takeback") is True, request.get("turn")
    if not takeback and not isinstance(card, str):
        raise BadRequest("an answer names a card, or is {\"takeback\": true}")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or turn < 1):
        raise BadRequest("'turn' is the number of the turn the answer is about, as the question showed it")
    rec = game.recognizer
    if turn is not None and rec is not None and turn != rec.turn_of(seat, card, takeback=takeback):
        if not reaches(rec, turn, seat, card, takeback=takeback):
            raise Conflict("this question is no longer asked: look again")
        return Answer(rec, card, takeback, turn, True)
    prompt, rec = game.question_for(seat)
    if takeback and "takeback" not in prompt:
        raise BadRequest("this question offers no takeback")
    if not takeback and card not in prompt["choose"]:
        raise BadRequest(f"choose one of {', '.join(prompt['choose'])}")
    return Answer(rec, card, takeback, turn, False)

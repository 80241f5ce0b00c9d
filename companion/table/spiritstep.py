"""A turn a Wind Spirit card could still go on from (issue 23): the pawn step just made is a
regular card's whole turn, read and played as that card's, and also the first step of a Wind
Spirit card its mover may still go on with (the mat then amends the turn). Until the
opponent starts, the table does not say the turn is over: the OLED, the table and /sim pages
and both phones (``headlines``, from the view's ``mat.spirit``) say the Spirit step may
follow, in the same words."""

from __future__ import annotations

from ..mat import oled
from ..mat.scene import Feedback
from .publicgame import PublicGame
from .viewtypes import Said, SpiritView


def spirit_step(game: PublicGame) -> SpiritView | None:
    """The last move's mover and the Wind Spirit cards whose Spirit step may still follow
    (the recognizer's ``spirit_may_follow``), said wherever the OLED says it: while the seat
    to act is at the mat (else the OLED says what the seat away is doing). Not for a move
    made for a seat away (the computer, a phone): it was the whole move asked for."""
    rec = game.recognizer
    spirit = rec.spirit_may_follow if rec is not None else None
    away = game.seating.away
    if spirit is None or spirit[0] in away or any(seat in away for seat in game.referee.to_act()):
        return None
    return {"seat": spirit[0], "cards": list(spirit[1])}


def spirit_lines(game: PublicGame, feedback: Feedback) -> oled.Lines | None:
    """The OLED's lines in place of the recognizer's plain ``Blue to move`` (not over a
    question, a mat out of step, an announcement or a turn half made)."""
    rec = game.recognizer
    spirit = spirit_step(game) if rec is not None and rec.prompt is None and not game.wrong else None
    if spirit is None or feedback.pairs or not feedback.oled[0].endswith(" to move"):
        return None
    return oled.spirit_step_lines(spirit["seat"], spirit["cards"], tuple(feedback.oled))


def spirit_instruction(game: PublicGame, said: Said) -> Said:
    """The table and /sim pages' instruction (``said``: whose turn, at the mat), with the
    OLED's words first while the Spirit step may follow."""
    spirit = spirit_step(game)
    return said if spirit is None else waiting_on_spirit(spirit, said["detail"])


def waiting_on_spirit(spirit: SpiritView, then: str) -> Said:
    """What everyone but the mover is told: the Spirit step may still come, ``then`` (what
    follows if it does not)."""
    mover, cards = spirit["seat"].title(), " or ".join(spirit["cards"])
    return {"title": f"{mover}: Spirit step?",
            "detail": f"{mover} may still move the Spirit ({cards}); if not, {then}"}

"""Who must do what next, in words: the one home of the instructions the table gives about a
move made on the mat for someone who is not at it (the computer, or a player on a phone away
from the table), and of the pages' status lines (whose turn and what they do, a new phone's
question). The OLED's own texts are in ``outputs.py``; the phones' headlines in
``headlines.py`` take the sentence from here.

The OLED, the table and simulation pages and every phone say the same sentence, cut
differently: ``Make Blue's move for the computer: Ox, b4 to b3, takes a student``. Moves are
in players' words (``companion.rules.describe``), with "to" where the move lists draw an arrow:
the OLED's font has no arrow, and one sentence must read the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..rules.describe import ARROW, turn_words
from .computer import Expected
from .viewtypes import Said


def move_words(seat: str, text: str, position: str) -> str:
    """``Ox, b4 to b3, takes a student``: the move ``text`` (notation) that ``seat`` makes from
    the public ``position``, in players' words, without the seat's name."""
    return said(turn_words(seat, text, position))


def said(words: str) -> str:
    """A move list's words (``Red: Ox, b4 → b3``) as the screens say them: ``Ox, b4 to b3``."""
    return words.split(": ", 1)[-1].replace(f" {ARROW} ", " to ")


@dataclass(frozen=True)
class ExpectedWords:
    """A move the mat waits for, said for the people at the table."""
    seat: str           # whose move it is
    by: str             # "computer" or "remote"
    move: str           # the move in words

    @property
    def head(self) -> str:
        return f"Make {self.seat.title()}'s move"

    @property
    def whom(self) -> str:
        if self.by == "table":
            return "from the other table"
        return "for the computer" if self.by == "computer" else f"from {self.seat.title()}'s phone"

    @property
    def sentence(self) -> str:
        """``Make Blue's move for the computer: Ox, b4 to b3``."""
        return f"{self.head} {self.whom}: {self.move}"

    # How the mat shows it (docs/recognizer.md, the table's LED rows).
    LIGHTS = ("The pawn to lift breathes in its colour; where it goes blinks "
              "(amber: a capture, take that pawn off).")

    def for_seat(self, seat: str) -> Said:
        """A phone's headline: the seat whose move it is was away from the table; anyone
        else's phone is at the table, where the move is made."""
        if seat == self.seat and self.by == "remote":
            return {"title": "Your move is on the mat",
                    "detail": f"Someone at the table makes it for you: {self.move}. "
                              "Until then you may send another move."}
        return {"title": self.head, "detail": f"{self.whom[0].upper()}{self.whom[1:]}: "
                                              f"{self.move}. {self.LIGHTS}"}

    def public(self) -> Said:
        """The table page's and the simulation page's two status lines."""
        return {"title": self.head, "detail": f"{self.whom[0].upper()}{self.whom[1:]}: "
                                              f"{self.move}. {self.LIGHTS}"}


def expected_words(expected: Expected, position: str) -> ExpectedWords:
    """The words for a :class:`~.computer.Expected` move (``seat``, ``by``, ``text``)."""
    return ExpectedWords(expected.seat, expected.by, move_words(expected.seat, expected.text, position))


# -- the table and simulation pages' status lines -----------------------------------------

PHONE_STEPS = {"setup": "hides their Ninja", "ninja": "moves their Ninja or skips",
               "lantern": "lights a Lantern or skips", "commit": "chooses their move",
               "take": "takes a card"}


def turn_instruction(to_act: Iterable[str], at_mat: bool, phase: str, *,
                     computer: Mapping[str, str], remote: Iterable[str],
                     table: Iterable[str] = ()) -> Said:
    """Whose turn and what they do, for the table and simulation pages: the OLED's words
    (``Red to move``, the recognizer's), then the step in full."""
    seats = list(to_act)
    who = "Both" if len(seats) > 1 else " and ".join(s.title() for s in seats) or "Nobody"
    seat = seats[0] if len(seats) == 1 else None
    if seat is not None and seat in computer:
        return {"title": "Computer thinking", "detail": f"The computer is choosing {who}'s move: "
                                                         "then make it on the mat."}
    if seat is not None and seat in set(table):
        return {"title": f"{who} to move", "detail": f"{who} plays at the other table: then "
                                                      "make their move on this mat."}
    if at_mat and seat is not None and seat in set(remote):
        return {"title": f"{who} to move", "detail": f"{who} is choosing on their phone: then "
                                                      "make their move on the mat."}
    if at_mat:
        return {"title": f"{who} to move", "detail": f"{who} makes a move on the mat."}
    step = PHONE_STEPS.get(phase, "plays")
    return {"title": f"{who} to play", "detail": f"{who} {step}, on their phone."}


def takeover_instruction(seat: str) -> Said:
    """The same question on the table and simulation pages."""
    return {"title": f"A new phone asks for the {seat.title()} seat",
            "detail": "On the companion: A lets it take the seat, B refuses."}

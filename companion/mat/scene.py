"""What the mat shows: the lights per square and the OLED's lines (``Feedback``), and the pure
functions that render the out-of-sync mat, a question and the end of the game (their words,
and play's, are :mod:`companion.mat.oled`'s)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..rules.position import COLORS, Position
from ..rules.squares import square_name
from . import oled
from .pairing import pair_up
from .pieces import PIECES

# Lifted pawn: destinations coloured by the card reaching them (hand order), both = BOTH.
CARD_COLOURS = ("cyan", "magenta")
BOTH_COLOUR = "white"

Pairs = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Light:
    colour: str   # a colour name (matfeedback.py turns it into RGB)
    effect: str   # "steady", "flash" (once), "blink-slow", "blink-fast", "pulse"


@dataclass(frozen=True)
class Feedback:
    """What the mat should show now: lights per square, misplaced pawns paired with the
    square each belongs on (from, to), and the OLED's lines. ``stray``: out of sync by one
    pawn moved where no turn allows, the square it left and the one it stands on (the table
    says which rule that breaks)."""
    scene: Mapping[int, Light]
    pairs: Pairs
    oled: tuple[str, ...]
    stray: tuple[int, int] | None = None


def misplaced(mismatch: frozenset[int], occ: frozenset[int],
              base: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
    """The mat out of sync: the pawns standing where none belongs, and the squares missing
    theirs."""
    extra, missing = occ - base, base - occ
    if mismatch <= extra and not mismatch & base:
        # Pawns too many on a turn the mat shows: take them off, nothing else.
        return mismatch, frozenset()
    return extra, missing


def stray_step(mismatch: frozenset[int], occ: frozenset[int],
               base: frozenset[int]) -> tuple[int, int] | None:
    """The one pawn a mat out of sync shows moved, (from, to): one square left empty and one
    filled. Anything more (two pawns, a pawn too many or missing) has no single step to
    explain, and a presence mat cannot tell a pawn set onto another from one in the hand."""
    extra, missing = misplaced(mismatch, occ, base)
    if len(extra) == 1 and len(missing) == 1:
        return next(iter(missing)), next(iter(extra))
    return None


def mismatch_view(mismatch: frozenset[int], occ: frozenset[int],
                  base: frozenset[int]) -> tuple[dict[int, Light], Pairs, tuple[str, ...]]:
    """The mat out of sync: the wrong squares blink red, each misplaced pawn paired with the
    square it belongs on, and the OLED says what to do first."""
    extra, missing = misplaced(mismatch, occ, base)
    scene = {sq: Light("red", "blink-fast") for sq in extra | missing or mismatch}
    pairs = pair_up(extra, missing)
    hint = oled.out_of_sync_hint((square_name(pairs[0][0]), square_name(pairs[0][1])) if pairs else None,
                                 square_name(min(extra)) if extra and not missing else None)
    return scene, pairs, oled.out_of_sync_lines(hint)


def prompt_view(prompt: Mapping[str, Any], touched: Iterable[int],
                must_pass: bool) -> tuple[dict[int, Light], tuple[str, ...]]:
    """A question waiting: the squares of the moves it asks about blink white, and the OLED
    names the buttons."""
    scene = {sq: Light("white", "blink-slow") for sq in touched}
    return scene, oled.question_lines(prompt, must_pass)


def outcome_view(winner: str, how: str, pos: Position) -> tuple[dict[int, Light], tuple[str, ...]]:
    """The game is over: the winning master pulses in its colour."""
    master = pos.master(COLORS.index(winner))
    scene = {master: Light(winner, "pulse")} if master >= 0 else {}
    return scene, oled.outcome_lines(winner, how)


# Play going on, as the recognizer names it (the words are the OLED module's).
play_oled = oled.play_lines


def lifting_own(pos: Position, lifted: frozenset[int]) -> bool:
    """Is the player to move lifting a pawn of theirs?"""
    return any(pos.piece_at(sq) in PIECES[pos.turn] for sq in lifted)

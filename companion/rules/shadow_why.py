"""Why a Light & Shadow action is refused, in words a player understands: the reasons of
:class:`companion.rules.shadow.ShadowReferee`, kept apart from the turns it runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, Lantern, NinjaMove, Place, Strike, action_text
from .moves import Move
from .position import COLORS
from .shadow_state import LIGHT, SHADOW, ShadowState, bits
from .squares import square_name

if TYPE_CHECKING:
    from .shadow import ShadowReferee


def why_not(ref: ShadowReferee, st: ShadowState, seat: str, action: Action) -> str | tuple[str, None]:
    """The reason ``seat`` may not play ``action`` now; a pair ``(reason, None)`` is a reason
    only the seat may hear (the others are told nothing)."""
    c = COLORS.index(seat)
    phase = st.phase
    if isinstance(action, Place):
        if phase != "setup":
            return "the Ninjas were placed at set-up"
        where = ", ".join(action_text(p) for p in ref.placements(c))
        return f"{seat} places {'its Ninja' if ref.mode == SHADOW else 'both Ninjas'}: {where}"
    if phase == "setup":
        return f"{seat} must place {'its Ninja' if ref.mode == SHADOW else 'its Ninjas'} first"
    if isinstance(action, Move):
        return _why_move(ref, st, c, action)
    if isinstance(action, (NinjaMove, Strike)):
        return _why_ninja(ref, st, c, action)
    if isinstance(action, Lantern):
        if phase != "lantern":
            return "a Lantern is used at the end of the turn, after the card exchange"
        return "not a line of the board"
    if phase == "move":
        return "the main-board move is mandatory (pass only when nothing can move)"
    return "not allowed now"


def _why_move(ref: ShadowReferee, st: ShadowState, c: int, move: Move) -> str | tuple[str, None]:
    seat = COLORS[c]
    if st.phase != "move":
        return f"the main-board move is made; now the {st.phase} step"
    if not ref.has_pawns(c):
        return "the Shadow Master has no pawns: move a Ninja (e.g. 'Tiger Nb5b4')"
    if move.card not in st.pos.hands[c]:
        return f"{move.card} is not in {seat}'s hand"
    if move.is_pass:
        return f"{seat} has a legal move on the main board and must make it"
    if move.to_sq in st.ninjas[c]:
        # Only the mover knows its Ninja is there: the others are told nothing, and to
        # them the move is still being made.
        return f"{seat}'s own Ninja stands on {square_name(move.to_sq)}", None
    if move.from_sq is not None and not st.pos.pawns(c) >> move.from_sq & 1:
        return f"{seat} has no pawn on {square_name(move.from_sq)}"
    return f"{move.card} does not take that pawn there (or {seat}'s own pawn is there)"


def _why_ninja(ref: ShadowReferee, st: ShadowState, c: int, step: NinjaMove | Strike) -> str:
    seat, phase = COLORS[c], st.phase
    if ref.mode == LIGHT and c == ref.light:
        return "the Light Master has no Ninja"
    if phase == "move" and ref.has_pawns(c):
        return "the Ninja steps after the main-board move (or after a pass)"
    if phase == "lantern":
        return "the Ninja steps before the card exchange; this is the Lantern step"
    if not st.ninjas[c]:
        return f"{seat} has no Ninja left"
    if phase == "ninja" and step.card != st.card:
        return f"the Ninja moves with this turn's card, {st.card}"
    if step.card not in st.pos.hands[c]:
        return f"{step.card} is not in {seat}'s hand"
    if isinstance(step, Strike) and ref.mode == LIGHT:
        return "in Way of the Light there is no enemy Ninja to strike at"
    if step.frm not in st.ninjas[c]:
        return f"{seat} has no Ninja on {square_name(step.frm)}"
    if isinstance(step, Strike):
        if not st.ninjas[1 - c]:
            return f"{COLORS[1 - c]} has no Ninja left to strike at"
        if st.pos.pawns(1 - c) >> step.to & 1:
            return (f"a strike lands on a square without pawns; to capture the pawn on "
                    f"{square_name(step.to)}, step there (N{square_name(step.frm)}"
                    f"{square_name(step.to)})")
    if (st.pos.pawns(c) | bits(st.ninjas[c])) >> step.to & 1:
        return f"{square_name(step.to)} holds {seat}'s own piece"
    return f"{step.card} does not move a Ninja from {square_name(step.frm)} to {square_name(step.to)}"

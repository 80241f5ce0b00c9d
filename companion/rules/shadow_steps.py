"""The steps of a Light & Shadow turn that do not depend on who knows the Ninjas: the card
exchange, a pawn taken by a Ninja, the end of a turn, the winner. Both referees take them:
:class:`~.shadow.ShadowReferee` (both seats' Ninjas) and :class:`~.shadow_half.HalfReferee`
(one table's half), each on its own state."""

from __future__ import annotations

from dataclasses import replace

from .position import BLUE, COLORS, NO_SQUARE, RED, TEMPLE, Position
from .referee import Event, Result, Turn
from .results import result_sentence
from .shadow_state import set_pair
from .squares import square_name


def pass_card(pos: Position, c: int, card: str) -> Position:
    """The card ``c`` played goes beside the mat and the side card joins ``c``'s hand."""
    hand = tuple(pos.side[0] if h == card else h for h in pos.hands[c])
    return replace(pos, hands=set_pair(pos.hands, c, hand), side=(card,))


def lantern_due(lanterns: tuple[int, int], ply: int, ninja_count: int, lost: tuple[int, int],
                c: int) -> bool:
    """Does ``c``'s Lantern step come, public facts allowing: a Lantern left, not the game's
    first turn, an enemy Ninja left to find (how many live is public)?"""
    return bool(lanterns[c]) and ply > 0 and ninja_count > lost[1 - c]


def ninja_takes(pos: Position, c: int, t: int, events: list[Event]) -> Position:
    """``c``'s Ninja takes the enemy pawn on ``t``: the board without it, said in public."""
    e = 1 - c
    victim = "master" if t == pos.master(e) else "student"
    red, blue = (pos.red, pos.blue & ~(1 << t)) if e == BLUE else (pos.red & ~(1 << t), pos.blue)
    master = victim == "master"
    events.append(Event("ninja_capture", f"{COLORS[c]}'s Ninja captured {COLORS[e]}'s {victim} "
                        f"on {square_name(t)}", public=True,
                        data={"by": COLORS[c], "square": square_name(t), "captured": victim}))
    return replace(pos, red=red, blue=blue,
                   red_master=NO_SQUARE if master and e == RED else pos.red_master,
                   blue_master=NO_SQUARE if master and e == BLUE else pos.blue_master)


def close_turn(mover: int, full: tuple[str, ...], public: tuple[str, ...],
               result: Result | None, events: list[Event]) -> Turn:
    """The turn ``mover`` made, for the log, said in public (and the game's end, if won)."""
    turn = Turn(COLORS[mover], " ".join(full), " ".join(public))
    events.append(Event("turn", turn.public, public=True, data={"by": turn.seat}))
    if result is not None:
        events.append(Event("game_over", result_sentence(result), public=True, data=result.as_dict()))
    return turn


def winner(pos: Position, light: int | None, shadow_out: bool) -> Result | None:
    """Who has won: as the base game in the Way of the Shadow; in the Way of the Light, the
    Stone (the Light Master taken), the Stream (it reached the Shadow's temple), or the
    Shadow's Ninjas all gone (``shadow_out``, once they were placed)."""
    if light is None:
        won = pos.winner()
        return None if won is None else Result(COLORS[won[0]], won[1])
    shadow = 1 - light
    if pos.master(light) == NO_SQUARE:
        return Result(COLORS[shadow], "stone")
    if pos.master(light) == TEMPLE[shadow]:
        return Result(COLORS[light], "stream")
    if shadow_out:
        return Result(COLORS[light], "ninjas")
    return None

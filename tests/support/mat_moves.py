"""Hands that make a given move on the simulated mat, and lay out the game's position: the
computer's tests (tests/table/computer_helpers.py) and the two tables' (tests/link)."""

from __future__ import annotations

import time

from companion.rules.moves import Move
from companion.rules.position import board_pieces
from companion.rules.squares import parse_square

LIFTED_S = 0.12        # longer than the recognizer's 0.08 s: a capture's square seen empty


def pieces_after(pieces: dict[int, str], move: Move) -> dict[int, str]:
    """The mat's pieces after ``move``: a pawn's step (capturing), a Spirit's (swapping)."""
    out = dict(pieces)
    for a, b in ((move.from_sq, move.to_sq), (move.spirit_from, move.spirit_to)):
        if a is None or b is None:
            continue
        if out.get(a) == "W" and b in out:
            out[a], out[b] = out[b], out[a]
        else:
            out[b] = out.pop(a)
    return out


def make_on_mat(hw, position: str, move: Move, lifted: float = LIFTED_S) -> None:
    """Hands make ``move`` on the mat: lift every piece it touches, then put them down
    ``lifted`` seconds later."""
    before = board_pieces(position)
    after = pieces_after(before, move)
    touched = {sq for sq in (move.from_sq, move.to_sq, move.spirit_from, move.spirit_to)
               if sq is not None}
    up = [sq for sq in touched if sq in before]
    if up:
        hw.sim.lift(*up)
    time.sleep(lifted)
    down = [sq for sq in touched if sq in after]
    if down:
        hw.sim.place(*down)


def set_up(companion, hw) -> None:
    """Hands follow the lights: the mat shows the game's position."""
    hw.sim.set_pawns(frozenset(board_pieces(companion.view(None)["table"]["position"])))


def twin_step(companion, script: list[dict] | None, turn: int) -> tuple[str, dict]:
    """The twin-world secrecy tests' next main-board move (tests/table/test_secrets.py and
    tests/web/phones/test_phone_secrets.py): (the seat to move, its legal action), the
    script's for turn ``turn``, else the mover's first move in text order."""
    mover = companion.view(None)["table"]["turn"]
    if script is not None:
        return mover, script[turn]
    legal = companion.view(mover)["table"]["legal"]
    return mover, sorted((a for a in legal if a["kind"] == "move"), key=lambda a: a["text"])[0]


def step_on_mat(sim, action: dict, held: float) -> None:
    """Hands make a legal action's step (its ``from`` and ``to``) on the mat: a captured pawn
    first, held off ``held`` seconds so that its square is seen empty, then the moving one."""
    frm, to = parse_square(action["from"]), parse_square(action["to"])
    if to in sim.pawns:
        sim.lift(to)
        time.sleep(held)
    sim.lift(frm)
    sim.place(to)

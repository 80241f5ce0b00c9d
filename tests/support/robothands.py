"""The table robot's hands (tests/robot/table_robot.py ``hands``) as a category of the trace
generator (``robot``): the hands that failed four of 84 Way of the Wind games on the
hypothesis recognizer, when the generator's hands failed none of them.

What they do that the other categories never do:
- the mat is read with the robot's settle time (0.06 s, the trace's header): a rest of a
  tenth of a second between two steps of one turn publishes the first;
- a Wind Spirit card's Spirit is lifted in the instant its pawn step lands (one scan sees
  both), and now and then put back on its square for 0.12 s before it goes (a hesitation);
- a Wind Spirit card whose Spirit swaps with the pawn just moved: the pawn is carried
  straight to the Spirit's square, never seen on the square of its step;
- a swap's two pieces put down in the same instant; a captured pawn lifted first or with the
  captor; a piece held 0.18 s, put back and lifted again, or held a little longer.
"""

from __future__ import annotations

from companion.rules.moves import Move

ROBOT_SETTLE = 0.06       # the recognizer's settle time in the robot's worlds
HOLD = (0.18, 0.22)       # a lifted piece held off (CLEAR_S + 0.1, and the request's time)
PAUSE = (0.12, 0.13)      # the robot's hesitation and held-in-the-air pause (settle x 2)
SEEN = (0.035, 0.045)     # a lift seen by the mat (the table robot waits for it: scan, debounce)


def robot_turn(game, move: Move, afters: dict) -> Move | None:
    """``move`` made on the mat the robot's way, step by step in the move's order. Returns the
    turn the mat rested on before the Wind Spirit card's Spirit went (its pawn step alone, when
    the Spirit was put back for a while), if any: as with any player's long pause there."""
    hands = game.hands
    pos = game.board.position
    f, t = move.from_sq, move.to_sq
    sf, st = (move.spirit_from, move.spirit_to) if move.wind_card else (None, None)
    if f is not None and t is not None and sf is not None and st == t:
        # The Spirit's step swaps with the pawn just moved: the pawn goes straight to the
        # Spirit's square, the Spirit to the pawn's step's (a captured pawn off first).
        if t in hands.occupied:
            hands.lift(t)
            hands.wait(HOLD)
        hands.lift(f)
        hands.lift(sf)
        hands.wait(HOLD)
        hands.place(sf)
        hands.place(t)
        return None
    if f is not None and t is not None:
        _step(game, f, t, spirit=not move.wind_card and f == pos.spirit)
    if sf is not None and st is not None:
        # At once: lifted as the pawn lands. Put back for a while, the mat rests on the pawn's
        # step alone, which may be a turn of its own: the Spirit's step is then the mover's or
        # the next player's, a question the players at the table answer.
        if _step(game, sf, st, spirit=True) and f is not None:
            return game.rested_on_pawn_step(move, afters)
    return None


def _step(game, frm: int, to: int, spirit: bool) -> bool:
    """One piece's step; returns whether it was put back and lifted again (a hesitation: the
    mat rests meanwhile)."""
    hands, rng = game.hands, game.rng
    r = rng.random()
    if to in hands.occupied:
        first, second = (frm, to) if r < 0.5 else (to, frm)
        if spirit:
            # A swap: both in the hand, both put down in the same instant.
            hands.lift(first)
            hands.lift(second)
            hands.wait(HOLD)
            hands.place(second)
            hands.place(first)
            return False
        # As the table robot's hands do (tests/robot/table_robot.py ``hands``): the captured
        # pawn off first, seen gone, then the captor; or the captor, then the captured pawn
        # once the mat has seen the captor's square empty (the robot's ``lift`` waits for that:
        # a scan and the debounce, about 40 ms; base computer 151: b4 off, a5 off 40 ms later).
        first, second = (to, frm) if r < 0.5 else (frm, to)
        hands.lift(first)
        hands.wait(HOLD if r < 0.5 else SEEN)
        hands.lift(second)
        hands.wait(HOLD)
        hands.place(to)
        return False
    hands.lift(frm)
    if r < 0.15 or frm == getattr(game, "hesitant", None):
        # A hesitation: put back, a rest, then the move (robot-hesitation's chosen pawn too).
        hands.wait(HOLD)
        hands.place(frm)
        hands.wait(PAUSE)
        hands.lift(frm)
    elif r < 0.25:
        hands.wait(PAUSE)   # held in the air a while
    hands.wait(HOLD)
    hands.place(to)
    return r < 0.15

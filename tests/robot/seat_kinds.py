"""Who sits in each seat of the table robot's games, and how each kind of seat plays its turn.

- ``AtMat``: a player at the table with a phone (the robot's first kind): main-board moves by
  hand on the mat, the rest on the phone; now and then a hint, asked on the phone or by
  holding A at the mat.
- ``Remote``: a player away from the table: every step on the phone, the main-board move too,
  which the table shows on the mat for the robot's hands (someone at the table) to make.
- ``Computer``: the computer. The robot's hands make the move the table shows, now and then a
  wrong one first (it is not played: the table guides it back, and shows its move again).

A seating (``SEATINGS``) says which kind sits where: both at the mat, one remote, or one
played by the computer. The seat whose secrets differ in a twin world is a person's.
"""

from __future__ import annotations

from companion.table import outputs

MAT = "mat"
SEATINGS = {MAT: None, "remote": "remote", "computer": "computer"}
COMPUTER_STEP_S = 30.0      # the computer thinks a few hundred nodes; a loaded machine is slow
HINT_P = 0.2                # how often a player at the mat asks for a hint before a mat move
WRONG_P = 0.25              # how often the hands first make another move than the computer's


class AtMat:
    kind = MAT

    def act(self, robot, seat: str) -> None:
        robot.act_at_mat(seat)


class Remote(AtMat):
    kind = "remote"

    def act(self, robot, seat: str) -> None:
        robot.act_at_mat(seat, from_afar=True)


class Computer(AtMat):
    kind = "computer"

    def act(self, robot, seat: str) -> None:
        robot.computer_turn(seat)


KINDS = {MAT: AtMat, "remote": Remote, "computer": Computer}


def seating_request(seating: str, seat: str) -> dict:
    """The new-game fields that sit ``seat`` as ``seating`` says."""
    if seating == "remote":
        return {"remote": [seat]}
    if seating == "computer":
        return {"computer": {seat: "easy"}}
    return {}


def hint_on_mat(scene) -> bool:
    """Whether the LED animator's scene (``Display._scene``: (square, cue) pairs) shows a
    hint's grades: steady squares in the grades' colours."""
    return any(cue.kind == "steady" and cue.urgency == "normal"
               and cue.rgb in outputs.HINT_COLOURS.values() for _, cue in scene or ())

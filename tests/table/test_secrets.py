"""The secret-keeping property, end to end through the service: the same scripted Way of the
Shadow game played twice, once with Ninja steps and once declining them where the rules
allow both. Everything the opponent's seat and the public receive (views, the stream of
updates, the OLED, the LEDs) must be identical."""

from contextlib import ExitStack

from companion.rules.squares import parse_square

from mat_moves import step_on_mat, twin_step
from service_helpers import wait_for
from sim_table import sim_companion
from test_shadow_table import SHADOW_START

TURNS = 8


def play(tmp_path, name, script=None):
    """Play TURNS turns. Without ``script``, Red's Ninja never moves and the main-board moves
    played are returned; with it, the same main-board moves are played and Red's Ninja steps
    (to squares the script never lands on, so no pawn can meet it) whenever it may."""
    stack = ExitStack()
    table = stack.enter_context(sim_companion(tmp_path / f"{name}.db", public_url=None))
    companion, hw = table.companion, table.hardware
    streams = {seat: companion.subscribe(seat) for seat in (None, "blue")}
    received = {seat: [] for seat in streams}
    seen, moves, red_ninjas = [], [], []
    avoid = {parse_square(m["to"]) for m in script or ()}

    def observe():
        # What the public and Blue can know: their views and the stream messages, the OLED
        # and the LEDs (the red seat's own view is allowed to differ).
        for seat, stream in streams.items():
            while (update := stream.get(0.05)) is not None:
                received[seat].append(update)
        # The LEDs as the animator's scene: a pulsing square (the winner's master at the end)
        # is drawn from it with a phase that depends only on the clock.
        seen.append((companion.view(None), companion.view("blue"),
                     tuple(companion.view(None)["oled"]), repr(companion._display._scene)))
        red_ninjas.append(companion.view("red")["table"]["own_ninjas"])

    try:
        companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 11})
        hw.sim.set_pawns(SHADOW_START)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        companion.submit("red", {"type": "action", "text": "Nb1"})
        companion.submit("blue", {"type": "action", "text": "Nd5"})
        observe()
        for turn in range(TURNS):
            mover, step = twin_step(companion, script, turn)
            moves.append(step)
            step_on_mat(hw.sim, step, 0.12)

            def moved():
                view = companion.view(None)
                prompt = view["mat"]["prompt"]
                if prompt is not None:
                    companion.submit(prompt["seat"], {"type": "answer", "card": step["card"]})
                return (view["table"]["phase"] != "move" or view["table"]["turn"] != mover
                        or view["game"]["status"] == "finished")
            wait_for(moved)
            observe()
            if companion.view(None)["table"]["phase"] == "ninja":
                options = companion.view(mover)["table"]["legal"]
                steps = sorted(a["text"] for a in options if a["kind"] == "ninja"
                               and parse_square(a["to"]) not in hw.sim.pawns | avoid)
                secret = script is not None and mover == "red" and steps
                companion.submit(mover, {"type": "action", "text": steps[0] if secret else "skip"})
                observe()
            if companion.view(None)["table"]["phase"] == "lantern":
                companion.submit(mover, {"type": "action", "text": "skip"})
                observe()
            if wait_for(lambda: companion.view(None)["game"]["status"] in ("playing", "finished")) \
                    and companion.view(None)["game"]["status"] == "finished":
                break
    finally:
        for stream in streams.values():
            stream.close()
        stack.close()
    return seen, received, red_ninjas, moves


def test_the_opponent_and_the_public_cannot_tell_whether_a_ninja_moved(tmp_path):
    quiet, quiet_stream, quiet_ninjas, script = play(tmp_path, "quiet")
    moving, moving_stream, moving_ninjas, _ = play(tmp_path, "moving", script)
    assert quiet_ninjas != moving_ninjas            # Red's Ninja did move in one game only
    assert len(quiet) == len(moving)
    for step, (a, b) in enumerate(zip(quiet, moving)):
        assert a == b, f"step {step}: what the opponent or the public saw differs"
    assert quiet_stream == moving_stream            # the same messages, in the same order

"""Hands for the computer's tests: a person at the simulated mat who makes the moves the
table asks for, and a scripted human who plays the other seat at random."""

from __future__ import annotations

import random
import time

from companion.rules.actions import parse_action
from companion.rules.moves import Move
from companion.rules.position import board_pieces
from companion.rules.ways import WAYS

from waiting import wait_for

from mat_moves import LIFTED_S, make_on_mat, pieces_after, set_up  # noqa: F401  (tests import them from here)


def progress(companion) -> tuple:
    v = companion.view(None)
    return (len(v["table"]["log"]), v["table"].get("phase"), tuple(v["table"]["to_act"]),
            v["game"]["status"], v["game"]["expected"] is not None)


def play_game(companion, hw, human: str, rng: random.Random, max_steps: int = 400) -> tuple[dict, int]:
    """Play until the game ends: the human's moves at random (on the mat when the mat reads
    them, else on its phone), the computer's moves made on the mat as the table shows them.
    Returns the result and how many of the computer's moves were made on the mat."""
    shown = 0
    for _ in range(max_steps):
        view = companion.view(None)
        table, game = view["table"], view["game"]
        if table["result"] is not None:
            return table["result"], shown
        before = progress(companion)
        if game["status"] == "sync":
            set_up(companion, hw)
        elif view["mat"]["prompt"] is not None:
            prompt = view["mat"]["prompt"]
            companion.submit(prompt["seat"], {"type": "answer", "card": rng.choice(prompt["choose"])})
        elif game["expected"] is not None:
            expected = game["expected"]
            move = parse_action(expected["text"])
            assert isinstance(move, Move)
            make_on_mat(hw, table["position"], move)
            shown += 1
        elif human in table["to_act"]:
            mine = companion.view(human)["table"]
            action = rng.choice(mine["legal"])
            if view["mat"]["state"] == "ok" and action.get("kind") == "move" and _on_mat(companion, human):
                make_on_mat(hw, table["position"], parse_action(action["text"]))
            else:
                companion.submit(human, {"type": "action", "text": action["text"]})
        wait_for(lambda: progress(companion) != before or companion.view(None)["mat"]["prompt"],
                 timeout=20, message=lambda: f"stuck at {companion.view(None)}")
    raise AssertionError("the game did not end")


def _on_mat(companion, seat: str) -> bool:
    """The mat reads this seat's move now (its pawns are on the mat, the game is playing)."""
    view = companion.view(None)
    if not WAYS[view["game"]["variant"]].mat_reads_moves:
        return False
    return view["game"]["status"] == "playing" and view["mat"]["state"] == "ok" and any(
        p in ("Rr" if seat == "red" else "Bb") for p in board_pieces(view["table"]["position"]).values())

"""A scripted table for the crash test: runs the companion on simulated hardware with the
save folder given, puts the pawns where the game says (set-up or after a restart), then
plays moves with simulated hands. Prints ``LOG <moves joined by |>`` each time the service
reports a new confirmed move, so the test knows what was committed before it kills us."""

import sys
import time
from pathlib import Path

# Run as a script: the helpers shared by the test folders are in tests/support.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))

from companion.rules.board import Board
from companion.table.service import Companion
from companion.table.store import GameStore
from firmware.hardware import make_hardware

from service_helpers import wait_for as wait


def main(state: str, seed: int) -> None:
    hw = make_hardware("sim")
    store = GameStore(f"{state}/games.db")
    companion = Companion(hw, store, settle=0.3)
    companion.start()
    sim = hw.sim
    view = companion.view(None)
    if view["game"] is None:
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": seed})
        view = companion.view(None)
    print("LOG " + "|".join(view["table"]["log"]), flush=True)
    board = Board(view["table"]["position"])
    # Set-up, or putting the pawns back after the restart: the new mat starts empty.
    sim.set_pawns(board.position.occupied())
    wait(lambda: companion.view(None)["game"]["status"] == "playing")
    while True:
        view = companion.view(None)
        if view["game"]["status"] == "finished":
            print("DONE", flush=True)
            return
        board = Board(view["table"]["position"])
        moves = sorted(board.legal_moves, key=str)
        move = moves[(seed + len(view["table"]["log"])) % len(moves)]
        before = len(view["table"]["log"])
        if move.is_pass:
            pass
        else:
            if move.to_sq in sim.pawns:          # a capture: the captured pawn leaves first
                sim.lift(move.to_sq)
                time.sleep(0.05)
            sim.lift(move.from_sq)
            time.sleep(0.05)
            sim.place(move.to_sq)

        def progressed():
            v = companion.view(None)
            prompt = v["mat"]["prompt"]
            if prompt is not None:
                card = move.card if move.card in prompt["choose"] else prompt["choose"][0]
                companion.submit(prompt["seat"], {"type": "answer", "card": card})
            return len(v["table"]["log"]) > before or v["game"]["status"] == "finished"
        wait(progressed)
        print("LOG " + "|".join(companion.view(None)["table"]["log"]), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

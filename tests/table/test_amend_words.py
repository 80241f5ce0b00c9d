"""An amended move is announced as amended, never as a move taken back (issue 23: the OLED
said "Move taken back" for seconds on the opponent's turn after a turn was amended), and in
players' words (the Chromium robot's checker found "Red amended: / Eagle c1d2 c2a4")."""

from __future__ import annotations

import time
from types import SimpleNamespace

from companion.rules.squares import parse_square
from companion.table import outputs, views

from service_helpers import playing
from sim_table import sim_table  # noqa: F401 (fixture)
from waiting import wait_for


def test_an_amendment_is_not_announced_as_a_takeback(sim_table):
    c, sim = sim_table.companion, sim_table.hardware.sim
    playing(c, sim_table.hardware)                    # Red: Tiger, Crab
    sim.lift(parse_square("a1"))
    sim.place(parse_square("a2"))                     # Crab a1a2
    wait_for(lambda: len(c.view(None)["table"]["log"]) == 1)
    sim.lift(parse_square("a2"))
    sim.place(parse_square("a3"))                     # the same turn, amended: Tiger a1a3
    seen: list[list[str]] = []
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        seen.append(c.view(None)["oled"])
        time.sleep(0.02)
    assert c.view(None)["table"]["log"] == ["Tiger a1a3"], \
        c.view(None)["table"]["log"]
    assert any(lines[0] == "Red amended:" for lines in seen), sorted(set(map(tuple, seen)))
    amended = next(lines for lines in seen if lines[0] == "Red amended:")
    assert amended[1:3] == ["Tiger, a1 to a3", "Blue to move"], amended
    assert not any(lines[0] == "Move taken back" for lines in seen), seen


def test_an_amended_turn_not_yet_in_the_move_list_is_said_by_its_squares():
    # A Wind Spirit card still going on (the Chromium robot, Wind with one Spirit card: the
    # OLED said "Red amended: / Eagle c1d2 c2a4"): the turn is not the list's last, so its
    # squares are said in words, never in notation.
    listed = {"moves": [{"text": "Ox b4b3", "words": "Blue: Ox, b4 → b3"}]}
    game = SimpleNamespace(referee=SimpleNamespace(view=lambda seat: listed), unannounced=None)
    lines = views._amended_in_words(game, ("Red amended:", "Eagle c1d2 c2a4", "Red to move",
                                           "A:Horse  B:Rabbit"))
    assert lines == ("Red amended:", "Eagle, c1 to d2,", "c2 to a4", "Red to move", "A:Horse  B:Rabbit")


def test_an_amended_turn_fits_one_screen_with_whose_move_it_is():
    # The table robot, Wind with four Spirit cards and slow hands: a hand whose line wraps
    # ("A:Phoenix  B:Rhinoceros" is 23 characters) sent the OLED to two pages, and the second
    # said only "Blue amended: p2/2 / B:Rhinoceros", not who is to move. The hand's line is
    # left out when it would not fit.
    listed = {"moves": [{"text": "Eagle c1d2 c2a4", "words": "Red: Eagle, c1 → d2, Spirit c2 → a4"}]}
    game = SimpleNamespace(referee=SimpleNamespace(view=lambda seat: listed), unannounced=None)
    lines = views._amended_in_words(game, ("Red amended:", "Eagle c1d2 c2a4", "Blue to move",
                                           "A:Phoenix  B:Rhinoceros"))
    assert len(outputs.paged(lines)) == 1, outputs.paged(lines)
    assert lines[0] == "Red amended:" and lines[-1] == "Blue to move", lines


def test_an_amended_wind_turn_of_many_phrases_still_says_whose_move_it_is():
    # The table robot, wind1 with slow hands: "Blue amended: / Hawk, a5 to b4, / takes a
    # student, / Wind Spirit c2 to a1, / swaps with a student" filled the screen, and "Red to
    # move" was cut off (or went to a second page).
    text = "Hawk a5b4 c2a1"
    listed = {"moves": [{"text": text, "words": "Blue: Hawk, a5 → b4, takes a student, "
                                                "Wind Spirit c2 → a1, swaps with a student"}]}
    game = SimpleNamespace(referee=SimpleNamespace(view=lambda seat: listed), unannounced=None)
    lines = views._amended_in_words(game, ("Blue amended:", text, "Red to move", "A:Ox  B:Boar"))
    assert len(outputs.paged(lines)) == 1, outputs.paged(lines)
    assert lines[:2] == ("Blue amended:", "Hawk, a5 to b4,") and lines[-1] == "Red to move", lines

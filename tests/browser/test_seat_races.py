"""The seat page when the stream is faster than the answer to its own POST.

A confirmed Ninja step changes the game at once: the stream brings the new view (the Lantern
step) while the POST that made it is still on its way back. The page must then still offer
the Lantern step's controls once the answer arrives. Playwright holds the POST's answer back
until the stream's view has been drawn, the order a busy phone on Wi-Fi meets every time.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from companion.rules.squares import parse_square

from browser_fixtures import browser, page, site  # noqa: F401 (fixtures)
from waiting import wait_for

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
SEED = 23
# Way of the Shadow, seed 23, up to Red's Ninja step (tests/browser/test_phone_games.py).
BEFORE = [("red", "Nd1"), ("blue", "Nb5"), ("blue", "Ox c5c4"), ("blue", "Sb5b4"),
          ("red", "Eel a1b1")]


def lay_out(companion) -> None:
    """Stand the pawns as the game has them, as players do after a move made off the mat."""
    board = companion.view(None)["table"]["position"].split()[0]
    squares, rank = set(), 5
    for row in board.split("/"):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                squares.add(parse_square("abcde"[file] + str(rank)))
                file += 1
        rank -= 1
    companion._hw.sim.set_pawns(frozenset(squares))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")


def test_lantern_controls_work_when_the_stream_beats_the_post_answer(browser, site, page):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": SEED})
    lay_out(companion)
    for seat, text in BEFORE:
        companion.submit(seat, {"type": "action", "text": text})
        lay_out(companion)
    assert companion.view("red")["table"]["phase"] == "ninja"

    phone = browser.new_context(**PHONE)
    tab = phone.new_page()
    tab.set_default_timeout(8000)
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(url + "/J/" + companion.join_url("red").rsplit("/J/", 1)[1])
    tab.wait_for_url("**/seat")
    tab.locator("body[data-phase=ninja]").wait_for()

    def late_answer(route):
        # The action is made now; its answer reaches the page only after the stream's view
        # (the page draws the Lantern step while the POST is still out).
        response = route.fetch()
        tab.locator("body[data-phase=lantern]").wait_for()
        route.fulfill(response=response)

    tab.route("**/seat/action", late_answer, times=1)
    tab.locator('#board .square[data-square="c2"]').click()
    with tab.expect_response("**/seat/action"):
        tab.get_by_role("button", name="Ninja to c2", exact=True).click()
    # Every Lantern control works once the answer is in (read at once: a later view, such
    # as the OLED's next page, would redraw the page and hide a freeze).
    tab.wait_for_timeout(300)
    assert tab.get_by_role("button", name="No Lantern this turn").is_enabled()
    assert tab.get_by_role("button", name="rank 3", exact=True).is_enabled()
    assert tab.locator('#board .square[data-square="c2"]').is_disabled()   # nothing to tap there
    tab.get_by_role("button", name="rank 3", exact=True).click()
    tab.get_by_role("button", name="Search rank 3").click()
    wait_for(lambda: companion.view(None)["table"]["searches"])
    assert companion.view(None)["table"]["searches"][-1]["line"] == "rank 3"
    phone.close()
    assert not errors, errors

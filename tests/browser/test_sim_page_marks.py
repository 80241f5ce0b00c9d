"""The simulation page marks the last move, and writes what the buttons do under them."""

from __future__ import annotations

import re
import urllib.request

from playwright.sync_api import expect

from companion.rules.position import board_pieces

from browser_fixtures import browser, page, site  # noqa: F401 (fixtures)
from waiting import wait_for


def test_the_last_move_is_marked_and_a_takeover_question_is_captioned(browser, site, page):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 5,
                            "cards": {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}})
    companion._hw.sim.set_pawns(frozenset(board_pieces(companion.view(None)["setup"]["board"])))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    page.goto(url + "/sim")
    page.wait_for_selector('body[data-status="playing"]')
    # Red's Tiger: c1 to c3, lifted and placed on the simulated mat.
    page.locator('button.square[data-square="c1"]').click()
    page.locator('button.square[data-square="c3"]').click()
    wait_for(lambda: companion.view(None)["table"]["log"] == ["Tiger c1c3"])
    to = page.locator('button.square[data-square="c3"]')
    expect(to).to_have_class(re.compile(r"\blast-to\b"))
    shadow = to.evaluate("el => getComputedStyle(el).boxShadow")
    assert shadow and shadow != "none", shadow
    assert page.locator('button.square[data-square="c1"]').evaluate("el => getComputedStyle(el).boxShadow") != "none"
    # A phone holds Red's seat; another asks for it: the OLED asks the table, and the page
    # writes what A and B do under them.
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    opener.open(url + "/J/" + companion.join_url("red").rsplit("/J/", 1)[1]).read()
    other = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    other.open(url + "/J/" + companion.join_url("red").rsplit("/J/", 1)[1]).read()
    expect(page.locator('.hw-button[data-button="A"] .hw-caption')).to_have_text("allow")
    expect(page.locator('.hw-button[data-button="B"] .hw-caption')).to_have_text("refuse")


def test_lay_out_the_pawns_for_me_moves_the_last_games_pawns_home(browser, site, page):
    url, companion = site
    cards = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 5, "cards": cards})
    page.goto(url + "/sim")
    page.get_by_role("button", name="Lay out the pawns for me").click()
    page.wait_for_selector('body[data-status="playing"]')
    page.locator('button.square[data-square="c1"]').click()        # Red's master to c3
    page.locator('button.square[data-square="c3"]').click()
    wait_for(lambda: companion.view(None)["table"]["log"] == ["Tiger c1c3"])
    # A new game: the master left on c3 goes home to c1 with the rest.
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 6, "cards": cards})
    page.wait_for_selector('body[data-status="sync"]')
    page.get_by_role("button", name="Lay out the pawns for me").click()
    page.wait_for_selector('body[data-status="playing"]')
    assert companion.sim_state()["pawns"] == sorted(["a1", "b1", "c1", "d1", "e1", "a5", "b5", "c5", "d5", "e5"])

"""The pages at the table, in Debian's Chromium (issue 11, "Table-ready in every mode"):

- the public table page and /sim show a result banner once the game is over;
- in Way of the Wind, when the mat asks "whose step was it?", the replying seat's phone offers
  its card and answering there settles the question;
- a pawn moved where no card allows: every page says which rule it breaks.

Screenshots go to ``ONITAMA_SHOTS`` (a folder), if set, else to the test's tmp_path.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from playwright.sync_api import expect

from companion.mat.recognizer import CLEAR_S
from companion.rules.position import board_pieces

from browser_fixtures import browser, page, site  # noqa: F401 (fixtures)
from waiting import wait_for

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
HAND_S = CLEAR_S + 0.07     # longer than a brush: a real hand's pause between two steps

# Blue starts (Goose); then Red's master takes Blue's on c4, on the mat.
BASE = {"red": ["Tiger", "Crab"], "blue": ["Boar", "Ox"], "side": "Goose"}
BASE_GAME = [("blue", "Boar a5a4"), ("red", "Tiger c1c3"), ("blue", "Ox c5c4")]
# Red's Lion (a Wind Spirit card) and Mantis both step a1b2; Blue's Tiger also moves the
# Spirit c3c4 (tests/mat/test_recognizer.py, WIND).
WIND = {"red": ["Lion", "Mantis"], "blue": ["Tiger", "Crane"], "side": "Dragon"}
PLAIN = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("ONITAMA_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def lay_out(companion) -> None:
    """Stand the pawns as the game has them (after a move made off the mat, or the deal)."""
    view = companion.view(None)
    board = view["setup"]["board"] if view["setup"] else view["table"]["position"]
    companion._hw.sim.set_pawns(frozenset(board_pieces(board)))
    wait_for(lambda: companion.view(None)["game"]["status"] in ("playing", "finished"))


def deal(companion, variant: str, cards: dict) -> None:
    companion.submit(None, {"type": "new_game", "variant": variant, "cards": cards})
    lay_out(companion)


def step(companion, frm: str, to: str) -> None:
    """A hand on the simulated mat: the pawn on ``frm`` lifted and set down on ``to``."""
    companion.sim_lift(frm)
    time.sleep(HAND_S)
    companion.sim_place(to)


class Phones:
    """Both seats' phones, each a browser context of its own, joined by their codes."""

    def __init__(self, browser, url: str, companion):
        self.contexts, self.pages, self.errors = [], {}, []
        for seat in ("red", "blue"):
            context = browser.new_context(**PHONE)
            tab = context.new_page()
            tab.set_default_timeout(8000)
            tab.on("pageerror", lambda exc: self.errors.append(str(exc)))
            tab.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
            tab.goto(url + "/J/" + companion.join_url(seat).rsplit("/J/", 1)[1])
            tab.wait_for_url("**/seat")
            self.contexts.append(context)
            self.pages[seat] = tab

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        assert not self.errors, f"errors on a phone: {self.errors}"


def test_the_table_and_sim_pages_show_who_won_and_how(site, page, tmp_path):
    url, companion = site
    folder = shots(tmp_path)
    deal(companion, "base", BASE)
    for seat, text in BASE_GAME:
        companion.submit(seat, {"type": "action", "text": text})
        lay_out(companion)
    page.goto(url + "/")
    page.wait_for_selector("#status:has-text('Red to move')")
    expect(page.locator("#result")).to_be_hidden()
    # The winning move on the mat: Red's master takes Blue's on c4.
    companion.sim_lift("c4")
    step(companion, "c3", "c4")
    wait_for(lambda: companion.view(None)["game"]["status"] == "finished")
    game = companion.view(None)["game"]["id"]
    # The banner comes with the stream's view: no reload.
    banner = page.locator("#result")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("aria-label", "Red wins: Way of the Stone")
    expect(banner).to_have_attribute("data-winner", "red")
    expect(banner.locator(".result-head")).to_have_text("Red wins")
    expect(banner.locator(".result-how")).to_have_text("Way of the Stone")
    expect(banner.get_by_role("link", name="Replay the game")).to_have_attribute("href", f"/games/{game}/replay")
    expect(banner.get_by_role("link", name="Download the record")).to_have_attribute(
        "href", f"/games/{game}/record.json")
    for where in ("/", "/sim"):
        for name, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url + where)
            expect(page.locator("#result .result-head")).to_have_text("Red wins")
            # The banner is in view as the page opens, above the board, and whole: the page
            # is no wider than the screen.
            box = page.locator("#result").bounding_box()
            assert box["y"] < height / 2 and box["x"] + box["width"] <= width
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(folder / f"result-{where.strip('/') or 'table'}-{name}.png"))


def test_the_replying_seat_answers_whose_step_it_was_on_its_phone(browser, site, page, tmp_path):
    url, companion = site
    folder = shots(tmp_path)
    deal(companion, "wind", WIND)
    phones = Phones(browser, url, companion)
    red, blue = phones.pages["red"], phones.pages["blue"]
    step(companion, "a1", "b2")
    wait_for(lambda: companion.view(None)["table"]["log"] == ["Mantis a1b2"])
    step(companion, "c3", "c4")          # Lion's Spirit step going on, or Blue's Tiger?
    wait_for(lambda: companion.view(None)["mat"]["prompt"] is not None)
    assert companion.view(None)["mat"]["prompt"]["reply"]["choose"] == ["Tiger"]
    expect(blue.locator("#headline")).to_have_text("Whose step was it?")
    expect(blue.locator("#prompt")).to_be_visible()
    expect(blue.locator("#prompt-question")).to_have_text(
        "Did you move the Spirit? If so, which card did you use? If Red did, Red answers.")
    expect(red.locator("#headline")).to_have_text("Whose step was it?")
    tiger = blue.locator("#prompt-buttons").get_by_role("button", name="Tiger")
    expect(tiger).to_be_enabled()
    expect(tiger.locator(".button-key")).to_have_text("C")       # the companion's button C
    expect(red.locator("#prompt-buttons").get_by_role("button", name="Lion")).to_be_enabled()
    blue.screenshot(path=str(folder / "whose-step-blue-phone.png"), full_page=True)
    tiger.click()
    wait_for(lambda: companion.view(None)["table"]["log"] == ["Mantis a1b2", "Tiger c3c4"])
    assert companion.view(None)["mat"]["prompt"] is None
    expect(blue.locator("#prompt")).to_be_hidden()
    expect(red.locator("#prompt")).to_be_hidden()
    phones.close()


def test_every_page_says_why_a_pawn_may_not_stand_there(browser, site, page, tmp_path):
    url, companion = site
    folder = shots(tmp_path)
    deal(companion, "base", PLAIN)
    phones = Phones(browser, url, companion)
    page.goto(url + "/")
    step(companion, "a1", "b3")          # neither Tiger nor Crab moves a1 to b3
    reason = "Neither Tiger nor Crab moves a student from a1 to b3."
    expect(page.locator("#mat-state")).to_contain_text(reason)
    expect(page.locator("#mat-state")).to_contain_text("move b3 to a1")
    for tab in phones.pages.values():
        expect(tab.locator("#mat-line")).to_contain_text(reason)
    phones.pages["red"].screenshot(path=str(folder / "reason-red-phone.png"), full_page=True)
    page.goto(url + "/sim")
    expect(page.locator("#mat-state")).to_contain_text(reason)
    page.screenshot(path=str(folder / "reason-sim.png"))
    step(companion, "b3", "a1")
    expect(page.locator("#mat-state")).to_have_text("The mat matches the game.")
    phones.close()

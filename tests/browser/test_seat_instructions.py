"""Every seat knows what to do (issue 23), in Debian's Chromium at 390x844 and 1400x900:

- a move chosen on a remote seat's phone: its confirm button is on screen without scrolling,
  and once sent every screen says the one sentence of companion/table/instructions.py: the
  remote phone "Your move is on the mat", the phone at the table and the table and simulation
  pages "Make Blue's move from Blue's phone: Boar, a5 to a4", the phone's board marking the
  pawn to lift and where it goes;
- Way of the Shadow: "Hide on d1" is on screen without scrolling; square names are legible;
- a ninth onlooker, past the public streams' cap, follows the game by polling and says so.

Screenshots go to ``ONITAMA_SHOTS`` (a folder), if set, else to the test's tmp_path.
"""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import expect

from companion.web.streams import MAX_SHARED

from browser_fixtures import browser, page, site  # noqa: F401 (fixtures)
from test_table_ready_pages import Phones, lay_out, shots
from waiting import wait_for

BASE = {"red": ["Tiger", "Crab"], "blue": ["Boar", "Ox"], "side": "Goose"}   # Blue starts
SIZES = {"phone": (390, 844), "desktop": (1400, 900)}


@contextmanager
def dealt_with_phones(browser, site, request: dict) -> Iterator[Phones]:
    """A new game dealt with ``request``, both seats' phones joined, the mat laid out; the
    phones closed after (any script error on them fails the test)."""
    url, companion = site
    companion.submit(None, {"type": "new_game", **request})
    phones = Phones(browser, url, companion)
    try:
        lay_out(companion)
        yield phones
    finally:
        phones.close()


def in_view(tab, locator) -> None:
    """``locator`` is whole on screen with the page scrolled to the top."""
    tab.evaluate("window.scrollTo(0, 0)")
    box = locator.bounding_box()
    height = tab.viewport_size["height"]
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, box


def test_a_remote_seats_move_is_confirmed_on_screen_and_every_screen_says_who_makes_it(
        browser, site, page, tmp_path):
    url, companion = site
    folder = shots(tmp_path)
    deal = {"variant": "base", "cards": BASE, "remote": ["blue"]}
    with dealt_with_phones(browser, site, deal) as phones:
        blue, red = phones.pages["blue"], phones.pages["red"]
        expect(blue.locator("#headline")).to_have_text("Your turn")
        expect(blue.locator("#subline")).to_have_text(
            "Choose your move below: someone at the table makes it on the mat.")
        expect(red.locator("#subline")).to_have_text(
            "Blue is choosing on their phone: then make their move on the mat.")
        blue.locator('#board .square[data-square="a5"]').click()
        blue.locator('#board .square[data-square="a4"]').click()
        confirm = blue.get_by_role("button", name="Boar: a5 to a4")
        in_view(blue, confirm)
        blue.screenshot(path=str(folder / "remote-confirm-phone.png"))
        confirm.click()
        wait_for(lambda: companion.view(None)["game"]["expected"])
        sentence = "Make Blue's move"
        expect(blue.locator("#headline")).to_have_text("Your move is on the mat")
        expect(blue.get_by_role("button", name="Boar: a5 to a4")).to_have_count(0)   # sent: no confirm box
        expect(blue.locator("#action-hint")).to_have_text("To send another move instead, tap its piece.")
        expect(blue.locator("#subline")).to_contain_text("Someone at the table makes it for you: Boar, a5 to a4.")
        expect(red.locator("#headline")).to_have_text(sentence)
        expect(red.locator("#subline")).to_contain_text("From Blue's phone: Boar, a5 to a4.")
        expect(red.locator('#board .square[data-square="a5"]')).to_have_class(
            re.compile(r"\bexpect-from\b"))
        expect(red.locator('#board .square[data-square="a4"]')).to_have_class(
            re.compile(r"\bexpect-to\b"))
        blue.screenshot(path=str(folder / "remote-waiting-phone.png"))
        red.screenshot(path=str(folder / "at-table-make-move-phone.png"))
        for where in ("/", "/sim"):
            for name, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                page.goto(url + where)
                expect(page.locator("#status")).to_have_text(sentence)
                expect(page.locator("#substatus")).to_contain_text("From Blue's phone: Boar, a5 to a4.")
                if where == "/":         # the table page's board marks it as the phones do
                    expect(page.locator('div.square[data-square="a5"]')).to_have_class(re.compile(r"\bexpect-from\b"))
                    expect(page.locator('div.square[data-square="a4"]')).to_have_class(re.compile(r"\bexpect-to\b"))
                page.screenshot(path=str(folder / f"expected-{where.strip('/') or 'table'}-{name}.png"))
        assert companion.view(None)["oled"][:3] == [sentence, "from Blue's phone:", "Boar, a5 to a4"]


def test_the_ninjas_hiding_place_is_confirmed_on_screen(browser, site, page, tmp_path):
    folder = shots(tmp_path)
    with dealt_with_phones(browser, site, {"variant": "shadow", "seed": 23}) as phones:
        red = phones.pages["red"]
        expect(red.locator("#headline")).to_have_text("Hide your Ninja")
        red.locator('#board .square[data-square="d1"]').click()
        in_view(red, red.get_by_role("button", name="Hide on d1"))
        # The squares' names are legible: 12 px or more (they were 10.4 px).
        size = red.locator("#board .coord").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
        assert size >= 12, size
        red.screenshot(path=str(folder / "hide-confirm-phone.png"))


def test_an_onlooker_past_the_streams_cap_follows_the_game_and_says_how(browser, site, tmp_path):
    """Eight public streams are open: the ninth table page is refused a stream (503), which a
    browser never retries. It follows the game by asking for the view, and says so."""
    url, companion = site
    folder = shots(tmp_path)
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": BASE})
    lay_out(companion)
    host, port = url.split("://", 1)[1].split(":")
    held = []
    try:
        for _ in range(MAX_SHARED):
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request("GET", "/events")
            response = conn.getresponse()
            assert response.status == 200
            # The response is held too: a stream's response without a length owns the socket
            # once getresponse() returns, and closing it (as its garbage collection does) ends
            # the stream, freeing its slot for the page that should find none.
            held.append((conn, response))
        # Its own tab: the browser itself logs the refused stream (503) on the console.
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url + "/")
        expect(page.locator("#connection")).to_have_text(
            "Many are watching: this page asks for the game every 2 s instead of a live feed.")
        expect(page.locator("#status")).to_have_text("Blue to move")
        page.screenshot(path=str(folder / "ninth-onlooker-phone.png"))
        companion.submit("blue", {"type": "action", "text": "Boar a5a4"})
        expect(page.locator("#status")).to_have_text("Move the pawn on a5 to a4", timeout=6000)
        context.close()
        assert not errors
    finally:
        for conn, response in held:
            response.close()
            conn.close()


def test_the_table_page_lists_moves_in_players_words(site, page):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": BASE})
    lay_out(companion)
    companion.submit("blue", {"type": "action", "text": "Boar a5a4"})
    page.goto(url + "/")
    expect(page.locator("#log li")).to_have_text(["Blue: Boar, a5 → a4"])


def test_abandoning_a_game_is_asked_on_the_page_not_in_a_dialog(site, page, tmp_path):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": BASE})
    first = companion.view(None)["game"]["id"]
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(url + "/sim")
    # At a base game's set-up, the caption under B says what holding it does.
    expect(page.locator('.hw-button[data-button="B"] .hw-caption')).to_have_text("hold: vs computer")
    page.locator("#new-game-box").evaluate("e => e.open = true")
    page.get_by_role("button", name="Deal a new game").click()
    box = page.get_by_role("alertdialog")
    expect(box).to_be_visible()
    expect(box).to_contain_text("A game is being played. Abandon it and deal a new one?")
    page.screenshot(path=str(shots(tmp_path) / "abandon-question-desktop.png"))
    page.get_by_role("button", name="Keep playing").click()
    expect(box).to_be_hidden()
    assert companion.view(None)["game"]["id"] == first
    page.get_by_role("button", name="Deal a new game").click()
    page.get_by_role("button", name="Abandon it and deal").click()
    wait_for(lambda: companion.view(None)["game"]["id"] != first)
    assert dialogs == []


def test_an_abandoned_light_games_replay_says_so_and_its_buttons_are_drawn(site, page, tmp_path):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "light", "seed": 12})
    light = companion.view(None)["game"]["id"]
    companion.submit(None, {"type": "new_game", "variant": "base", "cards": BASE})   # abandons it
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{url}/games/{light}/replay")
    expect(page.locator("#replay-note")).to_have_text(
        "This game was abandoned before its end: its hidden moves stay hidden, and only its "
        "public turns are shown.")
    for name in ("first", "prev", "next", "last"):
        button = page.locator(f"#{name}")
        assert button.inner_text().strip() == ""            # no font glyph to miss
        box = button.locator(".glyph").bounding_box()
        assert box is not None and box["width"] >= 10 and box["height"] >= 10, (name, box)
    page.screenshot(path=str(shots(tmp_path) / "replay-abandoned-phone.png"))


def test_a_ninja_seen_by_everyone_is_on_the_table_and_sim_pages(site, page, tmp_path):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 23})
    lay_out(companion)
    for seat, text in [("red", "Nd1"), ("blue", "Nb5"), ("blue", "Ox c5c4"), ("blue", "Sb5b4")]:
        companion.submit(seat, {"type": "action", "text": text})
        lay_out(companion)
    assert companion.view(None)["table"]["ninjas"]["blue"]["revealed"] == ["b4"]
    for where, square in (("/", 'div.square[data-square="b4"]'), ("/sim", 'button.square[data-square="b4"]')):
        page.set_viewport_size({"width": 1400, "height": 900})
        page.goto(url + where)
        expect(page.locator(f"{square} .ninja-seen.ninja-blue")).to_be_visible()
        assert page.locator(".ninja-seen").count() == 1          # never a hidden one
        page.screenshot(path=str(shots(tmp_path) / f"seen-ninja-{where.strip('/') or 'table'}-desktop.png"))


def test_a_chosen_ninja_square_is_switched_with_one_tap(browser, site, page, tmp_path):
    """The Shadow Master hides two Ninjas: with both squares chosen, one tap elsewhere moves
    the first chosen there (it used to start the choice over)."""
    with dealt_with_phones(browser, site, {"variant": "light", "seed": 12}) as phones:
        blue = phones.pages["blue"]
        expect(blue.locator("#headline")).to_have_text("Hide your Ninjas")
        for square in ("a5", "b5"):
            blue.locator(f'#board .square[data-square="{square}"]').click()
        expect(blue.get_by_role("button", name="Hide on a5 and b5")).to_be_visible()
        blue.locator('#board .square[data-square="d5"]').click()
        expect(blue.get_by_role("button", name="Hide on b5 and d5")).to_be_visible()
        in_view(blue, blue.get_by_role("button", name="Hide on b5 and d5"))
        blue.screenshot(path=str(shots(tmp_path) / "light-hide-two-phone.png"))


def test_a_chosen_hiding_place_in_the_way_of_the_shadow_is_switched_with_one_tap(browser, site, page):
    with dealt_with_phones(browser, site, {"variant": "shadow", "seed": 23}) as phones:
        red = phones.pages["red"]
        red.locator('#board .square[data-square="d1"]').click()
        expect(red.get_by_role("button", name="Hide on d1")).to_be_visible()
        red.locator('#board .square[data-square="b1"]').click()
        expect(red.get_by_role("button", name="Hide on b1")).to_be_visible()


# Blue's Bat (a Wind Spirit card: four Spirit steps) and Ox both step a5a4: five confirm buttons.
WIND_BAT = {"red": ["Tiger", "Crab"], "blue": ["Bat", "Ox"], "side": "Goose"}

UNCOVERED = """() => {
  // Every square of the board and every confirm button: whole on screen and the first thing
  // under a finger at its centre (not under the confirm box or anything else).
  const hidden = [];
  const reach = (el, name) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = r.top >= 0 && r.bottom <= innerHeight ? document.elementFromPoint(x, y) : null;
    if (!top || !el.contains(top)) hidden.push(name);
  };
  document.querySelectorAll('#board .square').forEach((s) => reach(s, s.dataset.square));
  document.querySelectorAll('#action-buttons button').forEach((b) => reach(b, b.textContent));
  return hidden;
}"""


def test_five_wind_confirm_buttons_leave_the_whole_board_usable(browser, site, page, tmp_path):
    """A Wind Spirit card's student step comes with each of its Spirit steps: Bat's four and
    Ox's plain step make five buttons. At 390x844 they used to cover the board's lower half."""
    url, companion = site
    folder = shots(tmp_path)
    companion.submit(None, {"type": "new_game", "variant": "wind", "cards": WIND_BAT, "remote": ["blue"]})
    phones = Phones(browser, url, companion)
    try:
        lay_out(companion)
        blue = phones.pages["blue"]
        expect(blue.locator("#headline")).to_have_text("Your turn")
        blue.locator('#board .square[data-square="a5"]').click()
        blue.locator('#board .square[data-square="a4"]').click()
        expect(blue.locator("#action-buttons button")).to_have_count(5)
        hidden = lambda: blue.evaluate(UNCOVERED)   # noqa: E731
        try:
            wait_for(lambda: not hidden(), timeout=3, message=lambda: f"covered or off screen: {hidden()}")
        finally:
            blue.screenshot(path=str(folder / "wind-five-buttons-phone.png"))
        # Another choice is one tap away, even on the board's bottom rank.
        blue.locator('#board .square[data-square="e5"]').click()
        expect(blue.locator("#action-hint")).to_have_text("Tap a lit square.")
    finally:
        phones.close()

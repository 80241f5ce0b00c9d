"""Whole Light & Shadow games with two phones and the simulation page, in Debian's Chromium.

The phones join by the links the simulation page shows for each seat's QR code, hide their
Ninjas, take every hidden step on their own screens (tap a square, then confirm), and answer
the mat's card questions; the main-board moves are made by clicking the simulated mat. The
scripts are games the rules engine found for their seeds (see ``docs/phones.md``): Way of the
Shadow with a strike, Ninja steps, a Lantern and a Ninja taken by a pawn; Way of the Light with
the Shadow Master playing from the phone alone until the Light Master reaches the Temple Arch.

The mat does not read the Light Master's moves yet: the recognizer sees no Blue master on the
board and takes the game for won (``tests/web/phones/test_phone_light.py`` fails until it does).
Until then the Light Master's moves are sent as typed actions and the mat is brought in step
by hand, as the companion asks after any move made away from the mat.
"""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import expect

from companion.mat.recognizer import CLEAR_S
from companion.web import padding

from browser_fixtures import browser, page, site  # noqa: F401 (fixtures)
from waiting import wait_for

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "accept_downloads": True}
HAND_S = CLEAR_S + 0.07   # a captured pawn is held off the mat long enough to be seen gone

SHADOW_SEED = 23
SHADOW = [("red", "Nd1"), ("blue", "Nb5"),
          ("blue", "Ox c5c4"), ("blue", "Sb5b4"),
          ("red", "Eel a1b1"), ("red", "Nd1c2"), ("red", "skip"),
          ("blue", "Tiger c4c2"), ("blue", "Nb4b5"),       # Red has no Ninja left: no Lantern
          ("red", "Ox c1d1"), ("red", "Le"),
          ("blue", "Eel c2d1")]
LIGHT_SEED = 12
LIGHT = [("blue", "Na5 Nb5"),
         ("red", "Dragon c1e2"), ("blue", "Goose Nb5c5"),
         ("red", "Ox e2e3"), ("red", "skip"), ("blue", "Frog Na5b4"),
         ("red", "Goose e3d4"), ("red", "L3"), ("blue", "Dragon Nb4a5"),
         ("red", "Frog d4c5")]


class Phone:
    """One player's phone: a browser context of its own (its own cookie)."""

    def __init__(self, browser, seat: str, shots):
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.page.set_default_timeout(8000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        self.seat = seat
        self.shots = shots
        # The size of every request body the page sends (seat.js pads them all: padding.py).
        self.posts: list[tuple[str, int]] = []
        self.page.on("request", lambda r: self.posts.append(
            (r.url.rsplit("/", 1)[-1], len(r.post_data_buffer or b""))) if r.method == "POST" else None)

    def join(self, sim) -> None:
        url = sim.get_attribute(f'a[data-link="{self.seat}"]', "href")
        assert re.fullmatch(r"HTTP://127\.0\.0\.1:\d+/J/[A-Z2-7]{16}", url)
        self.page.goto(url)
        self.page.wait_for_url("**/seat")
        expect(self.page.locator(".seat-badge")).to_have_text(self.seat.title())

    def tap(self, square: str) -> None:
        self.page.locator(f'#board .square[data-square="{square}"]').click()

    def press(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{self.seat}-{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"errors on {self.seat}'s phone: {self.errors}"

    def check_request_sizes(self) -> None:
        """Placing, stepping, striking, searching, skipping, answering: every request the phone
        sent has one size, so its length never tells a Ninja step from a skip."""
        assert {"action", "answer"} & {name for name, _ in self.posts}, self.posts
        assert {size for _, size in self.posts} == {padding.REQUEST_BUCKET}, self.posts


def progress(companion) -> tuple:
    t = companion.view(None)["table"]
    return len(t["log"]), t["phase"], t["turn"], tuple(t["to_act"])


def mat_move(sim, phone: Phone, companion, text: str) -> None:
    """A main-board move with the mouse on the simulated mat; the mover's phone answers the
    companion's card question when the mat alone cannot tell the card."""
    card, squares = text.split()
    frm, to = squares[:2], squares[2:]
    before = progress(companion)
    pawns = companion.sim_state()["pawns"]
    if to in pawns:
        sim.locator(f'button.square[data-square="{to}"]').click()    # the captured pawn first
    sim.locator(f'button.square[data-square="{frm}"]').click()
    if to in pawns:
        time.sleep(HAND_S)
    sim.locator(f'button.square[data-square="{to}"]').click()

    def asked():
        prompt = companion.view(phone.seat)["mat"]["prompt"]
        return prompt is not None and prompt["seat"] == phone.seat
    if wait_for(lambda: asked() or progress(companion) != before,
                message=lambda: f"{text}: {companion.view(None)['mat']} {companion.sim_state()['pawns']}") is True \
            and asked():
        phone.page.locator("#prompt").wait_for()
        phone.shot("prompt")
        phone.press(card)
    wait_for(lambda: progress(companion) != before)


def phone_step(phone: Phone, companion, text: str) -> None:
    """A step on the phone: placing, a Ninja step or strike, a Lantern, or skipping."""
    before = progress(companion)
    table = companion.view(phone.seat)["table"]
    if re.fullmatch(r"(N[a-e][1-5] ?)+", text):
        for token in text.split():
            phone.tap(token[1:])
        phone.press("Hide on " + " and ".join(t[1:] for t in text.split()))
    elif m := re.fullmatch(r"(?:(\w+) )?([NS])([a-e][1-5])([a-e][1-5])", text):
        card, kind, frm, to = m.groups()
        phone.tap(frm)
        phone.tap(to)
        label = f"Strike from {to}" if kind == "S" else f"Ninja to {to}"
        phone.press(f"{card}: {label}" if card else label)
    elif text.startswith("L"):
        line = f"rank {text[1]}" if text[1].isdigit() else f"file {text[1]}"
        phone.page.get_by_role("button", name=line, exact=True).click()
        phone.shot(f"lantern-{text}")
        phone.press(f"Search {line}")
    else:
        assert text == "skip"
        phone.press({"ninja": "Leave the Ninja where it is", "lantern": "No Lantern this turn"}[table["phase"]])
    wait_for(lambda: progress(companion) != before)


def play(browser, page, url: str, companion, variant: str, seed: int, script, shots) -> dict:
    """Deals, joins both phones, lays the mat out and plays ``script``; returns the phones."""
    sim = page
    sim.goto(url + "/sim")
    sim.wait_for_selector("body[data-version]")
    response = sim.request.post(url + "/api/new-game", data={"variant": variant, "seed": seed})
    assert response.ok, response.text()
    phones_ = {seat: Phone(browser, seat, shots) for seat in ("red", "blue")}
    for phone in phones_.values():
        phone.join(sim)
    sim.get_by_role("button", name="Lay out the pawns for me").click()
    sim.wait_for_selector('body[data-status="playing"]')
    for seat, text in script:
        phone = phones_[seat]
        pawns = re.search(r"[Rr]" if seat == "red" else r"[Bb]", companion.view(None)["table"]["position"].split()[0])
        if re.fullmatch(r"[A-Z][\w-]* [a-e][1-5][a-e][1-5]", text) and pawns:
            mat_move(sim, phone, companion, text)
        else:
            phone_step(phone, companion, text)
    return phones_


def facts(phone: Phone) -> str:
    return phone.page.locator("#shadow-facts").inner_text()


def download_record(phone: Phone, tmp_path) -> dict:
    with phone.page.expect_download() as info:
        phone.page.get_by_role("link", name="Download the game record").click()
    path = tmp_path / f"{phone.seat}-record.json"
    info.value.save_as(path)
    return json.loads(path.read_text())


def test_a_way_of_the_shadow_game_on_two_phones(browser, site, page, tmp_path):
    url, companion = site
    script = SHADOW
    phones_ = play(browser, page, url, companion, "shadow", SHADOW_SEED, script[:3], tmp_path)
    red, blue = phones_["red"], phones_["blue"]
    # Blue's Ninja phase: a step or a strike on b4, side by side; Red sees no hidden Ninja.
    blue.page.locator("body[data-phase=ninja]").wait_for()
    blue.tap("b4")
    blue.page.get_by_role("button", name="Strike from b4").wait_for()
    blue.shot("ninja-choice")
    assert red.page.locator(".ninja-blue").count() == 0
    expect(red.page.locator(".ninja-red.ninja-hidden")).to_have_count(1)
    blue.press("Strike from b4")
    # The strike is announced to everyone, and the striking Ninja stands revealed.
    red.page.locator("#oled-lines", has_text="Strike: a miss").wait_for()
    red.page.locator('#board .square[data-square="b4"] .ninja-blue:not(.ninja-hidden)').wait_for()
    page.wait_for_selector('button.square[data-square="b4"]:not([data-led=""])')
    red.shot("after-strike")
    for seat, text in script[4:]:
        phone = phones_[seat]
        if text == "Nd1c2":
            red.page.locator("body[data-phase=ninja]").wait_for()
            red.tap("c2")
            red.shot("ninja-step")
            red.press("Ninja to c2")
            wait_for(lambda: companion.view("red")["table"]["own_ninjas"] == ["c2"])
            red.page.locator("#shadow-facts li", has_text=re.compile(r"^Your Ninja: free, hidden on c2$")).wait_for()
            assert blue.page.locator(".ninja-red").count() == 0
            continue
        if seat == "red" and text.startswith("L"):
            phone_step(phone, companion, text)
            answer = companion.view(None)["table"]["searches"][-1]
            assert answer == {"ply": answer["ply"], "by": "red", "line": "file e", "answer": False}
            blue.page.locator("#shadow-facts", has_text="Red searched file e: no Ninja").wait_for()
            continue
        if re.fullmatch(r"\w+ [a-e][1-5][a-e][1-5]", text):
            mat_move(page, phone, companion, text)
            if text == "Tiger c4c2":
                # Blue's master landed on Red's hidden Ninja: everyone is told.
                red.page.locator("#shadow-facts", has_text="Your Ninja: captured").wait_for()
                blue.page.locator("#shadow-facts", has_text="Red's Ninja: captured").wait_for()
                red.shot("ninja-captured")
        else:
            phone_step(phone, companion, text)
    blue.page.locator("#over-head", has_text="You win!").wait_for()
    red.page.locator("#over-head", has_text="You lose").wait_for()
    # One result banner on each phone, not the headline's too above it.
    for phone in (blue, red):
        expect(phone.page.locator(".turn-box")).to_be_hidden()
        assert phone.page.locator(".result-banner:visible, .turn-box:visible").count() == 1
    blue.shot("won")
    red.shot("lost")
    # The game is over: the record a phone downloads is the full one, both seats' secrets in.
    record = download_record(blue, tmp_path)
    public = companion.view(None)["table"]["log"]
    assert record["kind"] == "full" and len(record["turns"]) == len(public)
    assert record["setup"] and not any("?" in turn for turn in record["turns"])
    assert record["header"]["result"] == {"winner": "blue", "how": "stone"}
    for phone in phones_.values():
        phone.check_request_sizes()
        phone.close()


def test_a_way_of_the_light_game_with_the_shadow_master_on_the_phone(browser, site, page, tmp_path):
    url, companion = site
    phones_ = play(browser, page, url, companion, "light", LIGHT_SEED, LIGHT[:1], tmp_path)
    red, blue = phones_["red"], phones_["blue"]
    expect(blue.page.locator(".ninja-blue.ninja-hidden")).to_have_count(2)
    mat_move(page, red, companion, LIGHT[1][1])
    # The Shadow Master's turn: a Ninja and the card to move it with, all on the phone.
    blue.page.locator("#headline", has_text="Your turn").wait_for()
    blue.tap("b5")
    blue.tap("c5")
    blue.shot("shadow-master")
    assert red.page.locator(".ninja").count() == 0
    blue.press("Goose: Ninja to c5")
    wait_for(lambda: companion.view("blue")["table"]["own_ninjas"] == ["a5", "c5"])
    for seat, text in LIGHT[3:]:
        phone = phones_[seat]
        if seat == "red" and re.fullmatch(r"\w+ [a-e][1-5][a-e][1-5]", text):
            mat_move(page, phone, companion, text)
        else:
            phone_step(phone, companion, text)
    red.page.locator("#over-head", has_text="You win!").wait_for()
    blue.page.locator("#over-ninjas", has_text="The Ninjas at the end").wait_for()
    red.page.locator("#shadow-facts", has_text="Blue's Ninjas: 1 of 2 free").wait_for()
    blue.shot("lost")
    red.shot("won")
    record = download_record(red, tmp_path)
    assert record["header"]["result"] == {"winner": "red", "how": "stream"}
    # The full record names every square the Shadow Master's Ninjas stepped to.
    assert record["kind"] == "full" and not any("?" in turn for turn in record["turns"])
    for phone in phones_.values():
        phone.check_request_sizes()
        phone.close()

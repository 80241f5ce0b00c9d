"""The table robot in Chromium: one whole random game of every way of playing, through the
two seat pages and the simulation page (``browser_robot.py``); and in every way whose moves
the mat reads, one with the computer in a seat (its moves made by clicks on the simulation
page, a wrong one first now and then) and one with a seat played from afar (its page sends
the move with the confirm button, the simulation page makes it)."""

from __future__ import annotations

import shutil

import pytest
from playwright import sync_api

from browser_robot import BrowserRobot
from table_robot import WAYS, World, seatings

# Debian's Chromium, as tests/browser/browser_fixtures.py drives it (never downloaded).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is not installed: run ./dev test, or apt-get install chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# In the default suite the ways whose pages differ (about 20 s a game on 2 cores): the base
# game, the Wind with its two standard cards, the hidden ways, Knowledge and conditional
# moves; the other Wind deals, seven and nine (the same pages) with ``-m slow``.
DEFAULT_WAYS = {"base", "wind2", "shadow", "light", "knowledge", "simultaneous", "conditional"}


@pytest.mark.parametrize("way", [
    pytest.param(name, marks=() if name in DEFAULT_WAYS else pytest.mark.slow) for name, _ in WAYS])
def test_a_random_game_through_the_pages(browser, tmp_path, way):
    world = World(tmp_path)
    robot = BrowserRobot(world, way, 1, browser)
    try:
        report = robot.play()
        assert report.turns > 0 and report.how
    finally:
        robot.close()
        world.close()


# In the default suite each kind of seat once (about 20 s a game on 2 cores); every way with
# both kinds with ``-m slow``.
DEFAULT_SEATS = {("base", "computer"), ("shadow", "remote")}


@pytest.mark.parametrize("way, seating", [
    pytest.param(name, seating, marks=() if (name, seating) in DEFAULT_SEATS else pytest.mark.slow)
    for name, _ in WAYS for seating in seatings(name) if seating != "mat"])
def test_a_random_game_with_a_computer_or_a_remote_seat(browser, tmp_path, way, seating):
    world = World(tmp_path)
    robot = BrowserRobot(world, way, 1, browser, seating)
    try:
        report = robot.play()
        assert report.turns > 0 and report.how
        if seating == "computer" and way != "light":
            assert report.computer_moves > 0
    finally:
        robot.close()
        world.close()

"""The table robot in Chromium: one whole random game of every way of playing, through the
two seat pages and the simulation page (``browser_robot.py``)."""

from __future__ import annotations

import shutil

import pytest
from playwright import sync_api

from browser_robot import BrowserRobot
from table_robot import WAYS, World

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


# A defect the robot found in the recognizer (companion/mat, issue 12's): Blue's Hawk pawn step
# a3-b2 with the Spirit's step skipped is read as Octopus's, which makes the same step, without
# asking which card. Strict: this fails once the recognizer asks.
MISREAD = pytest.mark.xfail(strict=True, reason="the mat reads Hawk a3b2 - as Octopus a3b2 - "
                                                "without asking which card (recognizer)")


@pytest.mark.parametrize("way", [pytest.param(name, marks=MISREAD) if name == "wind5" else name
                                 for name, _ in WAYS])
def test_a_random_game_through_the_pages(browser, tmp_path, way):
    world = World(tmp_path)
    robot = BrowserRobot(world, way, 1, browser)
    try:
        report = robot.play()
        assert report.turns > 0 and report.how
    finally:
        robot.close()
        world.close()

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


@pytest.mark.parametrize("way", [name for name, _ in WAYS])
def test_a_random_game_through_the_pages(browser, tmp_path, way):
    world = World(tmp_path)
    robot = BrowserRobot(world, way, 1, browser)
    try:
        report = robot.play()
        assert report.turns > 0 and report.how
    finally:
        robot.close()
        world.close()

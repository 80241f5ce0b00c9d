"""Real-browser fixtures: the companion on simulated hardware served by waitress on a free
port, and Debian's Chromium driven by Playwright (never `playwright install`: the machine has
no internet; .ci/run installs the `chromium` package).

The test modules import the fixtures by name rather than from a conftest.py, so that no two
test folders share a helper module name. A machine without Chromium or Playwright fails these
tests (``./dev test`` installs both): a browser test that silently skipped would prove nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from playwright import sync_api as playwright_api

from companion.table.service import Companion  # noqa: E402
from companion.web import Server, create_app  # noqa: E402
from sim_table import sim_companion  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


# Per module: each test module imports its own copy of the fixture, and two Playwright
# sessions may not run at once.
@pytest.fixture(scope="module")
def browser() -> Iterator:
    if shutil.which(CHROMIUM) is None:
        pytest.fail(f"{CHROMIUM} is not installed: run ./dev test, or apt-get install chromium")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def site(tmp_path) -> Iterator[tuple[str, Companion]]:
    """The simulation as `onitama-companion sim` runs it, in this process: (base URL, companion)."""
    servers: list[Server] = []

    def serve(companion: Companion) -> None:
        servers.append(Server(create_app(companion), "127.0.0.1", 0).start())
        companion.public_url = servers[0].url

    with sim_companion(tmp_path / "games.db", public_url=None, before_start=serve) as table:
        try:
            yield servers[0].url, table.companion
        finally:
            servers[0].stop()


@pytest.fixture
def page(browser) -> Iterator:
    """A fresh tab; any script error on it fails the test. Tests ask for ``site`` before
    ``page``, so the tab closes before the server stops (its event stream would otherwise
    log failed reconnections)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.set_default_timeout(8000)
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"

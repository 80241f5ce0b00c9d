"""The invite to another table in Chromium: the host table's new-game form seats Blue at
another table, its page shows the invite (QR code and short code) and its OLED the short code;
the other table's page, on a phone-sized screen, takes the code and deals the same game; the
club page lists it. Screenshots in the test's folder (1400x900 and 390x844)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from companion.link.setup import open_links
from companion.web import Server, create_app

from browser_fixtures import browser  # noqa: F401  (fixture)
from two_tables import FAST, broker  # noqa: F401  (fixture)
from sim_table import sim_companion
from waiting import wait_for


@contextmanager
def served_table(db, broker_address: str) -> Iterator[tuple[str, object]]:
    """A companion on a simulated mat, its links to the broker, and its pages: (URL, companion)."""
    with sim_companion(db, **FAST) as table:
        links, _ = open_links(table.companion, broker=broker_address, port=0, workdir=db.parent,
                              invite_host="127.0.0.1")
        server = Server(create_app(table.companion), "127.0.0.1", 0).start()
        try:
            yield server.url, table.companion
        finally:
            server.stop()
            links and links.close()


# Two companions, a broker and Chromium: about 15 s, so with -m slow (the suite's time).
@pytest.mark.slow
def test_the_invite_on_the_pages_and_the_oled(tmp_path, broker, browser):
    shots = tmp_path / "shots"
    shots.mkdir()
    with served_table(tmp_path / "host.db", broker.address) as (host_url, host), \
            served_table(tmp_path / "guest.db", broker.address) as (guest_url, guest):
        wide = browser.new_context(viewport={"width": 1400, "height": 900})
        tab = wide.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(host_url + "/")
        tab.select_option("#ng-variant", "shadow")
        tab.select_option("#ng-blue-player", "table")
        tab.click("#new-game button[type=submit]")
        code = wait_for(lambda: tab.locator("#invite-code").text_content() or None, timeout=15)
        assert code.startswith("OT1:127.0.0.1:") and tab.locator("#invite-qr svg").count() == 1
        assert host.view(None)["game"]["table"] == ["blue"]
        # The OLED pages the code under the game's lines while the other table has not come.
        oled = wait_for(lambda: host.view(None)["oled"] if any("Invite" in line or "OT1" in line for line in host.view(None)["oled"]) else None, timeout=15)
        tab.locator("#invite").scroll_into_view_if_needed()
        tab.screenshot(path=str(shots / "host-invite-1400x900.png"))
        tab.set_viewport_size({"width": 390, "height": 844})
        tab.locator("#invite").scroll_into_view_if_needed()
        tab.screenshot(path=str(shots / "host-invite-390x844.png"))

        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        phone.goto(guest_url + "/")
        phone.fill("#join-code", "OT1:nowhere")
        phone.click("#join-table button[type=submit]")
        wait_for(lambda: "invite" in (phone.locator("#join-error").text_content() or ""), timeout=10)
        phone.fill("#join-code", code.lower())
        phone.click("#join-table button[type=submit]")
        game = wait_for(lambda: guest.view(None)["game"], timeout=20)
        assert game["table"] == ["red"] and game["variant"] == "shadow"
        # The guest's page shows the dealt game, and its OLED the other table's seat.
        wait_for(lambda: "Ninja" in (phone.locator("#setup").text_content() or ""), timeout=15)
        phone.screenshot(path=str(shots / "guest-joined-390x844.png"), full_page=True)
        # The club page lists the game the broker carries, read-only.
        club = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        club.goto(host_url + "/club")
        wait_for(lambda: club.reload() or "Way of the Shadow" in (club.locator("main").text_content() or ""),
                 timeout=20)
        club.screenshot(path=str(shots / "club-1400x900.png"))
        # Once the guest is there, the host's OLED no longer shows the invite.
        wait_for(lambda: not any("OT1" in line for line in host.view(None)["oled"]), timeout=15)
        assert not errors, errors
        print("\nscreenshots:", shots, "oled:", oled)

"""A table without a router: the OLED shows the table's Wi-Fi QR code before the seat codes
(read back from the simulated panel with a QR decoder, as a phone camera would), and without a
hotspot its pages are as before."""

from __future__ import annotations

import pytest
import zxingcpp

from companion.table.network import Hotspot, wifi_qr_payload
from sim_table import sim_companion
from waiting import wait_for

WIFI = Hotspot("Onitama-7KQD", "rM5fTU5vmQSR")
PAYLOAD = wifi_qr_payload(WIFI.ssid, WIFI.password)


def panel_code(hw) -> str | None:
    """The QR code on the simulated OLED's RAM, as a camera sees the panel (enlarged)."""
    found = zxingcpp.read_barcodes(hw.sim.i2c.image().convert("L").resize((512, 256), 0))
    return found[0].text if found else None


def press_c(companion, hw, expected: str) -> None:
    oled = companion.view(None)["oled"]
    companion.sim_button("C")
    wait_for(lambda: companion.view(None)["oled"] != oled and panel_code(hw) == expected
             if expected else companion.view(None)["oled"] != oled and panel_code(hw) is None)


@pytest.mark.parametrize("hotspot", [True, False])
def test_button_c_pages_wifi_then_each_seat(tmp_path, hotspot):
    options = {"wifi": WIFI} if hotspot else {}
    with sim_companion(tmp_path / "games.db", **options) as t:
        companion, hw = t.companion, t.hardware
        wait_for(lambda: companion.view(None)["oled"][0] == "Onitama" and panel_code(hw) is None)
        order = ([PAYLOAD] if hotspot else []) + [companion.join_url("red"), companion.join_url("blue")]
        for code in order:
            press_c(companion, hw, code)
        press_c(companion, hw, None)                       # and round to the game
        assert companion.view(None)["oled"][0] == "Onitama"
        assert (companion.wifi_qr is not None) == hotspot


def test_a_hidden_game_waiting_for_phones_shows_the_wifi_first(tmp_path):
    from test_shadow_table import SHADOW_START, join

    with sim_companion(tmp_path / "games.db", wifi=WIFI) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 5})
        hw.sim.set_pawns(SHADOW_START)
        wait_for(lambda: companion.view(None)["oled"][:2] == ["Wi-Fi", WIFI.ssid]
                 and panel_code(hw) == PAYLOAD)
        # C goes on to Red's code (not the Wi-Fi page again), then Blue's.
        press_c(companion, hw, companion.join_url("red"))
        press_c(companion, hw, companion.join_url("blue"))
        press_c(companion, hw, PAYLOAD)      # round to the game's own page: the Wi-Fi again...
        # ...until a phone holds a seat (it is on the Wi-Fi): then the free seat's code.
        assert join(companion, "red")["seat"] == "red"
        wait_for(lambda: companion.view(None)["oled"][0] == "Blue seat"
                 and panel_code(hw) == companion.join_url("blue"))


def test_the_wifi_password_reaches_no_view(tmp_path):
    with sim_companion(tmp_path / "games.db", wifi=WIFI) as t:
        companion, hw = t.companion, t.hardware
        press_c(companion, hw, PAYLOAD)
        for seat in (None, "red", "blue"):
            assert WIFI.password not in repr(companion.view(seat))
        # The OLED's text says which network; the picture others get is drawn from it.
        assert companion.view(None)["oled"] == ["Wi-Fi", WIFI.ssid, "Scan to join", "C: next page"]

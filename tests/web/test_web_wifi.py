"""The table's own Wi-Fi on the pages: the table page and the simulation page show its QR
code when the Pi is the access point, and nothing of it otherwise (docs/web.md: the code is
for everyone at the table; only those already on that network reach the pages)."""

from __future__ import annotations

import re

import pytest
import zxingcpp
from PIL import Image

from companion.table.network import Hotspot, wifi_qr_payload
from companion.web import create_app
from sim_table import sim_companion

WIFI = Hotspot("Onitama-7KQD", "rM5fTU5vmQSR")


@pytest.fixture(params=[True, False], ids=["hotspot", "router"])
def wifi_client(request, tmp_path):
    options = {"wifi": WIFI} if request.param else {}
    with sim_companion(tmp_path / "games.db", **options) as table:
        yield create_app(table.companion, secret_key=b"test").test_client(), request.param


def svg_code(page: str) -> str | None:
    """Decode the page's inline QR code: segno draws each row's dark runs as one path
    (``M x y``, ``m dx dy``, ``h n``), redrawn here, enlarged, for the decoder."""
    svg = re.search(r'<svg width="(\d+)" height="(\d+)".*?</svg>', page, re.S)
    if svg is None:
        return None
    scale = int(re.search(r'transform="scale\((\d+)\)"', svg.group(0)).group(1))
    size = int(svg.group(1)) // scale
    image = Image.new("L", (size, size), 255)
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?",
                               re.search(r' d="([^"]+)"', svg.group(0)).group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for dx in range(int(float(a))):
                image.putpixel((int(x) + dx, int(y)), 0)
            x += float(a)
    found = zxingcpp.read_barcodes(image.resize((size * 8, size * 8), 0))
    return found[0].text if found else None


@pytest.mark.parametrize("path", ["/", "/sim"])
def test_the_pages_show_the_wifi_code_only_with_the_hotspot(wifi_client, path):
    client, hotspot = wifi_client
    page = client.get(path).get_data(as_text=True)
    assert ("The table's Wi-Fi" in page) == hotspot
    assert (WIFI.ssid in page) == hotspot
    assert svg_code(page) == (wifi_qr_payload(WIFI.ssid, WIFI.password) if hotspot else None)
    assert WIFI.password not in page        # in the code for cameras, never as text


def test_the_wifi_box_names_onitama_local_only_when_it_is_announced(tmp_path):
    with sim_companion(tmp_path / "games.db", wifi=WIFI, public_url="http://10.42.0.1:8000") as table:
        app = create_app(table.companion, secret_key=b"test")
        client = app.test_client()
        page = client.get("/").get_data(as_text=True)
        assert "onitama.local" not in page and "<code>10.42.0.1:8000</code>" in page
        app.config["MDNS_NAME"] = "onitama.local"            # serve.py, once announced
        assert "<code>onitama.local</code>" in client.get("/").get_data(as_text=True)


def test_a_long_network_name_breaks_at_its_hyphen_beside_the_qr_code():
    from firmware import screens
    from companion.mat import oled
    lines = screens.wrap(oled.wifi_caption("Onitama-TEST"), 10, 5)
    assert "Onitama-" in lines and "TEST" in lines, lines

"""A table without a router: the nmcli commands install.sh --hotspot runs, the credentials
kept in the configuration, the WIFI: payload (read back from the OLED image with a QR
decoder), and the mDNS announcement of onitama.local (on loopback)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import zxingcpp
from hypothesis import given, settings, strategies as st

from companion.table.config import Config, ConfigError, load_config
from companion.table.network import (Hotspot, MdnsAnnouncer, hotspot_commands,
                                     hotspot_section, main, new_credentials, wifi_qr_payload,
                                     with_public_url)
from companion.mat.oled import wifi_caption
from firmware.screens import wifi_screen

ROOT = Path(__file__).resolve().parents[2]
PI_CONFIG = ROOT / "systemd" / "config.toml"


def test_the_nmcli_commands_exactly():
    assert hotspot_commands(Hotspot("Onitama-7KQD", "s3cret-pass")) == [
        ["nmcli", "connection", "delete", "onitama-hotspot"],
        ["nmcli", "connection", "add", "type", "wifi", "ifname", "wlan0", "con-name", "onitama-hotspot",
         "autoconnect", "yes", "ssid", "Onitama-7KQD"],
        ["nmcli", "connection", "modify", "onitama-hotspot",
         "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
         "ipv4.method", "shared", "ipv4.addresses", "10.42.0.1/24", "ipv6.method", "disabled",
         "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
         "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp",
         "wifi-sec.psk", "s3cret-pass", "connection.autoconnect-priority", "100"],
        ["nmcli", "connection", "up", "onitama-hotspot"],
    ]


def test_a_name_or_password_wpa2_cannot_take_is_refused():
    for ssid, password in (("", "12345678"), ("x" * 33, "12345678"), ("ok", "short"), ("ok", "x" * 64),
                           ("ok", "pässwörd")):
        with pytest.raises(ValueError):
            Hotspot(ssid, password)


def test_generated_credentials_differ_and_fit_the_oled():
    seen = set()
    for _ in range(300):
        hotspot = new_credentials()
        assert re.fullmatch(r"Onitama-[A-Z2-9]{4}", hotspot.ssid) and len(hotspot.password) == 12
        seen.add(hotspot.password)
        wifi_screen(wifi_qr_payload(hotspot.ssid, hotspot.password), wifi_caption(hotspot.ssid))  # raises if too big
    assert len(seen) == 300


# -- the WIFI: payload ---------------------------------------------------------------------------
def parse_wifi(payload: str) -> dict[str, str]:
    """A reader of the WIFI: format written from its description (ZXing's wiki), for the tests:
    fields split at unescaped ';', a backslash takes the next character literally."""
    assert payload.startswith("WIFI:") and payload.endswith(";;")
    fields, key, current, i, body = {}, None, "", 0, payload[5:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            current += body[i + 1]
            i += 2
            continue
        if ch == ":" and key is None:
            key, current = current, ""
        elif ch == ";":
            fields[key] = current
            key, current = None, ""
        else:
            current += ch
        i += 1
    return fields


def test_the_payload_in_the_standard_form():
    assert wifi_qr_payload("Onitama-7KQD", "s3cret-pass") == "WIFI:T:WPA;S:Onitama-7KQD;P:s3cret-pass;;"
    assert wifi_qr_payload("Café", None) == "WIFI:T:nopass;S:Café;;"
    assert wifi_qr_payload("a", "12345678", hidden=True) == "WIFI:T:WPA;S:a;P:12345678;H:true;;"


def test_every_special_character_is_escaped():
    assert wifi_qr_payload('a\\b;c,d:e"f', 'p\\;,:"') == 'WIFI:T:WPA;S:a\\\\b\\;c\\,d\\:e\\"f;P:p\\\\\\;\\,\\:\\";;'


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from('ab\\;,:"Z9 -'), min_size=1, max_size=20),
       st.text(alphabet=st.sampled_from('xy\\;,:"Q7 '), min_size=8, max_size=20))
def test_any_name_and_password_read_back(ssid, password):
    assert parse_wifi(wifi_qr_payload(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}


@pytest.mark.parametrize("ssid, password", [("Onitama-7KQD", "rM5fTU5vmQSR"), ('Bob\'s "Go";Club', 'a:b,c\\d;e')])
def test_a_phone_camera_reads_the_oled_code(ssid, password):
    image = wifi_screen(wifi_qr_payload(ssid, password), wifi_caption(ssid))
    assert image.size == (128, 64) and image.mode == "1"
    # As a camera sees the panel: enlarged, lit pixels light.
    found = zxingcpp.read_barcodes(image.convert("L").resize((512, 256), 0))
    assert [r.format for r in found] == [zxingcpp.BarcodeFormat.QRCode]
    assert parse_wifi(found[0].text) == {"T": "WPA", "S": ssid, "P": password}


def test_a_payload_too_big_for_the_panel_is_refused():
    with pytest.raises(ValueError, match="too big"):
        wifi_screen(wifi_qr_payload("x" * 32, "y" * 63), wifi_caption("x" * 32))


# -- the configuration ------------------------------------------------------------------------
def test_without_the_option_nothing_changes():
    config = load_config(PI_CONFIG)
    assert not config.hotspot and not config.announce_mdns
    assert Config().hotspot is False and Config().announce_mdns is False


@pytest.fixture
def nmcli(monkeypatch):
    """The commands the installer's network step runs, recorded instead of run."""
    ran: list[list[str]] = []

    def run(command, **kwargs):
        ran.append(command)
        return subprocess.CompletedProcess(command, 0, "", "")
    monkeypatch.setattr("companion.table.network.subprocess.run", run)
    return ran


def test_install_writes_the_credentials_once_then_keeps_them(tmp_path, nmcli):
    path = tmp_path / "config.toml"
    path.write_text(PI_CONFIG.read_text())
    assert main(["hotspot", "--config", str(path)]) == 0
    first = load_config(path)
    assert first.hotspot and first.announce_mdns and first.ssid.startswith("Onitama-")
    # No router, no default route: the join codes must name the hotspot's own address.
    assert first.public_url == "http://10.42.0.1:8080"
    assert nmcli == hotspot_commands(Hotspot(first.ssid, first.wifi_password, first.wifi_interface))
    assert main(["hotspot", "--config", str(path)]) == 0
    assert load_config(path) == first and path.read_text().count("[network]") == 1
    assert nmcli[4:] == nmcli[:4]


def test_a_dry_run_prints_the_commands_and_changes_nothing(tmp_path, nmcli, capsys):
    # README step 8 offers --dry-run to see the commands: a maker on an existing network
    # who tries it must keep that network (it wrote hotspot = true and the hotspot's
    # public_url into the live configuration: the next start showed a Wi-Fi code for a
    # network that does not exist and join codes to an address no phone could reach).
    path = tmp_path / "config.toml"
    path.write_text(PI_CONFIG.read_text())
    assert main(["hotspot", "--config", str(path), "--dry-run"]) == 0
    assert path.read_text() == PI_CONFIG.read_text() and nmcli == []
    out = capsys.readouterr().out
    assert "nmcli connection add type wifi ifname wlan0 con-name onitama-hotspot" in out
    assert "nothing written" in out


@pytest.mark.parametrize("text, expected", [
    ('[web]\nport = 80\n# public_url = "http://x"\n', '[web]\nport = 80\npublic_url = "U"\n'),
    ("[mat]\n\n[web]\nport = 80\n", '[mat]\n\n[web]\npublic_url = "U"\nport = 80\n'),
    ("[mat]\n", '[mat]\n\n[web]\npublic_url = "U"\n'),
])
def test_public_url_is_set_where_toml_reads_it(text, expected):
    assert with_public_url(text, "U") == expected


def test_a_public_url_the_maker_set_is_kept(tmp_path, nmcli):
    path = tmp_path / "config.toml"
    path.write_text('[web]\npublic_url = "http://table.example:9000"\n')
    assert main(["hotspot", "--config", str(path)]) == 0
    assert load_config(path).public_url == "http://table.example:9000"


def test_the_installer_never_prints_the_password(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(PI_CONFIG.read_text() + hotspot_section(Hotspot("Onitama-AB12", "Sup3rSecretPw")))
    done = subprocess.run([sys.executable, "-m", "companion.table.network", "hotspot", "--config", str(path),
                           "--dry-run"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0
    assert "Sup3rSecretPw" not in done.stdout + done.stderr
    assert "wifi-sec.psk '<password>'" in done.stdout and "Onitama-AB12" in done.stdout


def test_a_quoted_name_survives_the_config_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(hotspot_section(Hotspot('Bob\'s "Go" \\ Club', 'p"w\\d;123')))
    config = load_config(path)
    assert (config.ssid, config.wifi_password) == ('Bob\'s "Go" \\ Club', 'p"w\\d;123')


@pytest.mark.parametrize("text, problem", [
    ("[network]\nhotspot = true\n", "needs network.ssid and network.password"),
    ("[network]\nhotspot = \"yes\"\n", "network.hotspot has the wrong type"),
    ("[network]\nmdns = 1\n", "network.mdns has the wrong type"),
    ("[network]\nchannel = 6\n", "unknown key network.channel"),
])
def test_a_bad_network_section_is_refused(tmp_path, text, problem):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=problem):
        load_config(path)


def test_install_sh_runs_the_network_module_only_with_the_option():
    script = (ROOT / "systemd" / "install.sh").read_text()
    block = script[script.index('if [ "$HOTSPOT" = yes ]; then\n    echo "== the table'):]
    assert 'chmod 0640 "$CONF/config.toml"' in block
    assert '-m companion.table.network hotspot --config "$CONF/config.toml"' in block
    assert script.count("HOTSPOT=yes") == 1  # set by --hotspot alone


# -- mDNS ------------------------------------------------------------------------------------
def test_onitama_local_answers_on_loopback():
    from zeroconf import AddressResolver, Zeroconf

    announcer = MdnsAnnouncer(8123, ["127.0.0.1"], interfaces=["127.0.0.1"])
    announcer.start()
    listener = Zeroconf(interfaces=["127.0.0.1"])
    try:
        resolver = AddressResolver("onitama.local.")
        assert resolver.request(listener, 3000)
        assert resolver.parsed_addresses() == ["127.0.0.1"]
        info = listener.get_service_info("_http._tcp.local.", announcer.service_name, timeout=3000)
        assert info is not None and info.port == 8123 and info.server == "onitama.local."
    finally:
        listener.close()
        announcer.stop()
    announcer.stop()  # twice is harmless


def test_local_addresses_are_ipv4_addresses():
    import ipaddress

    from companion.table.network import local_addresses

    for address in local_addresses():  # empty on a machine without a default route
        assert ipaddress.ip_address(address).version == 4

"""A table without a router: the Pi as a Wi-Fi access point, its Wi-Fi QR code, and its name
on the local network.

- ``hotspot_commands()``: the exact ``nmcli`` calls that make NetworkManager run an access
  point (WPA2, the Pi at 10.42.0.1, DHCP for the phones). ``systemd/install.sh --hotspot``
  runs them through ``python -m companion.table.network hotspot``.
- ``new_credentials()``: a network name and password, generated once at install.
- ``wifi_qr_payload()``: the ``WIFI:`` text phone cameras join a network from.
- ``MdnsAnnouncer``: announces ``onitama.local`` (and the web page as an ``_http._tcp``
  service) with zeroconf, so the table page has a name to type.

Pure functions except the announcer and ``main``; the table service owns when they run.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import re
import secrets
import shlex
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Imported for real in MdnsAnnouncer.start: only a table that announces itself loads it.
    from zeroconf import ServiceInfo, Zeroconf

log = logging.getLogger(__name__)

CONNECTION = "onitama-hotspot"
HOTSPOT_ADDRESS = "10.42.0.1"
MDNS_NAME = "onitama"
# No 0/O, 1/l/I: the password may be read off the screen and typed.
_ALPHABET = "abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789"


@dataclass(frozen=True)
class Hotspot:
    ssid: str
    password: str
    interface: str = "wlan0"

    def __post_init__(self) -> None:
        if not 1 <= len(self.ssid.encode()) <= 32:
            raise ValueError("a Wi-Fi network name is 1 to 32 bytes")
        if not 8 <= len(self.password) <= 63 or not self.password.isascii():
            raise ValueError("a WPA2 password is 8 to 63 ASCII characters")


def new_credentials(rng: secrets.SystemRandom | None = None) -> Hotspot:
    """A fresh network name (``Onitama-XXXX``) and a 12-character password."""
    rng = rng or secrets.SystemRandom()
    tag = "".join(rng.choice("ACDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(4))
    return Hotspot(f"Onitama-{tag}", "".join(rng.choice(_ALPHABET) for _ in range(12)))


def hotspot_commands(hotspot: Hotspot) -> list[list[str]]:
    """The nmcli calls, in order, that turn ``hotspot.interface`` into an access point.

    Re-running them replaces the connection (the delete may fail harmlessly when there is none:
    the installer ignores its exit status). ``ipv4.method shared`` makes NetworkManager run the
    DHCP server and hand out 10.42.0.x; WPA2-only with CCMP because some phones refuse to join
    the Pi's radio with TKIP offered. Autoconnect with a high priority brings it back at boot.
    """
    return [
        ["nmcli", "connection", "delete", CONNECTION],
        ["nmcli", "connection", "add", "type", "wifi", "ifname", hotspot.interface,
         "con-name", CONNECTION, "autoconnect", "yes", "ssid", hotspot.ssid],
        ["nmcli", "connection", "modify", CONNECTION,
         "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
         "ipv4.method", "shared", "ipv4.addresses", f"{HOTSPOT_ADDRESS}/24",
         "ipv6.method", "disabled",
         "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
         "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp",
         "wifi-sec.psk", hotspot.password,
         "connection.autoconnect-priority", "100"],
        ["nmcli", "connection", "up", CONNECTION],
    ]


def _escape(text: str) -> str:
    # The WIFI: format (ZXing's de-facto standard) escapes these five with a backslash.
    return "".join("\\" + ch if ch in '\\;,:"' else ch for ch in text)


def wifi_qr_payload(ssid: str, password: str | None, *, hidden: bool = False) -> str:
    """``WIFI:T:WPA;S:<ssid>;P:<password>;;``, what a phone camera joins a network from;
    ``password=None`` is an open network (``T:nopass``)."""
    if password is None:
        fields = f"T:nopass;S:{_escape(ssid)};"
    else:
        fields = f"T:WPA;S:{_escape(ssid)};P:{_escape(password)};"
    return f"WIFI:{fields}{'H:true;' if hidden else ''};"


class MdnsAnnouncer:
    """Answers ``<name>.local`` and announces the web page as an ``_http._tcp`` service.

    ``start()`` registers (it sends a few multicast packets and returns within a second);
    ``stop()`` says goodbye and closes the sockets. ``interfaces`` limits it (a list of
    addresses, e.g. ``["127.0.0.1"]`` in tests); by default zeroconf uses every interface.
    """

    def __init__(self, port: int, addresses: list[str], *, name: str = MDNS_NAME,
                 interfaces: list[str] | None = None):
        self.hostname = f"{name}.local."
        self.port = port
        self.addresses = addresses
        self.service_name = f"Onitama companion ({name})._http._tcp.local."
        self._interfaces = interfaces
        self._zeroconf: Zeroconf | None = None
        self._info: ServiceInfo | None = None

    def start(self) -> None:
        from zeroconf import InterfaceChoice, ServiceInfo, Zeroconf

        self._info = ServiceInfo(
            "_http._tcp.local.", self.service_name, port=self.port,
            addresses=[ipaddress.ip_address(a).packed for a in self.addresses],
            server=self.hostname, properties={"path": "/"})
        zeroconf = self._zeroconf = Zeroconf(interfaces=self._interfaces or InterfaceChoice.All)
        try:
            zeroconf.register_service(self._info, allow_name_change=True)
        except Exception:
            zeroconf.close()
            self._zeroconf = None
            raise
        log.info("announced %s (%s) on mDNS", self.hostname.rstrip("."), ", ".join(self.addresses))

    def stop(self) -> None:
        if self._zeroconf is None or self._info is None:
            return
        try:
            self._zeroconf.unregister_service(self._info)
        finally:
            self._zeroconf.close()
            self._zeroconf = None


def local_addresses() -> list[str]:
    """This machine's outward IPv4 address (the one a default route would use), if any."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # chooses an interface; sends nothing
            return [s.getsockname()[0]]
        except OSError:
            return []


# -- the installer's side ---------------------------------------------------------------------
def hotspot_section(hotspot: Hotspot) -> str:
    """The configuration file section ``install.sh --hotspot`` appends."""
    def quote(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return ("\n[network]\n# Written by install.sh --hotspot: this Pi is the table's Wi-Fi access point.\n"
            f"hotspot = true\nssid = {quote(hotspot.ssid)}\npassword = {quote(hotspot.password)}\n"
            f"interface = {quote(hotspot.interface)}\n")


def with_public_url(text: str, url: str) -> str:
    """The configuration text with ``[web] public_url`` set to ``url`` (a commented-out
    example line is replaced): on its own network the Pi has no default route, so the join
    codes must name its hotspot address."""
    line = f'public_url = "{url}"'
    if re.search(r"(?m)^\s*#\s*public_url\s*=.*$", text):
        return re.sub(r"(?m)^\s*#\s*public_url\s*=.*$", line, text, count=1)
    if re.search(r"(?m)^\[web\]\s*$", text):
        return re.sub(r"(?m)^\[web\]\s*$", f"[web]\n{line}", text, count=1)
    return text + f"\n[web]\n{line}\n"


def _hotspot(config_path: Path, dry_run: bool) -> int:
    from .config import ConfigError, load_config

    try:
        config = load_config(config_path)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if config.ssid and config.wifi_password:
        hotspot = Hotspot(config.ssid, config.wifi_password, config.wifi_interface)
        print(f"hotspot: keeping the network {hotspot.ssid!r} from {config_path}")
    else:
        hotspot = new_credentials()
        if not dry_run:     # a dry run only shows: the Pi stays on the network it joined
            with config_path.open("a", encoding="utf-8") as f:
                f.write(hotspot_section(hotspot))
        print(f"hotspot: new network {hotspot.ssid!r}, "
              + ("nothing written (--dry-run)" if dry_run else f"written to {config_path}"))
    if config.public_url is None:
        url = f"http://{HOTSPOT_ADDRESS}:{config.port}"
        if not dry_run:
            config_path.write_text(with_public_url(config_path.read_text(encoding="utf-8"), url),
                                   encoding="utf-8")
        print(f"hotspot: the join codes {'would ' if dry_run else ''}point to {url} (web.public_url)")
    for command in hotspot_commands(hotspot):
        shown = shlex.join(command).replace(shlex.quote(hotspot.password), "'<password>'")
        print(f"  {shown}")
        if dry_run:
            continue
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0 and command[2] != "delete":
            print(f"error: {shown} failed: {done.stderr.strip()}", file=sys.stderr)
            return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.table.network",
                                     description="set up the table's own Wi-Fi (used by install.sh --hotspot)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("hotspot", help="generate the network's name and password once, then run nmcli")
    p.add_argument("--config", required=True, type=Path, help="the companion's config.toml")
    p.add_argument("--dry-run", action="store_true",
                   help="print the nmcli commands; run nothing and write nothing")
    args = parser.parse_args(argv)
    return _hotspot(args.config, args.dry_run)


if __name__ == "__main__":
    sys.exit(main())

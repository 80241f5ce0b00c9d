"""The companion process: ``onitama-companion serve`` on the Pi, ``onitama-companion sim`` on a
desktop. Wires the configuration, the hardware (real or simulated), the save file, the
game-owning service and the web server, and shuts them down in order on SIGTERM or Ctrl-C:
stop serving, stop the game thread, LEDs off and OLED blank, close the save file.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import socket
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from .table import collector
from .table.config import Config, ConfigError, default_state, load_config
from .table.network import HOTSPOT_ADDRESS, Hotspot, MdnsAnnouncer, local_addresses
from .table.opponent import Thinking
from .table.service import Companion
from .table.store import open_store


log = logging.getLogger(__name__)


def _parser(sim: bool) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=f"onitama-companion {'sim' if sim else 'serve'}",
        description="the desktop simulation: the companion on simulated hardware" if sim else
        "the companion service (the Pi's systemd unit runs this)")
    p.add_argument("--config", help="a TOML configuration file (see companion/table/config.py)")
    p.add_argument("--state", help="the folder for saved games")
    p.add_argument("--host", help="the address to serve on")
    p.add_argument("--port", type=int, help="the port to serve on (0: any free port)")
    p.add_argument("--pinmap", help="another pin map (TOML)")
    p.add_argument("--broker", metavar="HOST:PORT",
                   help="the MQTT broker for games with another table (default: the config's, "
                        "else this table's own mosquitto when installed)")
    p.add_argument("--table-seat", choices=("red", "blue"),
                   help="start a base game whose SEAT is played at another table; print its invite")
    p.add_argument("--join", metavar="INVITE", help="take another table's invite (OT1:...)")
    p.add_argument("--record-trace", metavar="FILE",
                   help="record what the mat does as a trace (see 'onitama-companion trace')")
    if sim:
        p.add_argument("--no-browser", action="store_true", help="do not open the page")
    return p


def _public_url(config: Config, host: str, port: int) -> str:
    if config.public_url:
        return config.public_url.rstrip("/")
    if host not in ("0.0.0.0", "::", ""):
        return f"http://{host}:{port}"
    # Serving on every interface: name the address phones on the table's network can reach.
    # A UDP "connect" only chooses the outgoing interface; it sends nothing.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
        except OSError:
            address = "127.0.0.1"
    return f"http://{address}:{port}"


def _hotspot(config: Config) -> Hotspot | None:
    """The table's own Wi-Fi, when this Pi is its access point (the OLED and pages show it)."""
    if not (config.hotspot and config.ssid and config.wifi_password):
        return None
    return Hotspot(config.ssid, config.wifi_password, config.wifi_interface)


def _announce(config: Config, port: int) -> MdnsAnnouncer | None:
    """``onitama.local`` on mDNS, when configured. The table works without a name to type:
    a failure is logged, never fatal."""
    if not config.announce_mdns:
        return None
    announcer = MdnsAnnouncer(port, [HOTSPOT_ADDRESS] if config.hotspot else local_addresses())
    try:
        announcer.start()
    except Exception:
        log.exception("could not announce onitama.local on mDNS; the table page is at its address")
        return None
    return announcer


def _config(args: argparse.Namespace, sim: bool) -> tuple[Config, Hotspot | None] | None:
    """The configuration file's values under the command line's, or None (said) when the file
    is wrong."""
    try:
        config = load_config(args.config, Config(hardware="sim" if sim else "pi",
                                                 host="127.0.0.1" if sim else "0.0.0.0"))
        wifi = _hotspot(config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    except ValueError as exc:       # a Wi-Fi name or password WPA2 cannot use (network.Hotspot)
        print(f"error: {args.config}: [network] {exc}", file=sys.stderr)
        return None
    if sim:
        config = config.with_(hardware="sim")
    return config.with_(host=args.host, port=args.port, tables_broker=args.broker,
                        pinmap=Path(args.pinmap) if args.pinmap else None), wifi


def run(argv: list[str], sim: bool) -> int:
    args = _parser(sim).parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    started = time.monotonic()
    loaded = _config(args, sim)
    if loaded is None:
        return 2
    config, wifi = loaded

    # Imported here so that `onitama-companion perft` and friends start without them.
    from firmware.hardware import make_hardware
    from companion.ai.memory import for_model, set_budget
    from firmware.pinmap import PinMapError, load_pinmap
    from companion.web.app import create_app
    from companion.web.server import Server

    try:
        pinmap = load_pinmap(config.pinmap)
    except PinMapError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    state = Path(args.state) if args.state else default_state(sim)
    # A full or failing disk is waited out (and said, in the log); only a file SQLite calls
    # damaged is set aside. Stopped while waiting: nothing was opened, nothing to close.
    store = open_store(state / "games.db", stop=stop)
    if store is None:
        return 0
    hardware = make_hardware(config.hardware, pinmap)
    # The computer's tables sized for this board's memory (companion/ai/memory.py).
    try:
        set_budget(for_model(hardware.model.name if hardware.model else None))
    except ValueError as exc:       # ONITAMA_ENDGAME_PIECES unknown, or beyond this machine
        hardware.close()
        store.close()
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # Each base game's exact endgames are built at its deal (companion/ai/dealtables.py).
    companion = Companion(hardware, store, settle=config.settle, sets=config.sets, computer=Thinking(endgames=True),
                          record_trace=Path(args.record_trace) if args.record_trace else None,
                          wifi=wifi)
    app = create_app(companion)
    server = Server(app, config.host, config.port)
    announcer: MdnsAnnouncer | None = None
    tables: tuple[Any, Any] = (None, None)
    try:
        server.start()
        announcer = _announce(config, server.port)
        app.config["MDNS_NAME"] = None if announcer is None else "onitama.local"    # the Wi-Fi box
        companion.public_url = _public_url(config, server.host, server.port)
        companion.start()
        _print_links(companion, app, sim)
        tables = _open_tables(companion, config, args, sim, state)
        # What start-up made (modules, card and endgame tables, the app) lives as long as
        # the process: out of the cyclic collector's reach, whose full collections would
        # otherwise scan it all inside a scan's recognizer call (docs/recognizer-hypotheses.md,
        # session 36). From here the game thread runs the collector's passes between its
        # events, not inside a scan's recognizer call (session 39).
        gc.collect()
        gc.freeze()
        collector.take_over()
        print(f"ready in {time.monotonic() - started:.2f} s", flush=True)
        if sim and not args.no_browser and (os.environ.get("DISPLAY") or sys.platform == "darwin"):
            webbrowser.open(f"{companion.public_url}/sim")
        stop.wait()
    finally:
        if announcer is not None:
            try:
                announcer.stop()
            except Exception:
                log.exception("mDNS: the goodbye failed")
        server.stop()
        _close_tables(*tables)
        companion.close()
        hardware.close()
        store.close()
    return 0


def _close_tables(links: Any, own_broker: Any) -> None:
    """The links to other tables, then the broker this table started."""
    if links is not None:
        links.close()
    if own_broker is not None:
        own_broker.stop()


def _print_links(companion: Companion, app: Any, sim: bool) -> None:
    from companion.web.guard import table_link
    url = companion.public_url or ""
    print(f"table:     {url}/", flush=True)
    if sim:
        print(f"sim:       {url}/sim", flush=True)
        # Only this machine is the table; another device becomes it through this link.
        print(f"table link (another device as the table): {table_link(app, url)}", flush=True)
    # Each seat's join link works once (then the OLED shows the next); a phone on the same
    # network opens it, or scans the QR code on the OLED or the simulation page.
    for seat in ("red", "blue"):
        if companion.joinable(seat):          # the computer's seat has no join link
            print(f"{seat + ' seat:':<11}{companion.join_url(seat)}", flush=True)


def _open_tables(companion: Companion, config: Config, args: argparse.Namespace, sim: bool,
                 state: Path) -> tuple[Any, Any]:
    """The links to other tables (docs/tables.md) and the broker this table started, if any;
    a game dealt with a seat at another table (its invite printed), or one joined."""
    from companion.link.setup import open_links
    url = companion.public_url or ""
    links, own_broker = open_links(
        companion, broker=config.tables_broker, port=config.tables_port,
        workdir=state / "mosquitto", bind="127.0.0.1" if sim else "0.0.0.0",
        # A simulation starts a broker only to host (a desktop is no table's hub).
        embedded=not sim or bool(args.table_seat),
        invite_host=config.tables_invite_host
        or ("127.0.0.1" if sim else urlparse(url).hostname or "127.0.0.1"))
    if links is not None and args.table_seat:
        companion.submit(None, {"type": "new_game", "way": "base", "table": [args.table_seat]})
        print(f"invite:    {_wait_invite(links)}", flush=True)
    if links is not None and args.join:
        print(f"joined:    game {links.join(args.join)['game']}", flush=True)
    return links, own_broker


def _wait_invite(links) -> str:
    """The invite of the game just dealt (its link opens on the links' thread)."""
    for _ in range(100):
        code = links.invite_code()
        if code:
            return code
        time.sleep(0.05)
    return "(none yet: see the table page)"


def main(argv: list[str]) -> int:
    return run(argv, sim=False)


def main_sim(argv: list[str]) -> int:
    return run(argv, sim=True)

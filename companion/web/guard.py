"""What every request passes before a page sees it, and what every response carries.

- **Host.** A page on another site can make a browser send requests here under the other
  site's name (DNS rebinding: ``evil.example`` made to resolve to the companion). So a request
  must name the companion in ``Host``: the host of its public URL or of the address it is
  bound to, ``localhost``, the machine's hostname (and ``.local``), ``onitama.local``, or an IP
  address. An IP literal cannot be a rebinding: the browser connected to that very address,
  and a page's origin then *is* that address. Anything else gets 421.
- **Headers.** A Content-Security-Policy allowing only this site's own scripts, styles,
  pictures and connections, and no framing; ``nosniff``; no ``Referer`` (a seat's page
  must never hand its URL to anyone).
- **The table.** In the simulation the desktop stands for the physical table: its buttons and
  hands (``/sim``), the join codes it shows, a new game. Those answer only to the machine the
  simulation runs on (a loopback peer address: every 127.0.0.0/8 and ::1 source comes from
  this machine, since Linux drops such packets arriving from a network) or to a browser that
  opened the table link the simulation printed on its terminal (``?table=SECRET``: a secret
  made at start, kept in the signed session cookie once used). Anyone else gets the OLED
  picture drawn from its text lines (``public.oled_png``), as on the Pi: never a join code.
- **Sizes.** A seat's responses and stream messages are padded (``padding.py``).
- **Ids.** A number in a URL that no save file can hold (SQLite's integers are 64-bit) names
  nothing: 404, before it reaches the store.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, redirect, request, session

from .inputs import BadInput
from .padding import pad_response
from .streams import StreamsFull

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
TABLE_PARAM = "table"       # ?table=SECRET
TABLE_SESSION = "table"     # the session field set once the secret was shown
# The endpoints standing for the physical table, besides the whole simulation blueprint.
TABLE_ENDPOINTS = {"public.new_game"}
MAX_ID = 2**63 - 1


def install(app: Flask) -> None:
    """Registers the checks and headers on ``app`` (before its blueprints' own hooks)."""
    app.config.setdefault("SERVED_HOSTS", set())
    app.config["TABLE_SECRET"] = secrets.token_urlsafe(16)
    app.before_request(_check_host)
    app.before_request(_ids_in_range)
    app.before_request(_table_link)
    app.before_request(_table_only)
    app.after_request(_headers)
    app.register_error_handler(StreamsFull, _streams_full)


def table_link(app: Flask, base_url: str) -> str:
    """The link that makes a browser the table (the simulation prints it on its terminal)."""
    return f"{base_url.rstrip('/')}/sim?{TABLE_PARAM}={app.config['TABLE_SECRET']}"


# -- Host --------------------------------------------------------------------------------------

def _own_names() -> set[str]:
    hostname = socket.gethostname().lower()
    names = {"localhost", "onitama.local", hostname, f"{hostname}.local"}
    names |= {h.lower() for h in current_app.config["SERVED_HOSTS"]}
    public_url = current_app.extensions["companion"].public_url
    if public_url:
        names.add((urlsplit(public_url).hostname or "").lower())
    return names


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _check_host():
    try:
        host = urlsplit("//" + request.host).hostname
    except ValueError:
        host = None
    if not host or not (_is_ip(host) or host.lower().rstrip(".") in _own_names()):
        raise BadInput("this companion does not answer to that name (Host)", 421)


def _ids_in_range():
    for name, value in (request.view_args or {}).items():
        if isinstance(value, int) and not 0 <= value <= MAX_ID:
            raise BadInput(f"there is no {name.replace('_', ' ')} {value}", 404)


# -- the table ---------------------------------------------------------------------------------

def is_table() -> bool:
    """Whether this request comes from the table: this machine, or the table link's cookie."""
    try:
        peer = ipaddress.ip_address(request.remote_addr or "")
    except ValueError:
        peer = None
    if peer is not None:
        mapped = getattr(peer, "ipv4_mapped", None)
        if (mapped or peer).is_loopback:
            return True
    held = session.get(TABLE_SESSION)
    return isinstance(held, str) and hmac.compare_digest(held, current_app.config["TABLE_SECRET"])


def _table_link():
    given = request.args.get(TABLE_PARAM)
    if given is None or request.method != "GET":
        return None
    if not hmac.compare_digest(given.encode(), current_app.config["TABLE_SECRET"].encode()):
        raise BadInput("this table link is not (or no longer) valid", 403)
    session.permanent = True
    session[TABLE_SESSION] = given
    # Off the address bar and out of the history at once.
    return redirect(request.path, 303)


def _table_only():
    companion = current_app.extensions["companion"]
    if companion.mode != "sim" or is_table():
        return None
    endpoint = request.endpoint or ""
    if endpoint.startswith("sim.") or endpoint in TABLE_ENDPOINTS:
        raise BadInput("only the table answers this: the machine the simulation runs on, "
                       "or a browser that opened the table link it printed", 403)
    return None


# -- responses ---------------------------------------------------------------------------------

def _headers(response):
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.blueprint == "phones":
        pad_response(response)
    return response


def _streams_full(error: StreamsFull):
    response = jsonify(error=str(error))
    response.status_code = 503
    response.headers["Retry-After"] = str(error.retry_after)
    return response

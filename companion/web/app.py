"""The Flask app: the public table page, the simulation page, the game list and their APIs.

Cross-site protection. The companion has no accounts, so any page a player's browser opens
could otherwise post to it. Every POST must

- carry ``Content-Type: application/json``: an HTML form cannot send that type, and a script
  on another site cannot send it without a CORS preflight, which this app never answers; and
- come from this site: when the browser sends ``Origin`` (or, failing that, ``Referer``), its
  host must equal the ``Host`` the request was sent to.

Refused requests get 415 or 403 with a JSON ``{"error": ...}``, like every other bad request.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from companion.table.errors import REFUSALS

from . import guard
from .errors import status_of
from .inputs import BadInput
from .phones import phones
from .public import TableService, public
from .replay import replay
from .sim import sim
from .streams import Streams


MAX_BODY = 4096


def create_app(companion: TableService, *, secret_key: bytes | None = None) -> Flask:
    """The web app of ``companion`` (a ``companion.table.service.Companion``, built and
    started by the caller: importing the web layer loads no hardware driver)."""
    app = Flask(__name__)
    app.secret_key = secret_key or secrets.token_bytes(32)
    # Every request body is a small JSON object (a new game's is the largest, well under 1 kB):
    # Werkzeug refuses anything longer with 413 as it reads, declared length or not.
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    assert isinstance(app.json, DefaultJSONProvider)   # Flask's own, which has sort_keys
    app.json.sort_keys = False
    app.extensions["companion"] = companion
    app.extensions["streams"] = Streams()
    guard.install(app)     # Host check, the table's controls, security headers, padding
    app.before_request(_same_site_posts)
    app.before_request(_starting)
    app.register_error_handler(BadInput, lambda e: (jsonify(error=e.message), e.status))
    for root in REFUSALS:
        app.register_error_handler(root, lambda e: (jsonify(error=str(e)), status_of(e)))
    app.register_error_handler(HTTPException, _http_error)
    app.register_blueprint(public)
    app.register_blueprint(replay)
    app.register_blueprint(sim)
    app.register_blueprint(phones)
    return app


def _starting() -> ResponseReturnValue | None:
    """Until the service has its first views (the server starts first, to learn its
    address), every page answers a "starting" page that reloads itself, and the API a 503."""
    view = current_app.extensions["companion"].view(None)
    if request.endpoint == "static" or not view.get("starting"):
        return None
    headers = {"Retry-After": "1", "Cache-Control": "no-store"}
    if request.path.startswith(("/api/", "/seat/")) or request.path.endswith("/events"):
        return jsonify(error="the companion is starting: try again in a moment"), 503, headers
    return render_template("starting.html", mode=None), 503, headers


def _same_site_posts():
    if request.method != "POST":
        return None
    if request.mimetype != "application/json":
        raise BadInput("POST bodies must be JSON (Content-Type: application/json)", 415)
    source = request.headers.get("Origin") or request.headers.get("Referer")
    # "null" is what a sandboxed frame or a file:// page sends: never this site.
    if source is not None and (source == "null" or urlsplit(source).netloc != request.host):
        raise BadInput("cross-site request refused", 403)
    return None


def _http_error(error: HTTPException):
    # JSON for the API and the streams; pages get the same short text, which browsers show.
    return jsonify(error=error.description or error.name), error.code

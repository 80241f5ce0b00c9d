"""The public side: the table page for spectators, game set-up, the game list and records,
and the OLED picture."""

from __future__ import annotations

import json
import time
from functools import cache
from typing import Any, Protocol
from urllib.parse import urlencode

import segno
from flask import Blueprint, Response, current_app, jsonify, render_template, request

from markupsafe import Markup

from companion.rules.cards import CARDS
from companion.rules.results import result_words
from companion.rules.variants import example_conditional_cards
from companion.rules.ways import WAYS
from companion.table.computer import LEVELS
from companion.table.viewtypes import ListedGame, Reply, SimState, View

from . import guard, inputs
from .inputs import BadInput
from .streams import oled_key

public = Blueprint("public", __name__)

# How the pages name the ways of playing (the registry's titles).
VARIANT_NAMES = {name: way.title for name, way in WAYS.items()}
GAMES_PAGE = 50     # games per page of the list


class TableService(Protocol):
    """What the web layer asks of the table service (``companion.table.service.Companion``).
    Typed here so that the web layer never imports the service, nor the drivers below it."""
    mode: str
    public_url: str | None
    wifi_qr: tuple[str, str] | None     # (network name, WIFI: payload): the table's own Wi-Fi

    @property
    def closed(self) -> bool: ...
    def view(self, seat: str | None) -> View: ...
    def subscribe(self, seat: str | None) -> Any: ...
    def submit(self, seat: str | None, request: Any, timeout: float = 5.0) -> Reply: ...
    def redeem(self, token: str) -> dict[str, str]: ...
    def pending(self, pending_id: str, withdraw: bool = False) -> dict[str, str | None]: ...
    def seat_of(self, session: str | None) -> str | None: ...
    def why_lost(self, session: str | None) -> str | None: ...
    def join_url(self, seat: str) -> str: ...
    def joinable(self, seat: str) -> bool: ...
    def games(self, **query: Any) -> list[ListedGame]: ...
    def record(self, game_id: int) -> dict[str, Any]: ...
    def oled_png(self, *, for_table: bool = True) -> bytes: ...
    def sim_state(self) -> SimState: ...
    def sim_place(self, square: str, noisy: bool = False) -> None: ...
    def sim_lift(self, square: str, noisy: bool = False) -> None: ...
    def sim_button(self, name: str, long: bool = False) -> None: ...


def companion() -> TableService:
    service: TableService = current_app.extensions["companion"]
    return service


def ways() -> list[dict[str, Any]]:
    """Every way of playing as the pages use it (``GET /api/ways``, and the pages' boot data)."""
    return [way.as_dict() for way in WAYS.values()]


def json_body() -> object:
    """The request's JSON body; a body that does not parse is a 400 naming the problem."""
    try:
        return json.loads(request.get_data(cache=False) or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadInput(f"the body is not valid JSON: {exc}") from None
    except RecursionError:
        # Brackets nested deeper than the decoder goes: no request of ours looks like that.
        raise BadInput("the body is not valid JSON: nested too deeply") from None


@public.app_context_processor
def _names() -> dict:
    return {"variant_names": VARIANT_NAMES}


@public.app_template_filter("result_text")
def result_text(result: dict | None) -> str:
    words = result_words(result)
    return "not finished" if words is None else words["sentence"]


@public.app_template_filter("when")
def when(created: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(created))


@cache
def card_patterns() -> dict:
    """Every card a game can be dealt (the official table and the example conditional
    cards), as the pages draw them: offsets from the holder's side."""
    cards = list(CARDS) + [c for c in example_conditional_cards() if c.name not in CARDS]
    return {c.name: c.as_dict() for c in cards}


def wifi_svg() -> Markup | None:
    """The table's own Wi-Fi as a QR code, when the Pi is the access point. Shown to everyone:
    it is meant for everyone at the table, and only those already on that network reach the
    pages (docs/web.md)."""
    wifi = companion().wifi_qr
    if wifi is None:
        return None
    return Markup(segno.make(wifi[1], error="L").svg_inline(scale=4, border=2, title=f"Wi-Fi {wifi[0]}"))


def page_context() -> dict:
    wifi = companion().wifi_qr
    return {"mode": companion().mode, "cards": card_patterns(), "view": companion().view(None),
            "ways": ways(), "levels": LEVELS, "wifi_svg": wifi_svg(),
            "wifi_ssid": wifi[0] if wifi else None, "mdns_name": current_app.config.get("MDNS_NAME"),
            "address": (companion().public_url or "").split("://", 1)[-1]}


@public.get("/api/ways")
def ways_list():
    return jsonify(ways())


@public.get("/")
def table_page():
    return render_template("table.html", **page_context())


@public.get("/api/view")
def public_view():
    return jsonify(companion().view(None))


@public.get("/events")
def public_events():
    streams, c = current_app.extensions["streams"], companion()
    return streams.response(streams.views(c, None, {"oled": lambda: oled_key(c)}))


@public.post("/api/new-game")
def new_game():
    # The service's refusal (a card it does not know...) becomes a JSON 4xx in app.py.
    return jsonify(companion().submit(None, inputs.new_game(json_body())))


def games_query() -> dict:
    """The list's search from the query string: ``before`` (a game id: the page after the one
    ending there), ``mode`` (a variant) and ``date`` (YYYY-MM-DD, a day on the table's clock)."""
    query: dict = {"limit": GAMES_PAGE}
    before = request.args.get("before", "").strip()
    if before:
        if not before.isdigit():
            raise BadInput("before is a game number")
        query["before"] = int(before)
    mode = request.args.get("mode", "").strip()
    if mode:
        if len(mode) > 40:
            raise BadInput("mode is a way of playing, such as base or wind")
        query["mode"] = mode
    date = request.args.get("date", "").strip()
    if date:
        try:
            day = time.strptime(date, "%Y-%m-%d")
        except ValueError:
            raise BadInput("date is a day as YYYY-MM-DD") from None
        query["date_from"] = time.mktime((*day[:3], 0, 0, 0, 0, 0, -1))
        query["date_to"] = time.mktime((day[0], day[1], day[2] + 1, 0, 0, 0, 0, 0, -1))
    return query


def next_page(games: list[ListedGame]) -> str | None:
    """The query string of the next (older) page, or None on the last one."""
    if len(games) < GAMES_PAGE:
        return None
    args = {k: v for k, v in request.args.items() if k in ("mode", "date") and v}
    return urlencode({**args, "before": games[-1]["id"]})


@public.get("/games")
def games_page():
    games = companion().games(**games_query())
    return render_template("games.html", games=games, mode=companion().mode,
                           next_page=next_page(games), search=request.args,
                           modes=list(VARIANT_NAMES))


@public.get("/api/games")
def games_list():
    # A page of the list (newest first); the next one is in the Link header.
    games = companion().games(**games_query())
    # Each result with its words (companion.rules.results), as the pages say it.
    response = jsonify([{**game, "result_words": result_words(game.get("result"))} for game in games])
    if (page := next_page(games)) is not None:
        response.headers["Link"] = f'<{request.path}?{page}>; rel="next"'
    return response


@public.get("/games/<int:game_id>/record.json")
def game_record(game_id: int):
    # NotFound -> 404; a game that is damaged or does not replay -> 409 with why (app.py).
    record = companion().record(game_id)
    body = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="onitama-game-{game_id}.json"'})


@public.get("/oled.png")
def oled_png():
    # The picture changes with every screen: never cached, the pages add a query to refetch.
    # A join code on it is the table's alone (guard.py): others get the OLED's text lines.
    return Response(companion().oled_png(for_table=guard.is_table()), mimetype="image/png",
                    headers={"Cache-Control": "no-store"})


@public.get("/api/tables/invite")
def tables_invite():
    """The invite of a game with another table, for the host table alone (it holds the game's
    key): its short code and QR code. 404 when there is none."""
    _table_itself()
    tables = getattr(companion(), "tables", None)
    code = None if tables is None else tables.invite_code()
    if code is None:
        raise BadInput("no game with another table is hosted here now", 404)
    return jsonify(code=code, svg=segno.make(code, error="M").svg_inline(scale=4, border=2,
                                                                           title="Invite"))


@public.post("/api/tables/join")
def tables_join():
    """The table takes another table's invite: the same game is dealt here."""
    _table_itself()
    tables = getattr(companion(), "tables", None)
    if tables is None:
        raise BadInput("this companion has no broker for games with another table", 409)
    body = inputs.json_object(json_body(), {"code"})
    return jsonify(tables.join(body.get("code")))


@public.get("/club")
def club_page():
    """Every live game on this table's broker, read-only: for a club's screen."""
    return render_template("club.html", games=_club_games(), variant_names={w.name: w.title for w in WAYS.values()})


@public.get("/api/club")
def club_list():
    return jsonify(_club_games())


def _club_games() -> list[dict[str, Any]]:
    tables = getattr(companion(), "tables", None)
    if tables is None:
        raise BadInput("this companion has no broker for games with another table", 409)
    return list(tables.club_games())


def _table_itself() -> None:
    # On the Pi too: the invite holds the game's key, and a phone on the network is no table.
    if not guard.is_table():
        raise BadInput("only the table answers this", 403)


def base_url() -> str:
    """The address phones should open: the one the service found on the table's network
    (serving on every interface), else the one this browser used."""
    return (companion().public_url or request.host_url).rstrip("/")

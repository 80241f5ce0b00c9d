"""The simulation page: the mat on the desktop, driven through the simulated switches.

Every route here answers 404 unless the companion runs on simulated hardware. The page also
stands in for the OLED's join codes: it shows each seat's one-time join URL (a link and a QR
code), which no other page ever gets.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, jsonify, render_template

from companion.rules.referee import SEATS

from . import inputs
from .inputs import BadInput
from .public import base_url, companion, json_body, page_context
from .streams import SIM_PERIOD_S, oled_key

sim = Blueprint("sim", __name__, url_prefix="/sim")

LINK_NAMES = {"red": "Red's phone", "blue": "Blue's phone", "table": "Spectators"}


@sim.before_request
def _only_in_simulation():
    if companion().mode != "sim":
        raise BadInput("the simulation runs only with `onitama-companion sim`", 404)


def links(c, root: str) -> dict[str, str]:
    """What each phone opens: a seat's join URL (it changes once used; the computer's seat has
    none), the public page."""
    return {**{seat: c.join_url(seat) for seat in SEATS if c.joinable(seat)}, "table": root + "/"}


@sim.get("")
def sim_page():
    # A phone cannot open a loopback address: the page says how to serve the network.
    loopback = urlsplit(base_url()).hostname in ("127.0.0.1", "localhost", "::1")
    return render_template("sim.html", links=links(companion(), base_url()), link_names=LINK_NAMES, loopback=loopback,
                           sim_state=companion().sim_state(), **page_context())


@sim.get("/qr/<target>.svg")
def qr_code(target: str):
    urls = links(companion(), base_url())
    if target not in urls:
        raise BadInput(f"no QR code for {target!r} (known: {', '.join(urls)})", 404)
    out = io.BytesIO()
    segno.make(urls[target], error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                             title=urls[target], dark="#111", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@sim.get("/state")
def sim_state():
    return jsonify(companion().sim_state())


@sim.get("/events")
def sim_events():
    streams, c, root = current_app.extensions["streams"], companion(), base_url()
    # The stream runs outside the request: everything it polls is bound here.
    watch = {"sim": c.sim_state, "oled": lambda: oled_key(c), "links": lambda: links(c, root)}
    return streams.response(streams.views(c, None, watch, period=SIM_PERIOD_S))


@sim.post("/lift")
def lift():
    square, noisy = inputs.square_move(json_body())
    companion().sim_lift(square, noisy=noisy)
    return jsonify(companion().sim_state())


@sim.post("/place")
def place():
    square, noisy = inputs.square_move(json_body())
    companion().sim_place(square, noisy=noisy)
    return jsonify(companion().sim_state())


@sim.post("/button")
def button():
    name, long = inputs.button_press(json_body())
    companion().sim_button(name, long=long)
    return jsonify(companion().sim_state())

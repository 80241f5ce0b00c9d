"""The players' phones: each seat's private screen (its Ninja board in Light & Shadow).

Joining. The OLED (and the simulation page) shows one QR code per seat holding a one-time URL,
``/J/<TOKEN>``. Opening it redeems the token: the phone gets a session id from the companion,
kept in Flask's signed session cookie (HttpOnly, SameSite=Lax), and goes to ``/seat``. When
another phone holds the seat, this one waits on a page that polls ``/join/pending`` until the
table answers on the companion's buttons (A allows, B refuses); only then is the cookie set.

Every request asks the companion which seat the cookie's session holds *now*
(``seat_of``), so a phone whose seat was taken over loses it at once, streams included. Every
answer is built from ``companion.view(seat)`` of that seat alone: the redaction is the
referee's, and nothing here ever touches the full state or another seat's view.

Replays. An action or answer names the step of the game it was meant for (``"step"``: the
number of finished turns and the phase, as in the view the page showed). A request sent twice,
or sent from a page that had not caught up, is refused (409) instead of landing on a later step
where the same text is legal again (a double-tapped "skip" would skip the Lantern too). The
game thread checks the step together with the action it guards, so of two identical requests
sent at once exactly one lands.
"""

from __future__ import annotations

import json
import re

from flask import (Blueprint, Response, current_app, jsonify, redirect, render_template, session,
                   url_for)

from companion.table.errors import REFUSALS

from .errors import status_of
from .inputs import BadInput, json_object
from .public import VARIANT_NAMES, card_patterns, companion, json_body, ways
from .streams import event

phones = Blueprint("phones", __name__)

MAX_TEXT = 64            # the longest action text a seat sends (``Tiger Nb5c4``, ``Na5 Nc5``)
TOKEN = re.compile(r"[A-Za-z2-7]{1,64}")   # join tokens: base32, 16 characters (case is free)
SESSION = "phone"        # the cookie's one field: the companion's session id of this phone
PENDING = "pending"      # while waiting for the table to allow a takeover


@phones.record_once
def _cookie(state) -> None:
    # The seat cookie is sent on a top-level visit (scanning a code) but never with a cross-site
    # POST, and no script can read it; it outlives the browser tab (a phone sleeps, reloads).
    state.app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax")


@phones.after_request
def _private(response):
    # A seat's pages are for this phone alone, now: no cache keeps a copy of them.
    response.headers["Cache-Control"] = "no-store"
    return response


def _session_id() -> str | None:
    sid = session.get(SESSION)
    return sid if isinstance(sid, str) else None


def _held_seat() -> str | None:
    sid = _session_id()
    return companion().seat_of(sid) if sid else None


def _seat() -> tuple[str, str]:
    """The seat this phone holds now, and its session id; 403 for none."""
    seat, sid = _held_seat(), _session_id()
    if seat is None or sid is None:
        why = companion().why_lost(sid)
        raise BadInput(f"this phone holds no seat{f' ({why})' if why else ''}: scan the seat's "
                       "code on the companion", 403)
    return seat, sid


def _version(seat: str) -> int:
    """The version of the seat's view that shows what a request did (published before the
    request returned): the page's stream brings that view, so an answer does not carry it."""
    return int(companion().view(seat)["version"])


def _step(body: dict) -> str:
    """The step the request was meant for; the game thread compares it with the game's."""
    step = body.get("step")
    if not isinstance(step, str):
        raise BadInput("'step' must be the step of the game the action is for, such as \"3:ninja\"")
    return step


# -- joining ---------------------------------------------------------------------------------

@phones.get("/J/<token>")
@phones.get("/j/<token>")
def join(token: str):
    if not TOKEN.fullmatch(token):
        # Never handed to the companion: only a base32 token can be one of its codes.
        return render_template("join.html", problem="This is not a join code."), 404
    try:
        joined = companion().redeem(token)
    except REFUSALS as exc:
        problem = str(exc)          # a heading: "This join code ...", not "this join code ..."
        return render_template("join.html", problem=problem[:1].upper() + problem[1:]), status_of(exc)
    session.permanent = True
    session.pop(PENDING, None)
    if "session" in joined:
        session[SESSION] = joined["session"]
        return redirect(url_for("phones.seat_page"), 303)
    session[PENDING] = joined["pending"]
    return render_template("join.html", waiting=joined["seat"]), 202


@phones.get("/join/pending")
def join_pending():
    pending_id = session.get(PENDING)
    if not isinstance(pending_id, str):
        raise BadInput("this phone is not waiting for a seat", 404)
    state = companion().pending(pending_id)
    if state["state"] != "waiting":
        session.pop(PENDING)
    if state["state"] == "allowed":
        session[SESSION] = state["session"]
    return jsonify(state=state["state"], seat=state["seat"])


@phones.post("/join/cancel")
def join_cancel():
    # The waiting page closed, or its "Stop asking" was tapped.
    pending_id = session.pop(PENDING, None)
    if not isinstance(pending_id, str):
        raise BadInput("this phone is not waiting for a seat", 404)
    companion().pending(pending_id, withdraw=True)
    return jsonify(ok=True)


# -- the seat ----------------------------------------------------------------------------------

@phones.get("/seat")
def seat_page():
    seat = _held_seat()
    if seat is None:
        return render_template("join.html", problem="This phone has no seat at the table."), 403
    boot = {"seat": seat, "view": companion().view(seat), "cards": card_patterns(),
            "names": VARIANT_NAMES, "ways": ways()}
    return render_template("seat.html", seat=seat, boot=boot)


@phones.get("/seat/view")
def seat_view():
    seat, _ = _seat()
    return jsonify(companion().view(seat))


@phones.get("/seat/events")
def seat_events():
    seat, sid = _seat()
    c, streams = companion(), current_app.extensions["streams"]
    # The watched seat changes when another phone takes it over: that wakes the stream, which
    # then says so and ends (the page stops reconnecting; a reconnection would get 403).
    views = streams.views(c, seat, {"seat": lambda: c.seat_of(sid)})
    return streams.response(_while_held(views, lambda: c.seat_of(sid) == seat,
                                        lambda: c.why_lost(sid)))


def _while_held(events, held, why):
    try:
        for chunk in events:
            if not held():
                yield event("left", {"reason": why() or "another phone took this seat"})
                return
            yield chunk
    finally:
        events.close()


@phones.post("/seat/action")
def seat_action():
    seat, sid = _seat()
    body = json_object(json_body(), {"text", "step"})
    text = body.get("text")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        raise BadInput(f"'text' must be an action's notation (at most {MAX_TEXT} characters)")
    answer = companion().submit(seat, {"type": "action", "text": text.strip(), "step": _step(body),
                                       "session": sid})
    # A remote seat's main-board move waits for hands at the mat: "on_mat" says so.
    return jsonify(ok=True, on_mat=bool(answer.get("on_mat")), version=_version(seat))


@phones.post("/seat/hint")
def seat_hint():
    """Ask for a hint on this seat's move on the mat: its lifted pawn's destinations are
    coloured by how good they are (on the mat only, for this seat's own turn)."""
    seat, sid = _seat()
    body = json_object(json_body(), {"step"})
    answer = companion().submit(seat, {"type": "hint", "step": _step(body), "session": sid})
    return jsonify(ok=True, left=answer["left"], version=_version(seat))


@phones.post("/seat/handover")
def seat_handover():
    """Another phone asks for this seat (the view says ``takeover``): give it (``allow``) or
    keep it. A seat played from afar changes hands only so, unless this phone falls silent."""
    seat, sid = _seat()
    body = json_object(json_body(), {"allow", "step"})    # the page names its step: unused
    if not isinstance(body.get("allow"), bool):
        raise BadInput("'allow' must be true or false")
    companion().submit(seat, {"type": "handover", "allow": body["allow"], "session": sid})
    return jsonify(ok=True, version=_version(seat))


@phones.post("/seat/answer")
def seat_answer():
    seat, sid = _seat()
    body = json_object(json_body(), {"card", "takeback", "step", "turn"})
    if ("card" in body) == ("takeback" in body):
        raise BadInput("an answer is {\"card\": name} or {\"takeback\": true}")
    if "card" in body and (not isinstance(body["card"], str) or len(body["card"]) > MAX_TEXT):
        raise BadInput("'card' must be a card's name")
    if "takeback" in body and body["takeback"] is not True:
        raise BadInput("'takeback' can only be true")
    turn = body.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool) or not 0 < turn < 10_000):
        raise BadInput("'turn' is the number of the turn the answer is about, as the question showed it")
    # The turn the page's question showed for this answer: if the mat asks about another turn
    # by the time it lands, the answer is kept for its own (never taken for another turn).
    request_ = {"type": "answer", "step": _step(body), "session": sid,
                **({"card": body["card"]} if "card" in body else {"takeback": True}),
                **({"turn": turn} if turn is not None else {})}
    answer = companion().submit(seat, request_)
    # kept: the mat asks about another turn now; the answer waits for its own.
    return jsonify(ok=True, kept=bool(answer.get("kept")), version=_version(seat))


@phones.get("/seat/record")
def seat_record():
    seat, _ = _seat()
    game = companion().view(seat)["game"]
    if game is None:
        raise BadInput("no game has been dealt yet", 404)
    # The companion gives the public record (what everyone saw); the sealed parts of a Light &
    # Shadow game are in the final view (``all_ninjas``), not in a record it exposes.
    record = companion().record(game["id"])
    body = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="onitama-game-{game["id"]}.json"'})

"""Checking the JSON bodies of POST requests before anything reaches the companion.

The service checks what a request *means* (a card that exists, a variant it knows); this
module checks its *shape* (an object, the fields it may have, their types), so that a
malformed body gets a message naming the field and never touches the game thread.
"""

from __future__ import annotations

from typing import Any

from companion.rules.squares import parse_square

BUTTONS = ("A", "B", "C")


class BadInput(Exception):
    """A request body that is not what the route accepts; the message names the problem."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def json_object(body: Any, allowed: set[str]) -> dict:
    if not isinstance(body, dict):
        raise BadInput("the body must be a JSON object")
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise BadInput(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")
    return body


def _string(body: dict, key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{key!r} must be a non-empty string")
    return value.strip()


def _flag(body: dict, key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise BadInput(f"{key!r} must be true or false")
    return value


def _integer(body: dict, key: str, low: int, high: int) -> int:
    value = body[key]
    # bool is an int in Python; true must not pass for 1.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadInput(f"{key!r} must be a whole number from {low} to {high}")
    return value


def _names(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise BadInput(f"{what} must be a non-empty list of names")
    return [v.strip() for v in value]


def square_move(body: Any) -> tuple[str, bool]:
    """``{"square": "e2", "noisy": false}`` -> ("e2", False)."""
    body = json_object(body, {"square", "noisy"})
    name = _string(body, "square")
    try:
        parse_square(name)
    except ValueError as exc:
        raise BadInput(str(exc)) from None
    return name.lower(), _flag(body, "noisy")


def button_press(body: Any) -> tuple[str, bool]:
    """``{"button": "A", "long": false}`` -> ("A", False)."""
    body = json_object(body, {"button", "long"})
    name = _string(body, "button").upper()
    if name not in BUTTONS:
        raise BadInput(f"{body['button']!r} is not a button (A, B or C)")
    return name, _flag(body, "long")


def new_game(body: Any) -> dict:
    """The body of POST /api/new-game as the service's ``new_game`` request.

    ``way`` is required (``variant``, its older name, is taken too). Left out, ``sets`` and
    ``wind_cards`` take the service's defaults (the configured card sets, the rulebook's
    standard two Wind Spirit cards).
    """
    body = json_object(body, {"way", "variant", "sets", "wind_cards", "cards", "seed", "computer",
                              "remote", "hints"})
    key = "way" if "way" in body or "variant" not in body else "variant"
    if "way" in body and "variant" in body and body["way"] != body["variant"]:
        raise BadInput("'way' and 'variant' (its older name) name different ways")
    request: dict[str, Any] = {"type": "new_game", "way": _string(body, key)}
    if "sets" in body:
        request["sets"] = _names(body["sets"], "'sets'")
    if "wind_cards" in body:
        request["wind_cards"] = _integer(body, "wind_cards", 0, 5)
    if body.get("cards") is not None:
        cards = json_object(body["cards"], {"red", "blue", "side"})
        for key in ("red", "blue", "side"):
            if key not in cards:
                raise BadInput(f"'cards' needs 'red', 'blue' and 'side' (missing {key!r})")
        request["cards"] = {"red": _names(cards["red"], "cards.red"),
                            "blue": _names(cards["blue"], "cards.blue"),
                            "side": _string(cards, "side")}
    if body.get("seed") is not None:
        request["seed"] = _integer(body, "seed", 0, 2**31 - 1)
    if body.get("computer"):
        computer = json_object(body["computer"], {"red", "blue"})
        request["computer"] = {seat: _string(computer, seat) for seat in computer}
    if body.get("remote"):
        request["remote"] = _names(body["remote"], "'remote'")
    if "hints" in body:
        request["hints"] = _integer(body, "hints", 0, 99)
    return request

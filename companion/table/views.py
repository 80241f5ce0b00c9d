"""What each audience sees, and what the OLED and the LEDs show for the game, computed from
one game's session and the mat's occupancy. Pure functions: the game thread calls them and
publishes the results; the wording lives in :mod:`companion.table.outputs`.
"""

from __future__ import annotations

from typing import Any

from ..mat.recognizer import pair_up
from ..rules.cards import CARDS
from ..rules.referee import SEATS
from ..rules.squares import square_name
from ..rules.ways import WAYS
from . import outputs
from .network import Hotspot, wifi_qr_payload
from .session import GameSession


def view(game: GameSession | None, seat: str | None, *, occupancy: frozenset[int],
         oled: outputs.Lines, seats: dict[str, bool]) -> dict[str, Any]:
    """``seat``'s view (None: the public's). Only the referee's view of that seat goes in."""
    out: dict[str, Any] = {"game": None, "setup": None, "table": None, "mat": None,
                           "oled": list(oled), "variants": list(WAYS), "sets": dict(CARDS.sets),
                           "seats": seats}
    if game is None:
        return out
    ref = game.referee
    out["game"] = {"id": game.id, "variant": ref.mode, "sets": game.header.get("sets", []),
                   "status": game.status}
    out["table"] = ref.view(seat)
    if game.status == "sync" and not ref.log:
        fields = game.table()[1]
        out["setup"] = {"board": " ".join(fields), "red": fields[2].split(","),
                        "blue": fields[3].split(","), "side": fields[4], "first": fields[1],
                        "ninjas": game.way.ninjas}
    out["mat"] = _mat(game, occupancy)
    out["unsaved"] = game.unsaved
    return out


def _mat(game: GameSession, occupancy: frozenset[int]) -> dict[str, Any]:
    rec = game.recognizer
    prompt = rec.prompt if rec is not None else None
    if game.status == "sync":
        missing, extra = game.sync_diff(occupancy)
        state = "setup" if not game.referee.log else "mismatch"
        wrong, pairs = missing | extra, pair_up(extra, missing)
    else:
        wrong = frozenset(game.wrong)
        pairs = rec.feedback().pairs if rec is not None else ()
        state = "prompt" if prompt else "mismatch" if wrong else "ok"
    return {"state": state,
            "prompt": None if prompt is None else outputs.prompt_view(prompt, _hand(game, prompt["seat"])),
            "wrong": sorted(square_name(s) for s in wrong),
            "pairs": [[square_name(a), square_name(b)] for a, b in pairs]}


def _hand(game: GameSession, seat: str) -> list[str]:
    return game.table()[1][2 if seat == "red" else 3].split(",")


def oled_lines(game: GameSession | None, *, occupancy: frozenset[int], public_url: str | None,
               confirming: bool) -> outputs.Lines:
    """What the OLED says about the game, when no announcement or join code is shown; first
    of all that the last action could not be saved, until one is."""
    lines = _game_lines(game, occupancy=occupancy, public_url=public_url, confirming=confirming)
    if game is not None and game.unsaved is not None:
        return outputs.unsaved_lines(game.unsaved, lines)
    return lines


def _game_lines(game: GameSession | None, *, occupancy: frozenset[int], public_url: str | None,
                confirming: bool) -> outputs.Lines:
    if game is None:
        return outputs.idle_lines(public_url)
    ref = game.referee
    if game.status == "finished":
        assert ref.result is not None
        return outputs.finished_lines(ref.result)
    if game.status == "sync":
        if not ref.log:
            return outputs.setup_lines(game.table()[1])
        missing, extra = game.sync_diff(occupancy)
        return outputs.mismatch_lines(len(missing), len(extra))
    if confirming:
        return outputs.CONFIRM_NEW_GAME
    if game.recognizer is not None:
        return tuple(game.recognizer.feedback().oled)
    return outputs.phone_turn_lines(ref.view(None).get("phase", "move"), ref.to_act())


def asking(game: GameSession | None) -> bool:
    """Whether the mat asks a question on the buttons now (which card, a take-back). A and B
    answer it, and only it: a takeover request waits, off the OLED, until it is answered, so a
    press always answers what the OLED shows."""
    return game is not None and game.recognizer is not None and game.recognizer.prompt is not None


def wifi_qr(wifi: Hotspot | None) -> tuple[str, str] | None:
    """The table's own Wi-Fi as ``(network name, WIFI: payload)``, for the OLED and the pages;
    None when the Pi joins an existing network."""
    return None if wifi is None else (wifi.ssid, wifi_qr_payload(wifi.ssid, wifi.password))


def oled_pages(wifi: bool) -> tuple[str | None, ...]:
    """What button C pages through: the game (None), then, on the table's own Wi-Fi, its QR
    code (a phone must be on the network before a join code can open), then each seat's code."""
    return (None, *(("wifi",) if wifi else ()), *SEATS)


def join_seat(game: GameSession | None, page: int, free_seat: str | None, *,
              wifi: bool = False, joined: bool = True) -> str | None:
    """The QR code the OLED shows: ``"wifi"``, a seat's join code, or None (the game). The
    page chosen with C; or, while a game with secrets waits for phones, the Wi-Fi code until a
    first phone holds a seat (``joined``), then the first seat without one."""
    if page:
        return oled_pages(wifi)[page]
    # Only while nothing on the mat needs saying: set-up, a prompt or a mismatch come first.
    if (game is not None and game.status == "playing" and game.way.hidden
            and (game.recognizer is None or (game.recognizer.prompt is None and not game.wrong))):
        return "wifi" if wifi and not joined and free_seat is not None else free_seat
    return None


def next_page(page: int, shown: str | None, *, wifi: bool) -> int:
    """The page button C turns to. From the Wi-Fi code shown while phones join, on to Red's
    join code (the order stays Wi-Fi, Red, Blue); otherwise the next page, round."""
    pages = oled_pages(wifi)
    if page == 0 and shown == "wifi":
        return pages.index("wifi") + 1
    return (page + 1) % len(pages)


def led_scene(game: GameSession | None, occupancy: frozenset[int]) -> outputs.Scene:
    if game is None:
        return {}
    if game.status == "sync":
        missing, extra = game.sync_diff(occupancy)
        return outputs.sync_scene(game.table()[0], missing, extra)
    if game.recognizer is None:
        return {}
    return outputs.reading_scene(game.recognizer.feedback())

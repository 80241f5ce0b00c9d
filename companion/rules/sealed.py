"""Records of games with hidden information.

* The public record: the header and each turn as everyone saw it.
* A sealed record per seat: that seat's secrets (Ninja set-up, the full text of every turn
  with a hidden part, a pending simultaneous commitment). Lantern answers are announced to
  the table, so they are in the public record.
  The service keeps it from the other seat until the game ends.
* The full record: public turns with the sealed ones put back (:func:`reveal`), which
  :func:`replay` re-plays through the referee, checking every turn's full and public text.

Turn texts follow ``docs/notation.md``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from .actions import Place, Skip, action_text
from .cards import CARDS, CardTable, card_from_dict
from .errors import OnitamaError, RecordError
from .jsondata import JsonObject
from .position import COLORS, Position, format_position, parse_position
from .referee import SEATS, Referee
from .shadow import ShadowReferee
from .variants import SimultaneousReferee
from .ways import Start, way

FORMAT = "onitama-hidden-record"
VERSION = 1
_STEP = re.compile(r"^[NS][a-e][1-5][a-e][1-5][+-]?$")
_MOVE_STEP = re.compile(r"^([a-e][1-5][a-e][1-5]|-|pass)$")
_LANTERN = re.compile(r"^L[1-5a-e][+-]?$")


# Referee[Any]: these functions take the referee of any mode (the state's type is the mode's).
def _header(ref: Referee[Any]) -> JsonObject:
    header: JsonObject = {"mode": ref.mode, "start": format_position(ref.start), "seed": ref.seed,
              "result": None if ref.result is None else ref.result.as_dict()}
    if ref.light is not None:          # Way of the Light, whole or a table's half
        header["light"] = COLORS[ref.light]
    # Empty offset lists are left out: a card with only conditional offsets has no plain
    # ``moves``, and the card loader wants a listed field to be non-empty.
    custom = [{k: v for k, v in c.as_dict().items() if v not in (None, [])}
              for c in ref.cards if c.name not in CARDS]
    if custom:
        header["custom_cards"] = custom
    return header


def public_record(ref: Referee[Any]) -> JsonObject:
    return {"format": FORMAT, "version": VERSION, "kind": "public", "header": _header(ref),
            "turns": [t.public for t in ref.log]}


def sealed_record(ref: Referee[Any], seat: str) -> JsonObject:
    """What only ``seat`` knows about its own play, for the end of the game."""
    out: JsonObject = {"format": FORMAT, "version": VERSION, "kind": "sealed", "seat": seat,
           "header": _header(ref), "setup": None, "turns": {}, "pending": None}
    if isinstance(ref, ShadowReferee):
        squares = ref.state.setup[COLORS.index(seat)]
        out["setup"] = action_text(Place(squares)) if squares else None
    if isinstance(ref, SimultaneousReferee):
        out["pending"] = ref.sealed(seat)
    out["turns"] = {str(i): t.full for i, t in enumerate(ref.log)
                    if t.seat == seat and t.full != t.public}
    return out


def full_record(ref: Referee[Any]) -> JsonObject:
    """Everything, once the game is over (the screens come down)."""
    if ref.result is None:
        raise RecordError("the sealed records are revealed when the game ends")
    return reveal(public_record(ref), *(sealed_record(ref, s) for s in SEATS))


def reveal(public: JsonObject, *sealed: JsonObject) -> JsonObject:
    """The full record from the public record and every seat's sealed record."""
    if public.get("kind") != "public":
        raise RecordError("the first record is not a public record")
    if public["header"].get("result") is None:
        raise RecordError("the sealed records are revealed when the game ends")
    turns = list(public["turns"])
    setup: dict[str, str] = {}
    for record in sealed:
        if record.get("kind") != "sealed" or record.get("header") != public["header"]:
            raise RecordError("a sealed record that does not belong to this game")
        seat = record["seat"]
        if record["setup"]:
            setup[seat] = record["setup"]
        for ply, text in record["turns"].items():
            turns[int(ply)] = text
    return {"format": FORMAT, "version": VERSION, "kind": "full", "header": public["header"],
            "setup": setup, "turns": turns}


def _start(text: str, cards: CardTable) -> Position:
    """Simultaneous play's start has two side cards; the spec string has one."""
    fields = text.split()
    side = fields[-1].split(",")
    pos = parse_position(" ".join(fields[:-1] + [side[0]]), cards)
    return replace(pos, side=tuple(cards[n].name for n in side))


def _referee(header: JsonObject, turns: list[str], cards: CardTable) -> Referee[Any]:
    start = Start(_start(header["start"], cards), header.get("seed"), header.get("light", "red"),
                  cards, tuple(turns))
    return way(header["mode"]).from_start(start)


def _chunks(text: str) -> list[str]:
    """A turn's text as actions; ``xN``, draws and answer marks are checked, not played."""
    tokens, i = text.split(), 0
    out: list[str] = []
    while i < len(tokens):
        tok = tokens[i]
        if tok == "xN" or tok.startswith("+"):
            i += 1
        elif _STEP.match(tok) or _LANTERN.match(tok):
            out.append(tok.rstrip("+-"))
            i += 1
        elif tok.startswith(">"):
            out.append(tok)
            i += 1
        else:
            # A card, then its steps: one, two (a Wind Spirit card), "pass", or a Ninja step.
            j = i + 1
            while j < len(tokens) and _MOVE_STEP.match(tokens[j]):
                j += 1
            if j == i + 1 and j < len(tokens):
                j += 1
            out.append(" ".join(tokens[i:j]))
            i = j
    return out


def _play_turn(ref: Referee[Any], text: str) -> None:
    if isinstance(ref, SimultaneousReferee):
        red, _, blue = text.partition(" | ")
        ref.act("red", red)
        ref.act("blue", blue)
        return
    seat, n = ref.to_act()[0], len(ref.log)
    for chunk in _chunks(text):
        action = ref.parse(seat, chunk)
        # Optional steps the text leaves out were skipped.
        while action not in ref.legal_actions(seat) and Skip() in ref.legal_actions(seat):
            ref.act(seat, Skip())
        ref.act(seat, action)
    while len(ref.log) == n and ref.result is None:
        ref.act(seat, Skip())


def replay(record: JsonObject, cards: CardTable = CARDS) -> Referee[Any]:
    """Re-play a full record through the referee; raises :class:`RecordError` at the first
    turn the rules do not give exactly as written."""
    if record.get("format") != FORMAT or record.get("kind") != "full":
        raise RecordError("not a full record of a game with hidden information")
    header = record["header"]
    if header.get("custom_cards"):
        cards = cards.with_cards(card_from_dict(c) for c in header["custom_cards"]
                                 if c["name"] not in cards)
    try:
        ref = _referee(header, record["turns"], cards)
        for seat, text in record.get("setup", {}).items():
            ref.act(seat, text)
    except OnitamaError as exc:
        raise RecordError(f"set-up: {exc}") from None
    for ply, text in enumerate(record["turns"]):
        try:
            _play_turn(ref, text)
        except OnitamaError as exc:
            raise RecordError(f"turn {ply + 1} {text!r}: {exc}") from None
        got = ref.log[-1] if len(ref.log) == ply + 1 else None
        if got is None or got.full != text:
            raise RecordError(f"turn {ply + 1}: the record says {text!r}, the rules give "
                              f"{got.full if got else 'no finished turn'!r}")
    actual = None if ref.result is None else ref.result.as_dict()
    if actual != header.get("result"):
        raise RecordError(f"the header says the result is {header.get('result')}, the turns give {actual}")
    return ref

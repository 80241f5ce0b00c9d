"""Game records: a header and the moves, saved as JSON (the format is in docs/cli.md).

A record carries what it needs to be replayed anywhere: the starting position string, and the
definition of any custom card it used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import CARDS, Card, CardTable, card_from_dict
from .deal import Deal
from .errors import CardError, OnitamaError, RecordError
from .jsondata import JsonObject
from .position import Position, parse_position
from .referee import Referee, Result
from .ways import Start, way

FORMAT = "onitama-record"
VERSION = 1


@dataclass
class GameRecord:
    variant: str
    start: str                       # the starting position string
    moves: list[str] = field(default_factory=list)
    sets: list[str] = field(default_factory=list)
    seed: int | None = None
    players: dict[str, str] = field(default_factory=dict)
    date: str | None = None
    result: JsonObject | None = None  # {"winner": "red", "how": "stone"}, or None while unfinished
    custom_cards: list[Card] = field(default_factory=list)

    @classmethod
    def from_deal(cls, deal: Deal, *, players: dict[str, str] | None = None,
                  date: str | None = None, cards: CardTable = CARDS) -> "GameRecord":
        used = [cards[n] for n in deal.position.cards()]
        custom = [c for c in used if c.name not in CARDS]
        return cls(variant=deal.variant, start=str(deal.position), sets=list(deal.sets),
                   seed=deal.seed, players=dict(players or {}), date=date, custom_cards=custom)

    def card_table(self) -> CardTable:
        return CARDS.with_cards(self.custom_cards) if self.custom_cards else CARDS

    def to_json(self) -> JsonObject:
        start = parse_position(self.start, self.card_table())
        return {
            "format": FORMAT, "version": VERSION,
            "header": {
                "variant": self.variant, "sets": self.sets, "seed": self.seed,
                "cards": {"red": list(start.hands[0]), "blue": list(start.hands[1]),
                          "side": start.side[0]},
                "start": self.start, "players": self.players, "date": self.date,
                "result": self.result,
                "custom_cards": [c.as_dict() for c in self.custom_cards],
            },
            "moves": list(self.moves),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def loads(cls, text: str, origin: str = "record") -> "GameRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{origin}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"{origin}: not an Onitama game record (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise RecordError(f"{origin}: record version {data.get('version')!r} is not supported")
        header, moves = data.get("header"), data.get("moves")
        if not isinstance(header, dict):
            raise RecordError(f"{origin}: header is missing")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(f"{origin}: moves must be a list of move strings")
        for key, kind in (("variant", str), ("start", str)):
            if not isinstance(header.get(key), kind):
                raise RecordError(f"{origin}: header.{key} is missing or not {kind.__name__}")
        try:
            custom = [card_from_dict(c) for c in header.get("custom_cards") or []]
        except CardError as exc:
            raise RecordError(f"{origin}: header.custom_cards: {exc}") from None
        record = cls(variant=header["variant"], start=header["start"], moves=moves,
                     sets=list(header.get("sets") or []), seed=header.get("seed"),
                     players=dict(header.get("players") or {}), date=header.get("date"),
                     result=header.get("result"), custom_cards=custom)
        try:
            parse_position(record.start, record.card_table())
        except OnitamaError as exc:
            raise RecordError(f"{origin}: header.start: {exc}") from None
        return record

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read ({exc.strerror})") from None
        return cls.loads(text, str(path))


@dataclass
class ReplayResult:
    referee: Referee[Any]            # the game as far as it replayed, by its way's rules
    error: str | None = None         # the first illegal move and why, if any

    @property
    def position(self) -> Position:
        return parse_position(str(self.referee.view(None)["position"]), self.referee.cards)

    @property
    def result(self) -> Result | None:
        return self.referee.result


def replay(record: GameRecord) -> ReplayResult:
    """Check a record move by move against the rules of its way (the registry's)."""
    table = record.card_table()
    try:
        ref = way(record.variant).from_start(Start(parse_position(record.start, table),
                                                   seed=record.seed, cards=table))
    except OnitamaError as exc:
        raise RecordError(f"the header does not start a game: {exc}") from None
    for number, text in enumerate(record.moves, 1):
        who = (ref.to_act() or ("nobody",))[0]
        try:
            ref.act(who, text)
        except OnitamaError as exc:
            reason = getattr(exc, "reason", str(exc))
            return ReplayResult(ref, f"move {number} ({who.title()}) {text!r} is illegal: {reason}")
    actual = None if ref.result is None else ref.result.as_dict()
    if record.result is not None and record.result != actual:
        return ReplayResult(ref, f"the header says the result is {record.result}, "
                                 f"but the moves give {actual}")
    return ReplayResult(ref)

"""Move cards: the card table shipped with the project, and players' own cards from a file.

A card's offsets ``(dx, dy)`` are drawn from its holder's point of view (``dx > 0`` = the
holder's right, ``dy > 0`` = forward). ``moves`` applies to every pawn; a dual card has
``master_moves`` and ``student_moves`` instead; a Wind Spirit card adds ``wind_moves``, the
Spirit's bottom step. Conditional offsets: ``move_only`` lands only on an empty square,
``capture_only`` only on an opposing pawn; they add to the card's pattern for every pawn.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Iterator, TypedDict

from .errors import CardError, CardFileError

Offsets = tuple[tuple[int, int], ...]
# JSON's form of a card's offsets: a list of [dx, dy] pairs, or null for a pattern it lacks.
OffsetList = list[list[int]] | None


class CardDict(TypedDict):
    """A card as ``cards --json`` prints it and a record stores it."""
    name: str
    set: str
    stamp: str | None
    moves: OffsetList
    wind_moves: OffsetList
    master_moves: OffsetList
    student_moves: OffsetList
    move_only: OffsetList
    capture_only: OffsetList
STAMPS = ("red", "blue")
_FIELDS = ("moves", "wind_moves", "master_moves", "student_moves", "move_only", "capture_only")


@dataclass(frozen=True, slots=True)
class Card:
    name: str
    set: str
    stamp: str | None
    moves: Offsets | None = None
    wind_moves: Offsets | None = None
    master_moves: Offsets | None = None
    student_moves: Offsets | None = None
    move_only: Offsets = ()
    capture_only: Offsets = ()
    aliases: tuple[str, ...] = ()
    confidence: str = "custom"

    @property
    def is_wind_card(self) -> bool:
        return self.wind_moves is not None

    @property
    def is_dual(self) -> bool:
        return self.moves is None

    def master_pattern(self) -> Offsets | None:
        return self.moves if self.moves is not None else self.master_moves

    def student_pattern(self) -> Offsets | None:
        return self.moves if self.moves is not None else self.student_moves

    def spirit_pattern(self) -> Offsets | None:
        """The offsets the Wind Spirit moves by: the bottom step of a Wind Spirit card, else
        the card's pattern (a dual card's student pattern, as the Way of the Wind says)."""
        return self.wind_moves if self.wind_moves is not None else self.student_pattern()

    def as_dict(self) -> CardDict:
        """The card as ``cards --json`` prints it."""
        def lst(offsets: Offsets | None) -> OffsetList:
            return None if offsets is None else [list(o) for o in offsets]
        return {
            "name": self.name, "set": self.set, "stamp": self.stamp,
            "moves": lst(self.moves), "wind_moves": lst(self.wind_moves),
            "master_moves": lst(self.master_moves), "student_moves": lst(self.student_moves),
            "move_only": lst(self.move_only), "capture_only": lst(self.capture_only),
        }


def card_key(name: str) -> str:
    """Card names compare case-insensitively, with ``-`` standing for a space."""
    return name.strip().replace("-", " ").casefold()


def notation_name(name: str) -> str:
    """A card name as written in positions and moves: a space becomes ``-``."""
    return name.replace(" ", "-")


class CardTable:
    """The cards a game may use, looked up by name or alias."""

    def __init__(self, cards: Iterable[Card], sets: dict[str, str] | None = None):
        self._cards: dict[str, Card] = {}
        self._lookup: dict[str, Card] = {}
        self.sets = dict(sets or {})
        for card in cards:
            self._add(card)

    def _add(self, card: Card) -> None:
        key = card_key(card.name)
        if key in self._lookup:
            raise CardError(f"card {card.name!r}: a card of that name already exists")
        self._cards[card.name] = card
        self._lookup[key] = card
        for alias in card.aliases:
            self._lookup.setdefault(card_key(alias), card)

    def with_cards(self, cards: Iterable[Card]) -> "CardTable":
        """A new table with ``cards`` added (players' own cards)."""
        table = CardTable(self, self.sets)
        for card in cards:
            table._add(card)
            table.sets.setdefault(card.set, card.set)
        return table

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, name: str) -> bool:
        return card_key(name) in self._lookup

    def __getitem__(self, name: str) -> Card:
        try:
            return self._lookup[card_key(name)]
        except KeyError:
            raise CardError(f"unknown card {name!r}") from None

    def in_sets(self, sets: Iterable[str]) -> list[Card]:
        wanted = list(sets)
        unknown = [s for s in wanted if s not in self.sets]
        if unknown:
            raise CardError(f"unknown card set {unknown[0]!r} (known: {', '.join(self.sets)})")
        return [c for c in self if c.set in wanted]


def _offsets(card: str, key: str, value: object, *, required: bool) -> Offsets | None:
    if value is None or (value == [] and not required):
        if required:
            raise CardFileError(f"card {card!r}: {key} is missing")
        return None
    if not isinstance(value, list) or not value:
        raise CardFileError(f"card {card!r}: {key} must be a non-empty list of [dx, dy] pairs")
    out: list[tuple[int, int]] = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            raise CardFileError(f"card {card!r}: {key}: {item!r} is not a [dx, dy] pair of integers")
        dx, dy = item
        if (dx, dy) == (0, 0):
            raise CardFileError(f"card {card!r}: {key}: [0, 0] does not move")
        if abs(dx) > 4 or abs(dy) > 4:
            raise CardFileError(f"card {card!r}: {key}: [{dx}, {dy}] leaves the 5x5 board from every square")
        if (dx, dy) in out:
            raise CardFileError(f"card {card!r}: {key}: [{dx}, {dy}] is listed twice")
        out.append((dx, dy))
    return tuple(out)


# Any: a card entry is JSON read from a file, checked field by field below.
def card_from_dict(data: dict[str, Any], *, default_set: str = "custom") -> Card:
    """Build a card from its JSON form, refusing anything that cannot be played."""
    name = _entry_name(data)
    stamp = data.get("stamp")
    if stamp is not None and stamp not in STAMPS:
        raise CardFileError(f"card {name!r}: stamp must be 'red', 'blue' or null, not {stamp!r}")
    moves, master, student, wind, move_only, capture_only = _entry_offsets(name, data)
    aliases = data.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise CardFileError(f"card {name!r}: aliases must be a list of names")
    card_set = data.get("set", default_set)
    if not isinstance(card_set, str) or not card_set:
        raise CardFileError(f"card {name!r}: set must be a name")
    return Card(name=name, set=card_set, stamp=stamp, moves=moves, wind_moves=wind,
                master_moves=master, student_moves=student, move_only=move_only,
                capture_only=capture_only, aliases=tuple(aliases),
                confidence=data.get("confidence", "custom"))


def _entry_name(data: dict[str, Any]) -> str:
    """A card entry's name, once the entry is an object with no unknown field."""
    if not isinstance(data, dict):
        raise CardFileError(f"card entry {data!r} is not an object")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CardFileError(f"card entry {data!r}: name is missing")
    name = name.strip()
    if not all(ch.isalnum() or ch in " '" for ch in name):
        raise CardFileError(f"card {name!r}: name may hold only letters, digits, spaces and '")
    known = {"name", "set", "stamp", "aliases", "confidence", "stamp_confidence", "notes", *_FIELDS}
    extra = sorted(set(data) - known)
    if extra:
        raise CardFileError(f"card {name!r}: unknown field {extra[0]!r}")
    return name


_EntryOffsets = tuple[Offsets | None, Offsets | None, Offsets | None, Offsets | None, Offsets, Offsets]


def _entry_offsets(name: str, data: dict[str, Any]) -> _EntryOffsets:
    """(moves, master_moves, student_moves, wind_moves, move_only, capture_only), checked
    together: a card is plain or dual, and an offset is plain or conditional, never both."""
    dual = data.get("moves") is None and (data.get("master_moves") is not None
                                           or data.get("student_moves") is not None)
    if data.get("moves") is not None and (data.get("master_moves") or data.get("student_moves")):
        raise CardFileError(f"card {name!r}: give either moves or master_moves and student_moves")
    moves = None if dual else _offsets(name, "moves", data.get("moves"),
                                       required=not (data.get("move_only") or data.get("capture_only")))
    master = _offsets(name, "master_moves", data.get("master_moves"), required=dual)
    student = _offsets(name, "student_moves", data.get("student_moves"), required=dual)
    wind = _offsets(name, "wind_moves", data.get("wind_moves"), required=False)
    if dual and wind is not None:
        raise CardFileError(f"card {name!r}: a dual card cannot also be a Wind Spirit card")
    move_only = _offsets(name, "move_only", data.get("move_only"), required=False) or ()
    capture_only = _offsets(name, "capture_only", data.get("capture_only"), required=False) or ()
    if moves is None and not dual:
        moves = ()
    plain = set(moves or ()) | set(master or ()) | set(student or ())
    both = (set(move_only) & set(capture_only)) | (plain & (set(move_only) | set(capture_only)))
    if both:
        dx, dy = sorted(both)[0]
        raise CardFileError(f"card {name!r}: [{dx}, {dy}] is both a plain and a conditional offset")
    return moves, master, student, wind, move_only, capture_only


# Any: parsed JSON; the caller checks each card entry (card_from_dict).
def _load_json(text: str, origin: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardFileError(f"{origin}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if isinstance(data, list):
        data = {"cards": data}
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardFileError(f"{origin}: expected an object with a \"cards\" list")
    return data


def load_card_file(path: str | Path) -> list[Card]:
    """Players' own cards: a JSON file ``{"cards": [...]}`` (or a bare list) of card objects."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CardFileError(f"{path}: cannot read ({exc.strerror})") from None
    data = _load_json(text, str(path))
    return [card_from_dict(entry) for entry in data["cards"]]


def _builtin() -> CardTable:
    text = resources.files("companion").joinpath("data/cards.json").read_text(encoding="utf-8")
    data = _load_json(text, "cards.json")
    return CardTable((card_from_dict(entry) for entry in data["cards"]), data.get("sets"))


CARDS = _builtin()

"""Reading a TOML pin map key by key: typed values out of nested tables, every problem
recorded with its dotted key, so a wrong map is refused once with all its reasons."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# GPIO0/1 are the HAT ID EEPROM bus; 28+ are not on the 40-pin header.
FIRST_PIN, LAST_PIN = 2, 27


class _Missing(Exception):
    """A key that could not be read; the reason is already recorded."""


class Reader:
    """Reads typed values out of nested tables, recording every problem with its dotted key."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def fail(self, key: str, reason: str) -> None:
        self.problems.append(f"{key}: {reason}")

    def table(self, data: Mapping[str, Any], key: str, known: set[str] | None) -> Mapping[str, Any]:
        """A sub-table; with ``known``, any other key in it is refused as a typo."""
        value = self.get(data, key)
        if not isinstance(value, dict):
            self.fail(key, f"must be a table, not {kind(value)}")
            raise _Missing
        for extra in sorted(set(value) - known if known is not None else ()):
            self.fail(f"{key}.{extra}", "unknown key (a typo?)")
        return value

    def get(self, data: Mapping[str, Any], key: str) -> Any:
        name = key.rsplit(".", 1)[-1]
        if name not in data:
            self.fail(key, "missing")
            raise _Missing
        return data[name]

    def integer(self, data: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
        return self._int(self.get(data, key), key, lo, hi)

    def _int(self, value: Any, key: str, lo: int, hi: int) -> int:
        # bool is an int in Python; `true` for a pin is a typo, not GPIO1.
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"must be a whole number, not {kind(value)}")
            raise _Missing
        if not lo <= value <= hi:
            self.fail(key, f"{value} is out of range ({lo} to {hi})")
            raise _Missing
        return value

    def number(self, data: Mapping[str, Any], key: str, lo: float, hi: float) -> float:
        value = self.get(data, key)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            self.fail(key, f"must be a number, not {kind(value)}")
            raise _Missing
        if not lo <= value <= hi:
            self.fail(key, f"{value} is out of range ({lo:g} to {hi:g})")
            raise _Missing
        return float(value)

    def choice(self, data: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> str:
        value = self.get(data, key)
        if value not in choices:
            self.fail(key, f"{value!r} is not one of {', '.join(map(repr, choices))}")
            raise _Missing
        chosen: str = value         # one of ``choices``
        return chosen

    def pin(self, value: Any, key: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(key, f"must be a BCM GPIO number, not {kind(value)}")
            raise _Missing
        if not FIRST_PIN <= value <= LAST_PIN:
            self.fail(key, f"GPIO{value} is outside BCM {FIRST_PIN}-{LAST_PIN}, the usable header pins")
            raise _Missing
        return value

    def pins(self, data: Mapping[str, Any], key: str, length: int) -> tuple[int, ...]:
        value = self.get(data, key)
        if not isinstance(value, list):
            self.fail(key, f"must be a list of {length} GPIO numbers, not {kind(value)}")
            raise _Missing
        if len(value) != length:
            self.fail(key, f"must list exactly {length} GPIO numbers, not {len(value)}")
            raise _Missing
        return tuple(self.attempt(lambda i=i, v=v: self.pin(v, f"{key}[{i}]"), -1) for i, v in enumerate(value))

    def attempt(self, read: Callable[..., Any], fallback: Any) -> Any:
        """Run one read; on failure keep going (to report every problem at once)."""
        try:
            return read()
        except _Missing:
            return fallback


def kind(value: Any) -> str:
    if isinstance(value, str):
        return f"text {value!r}"
    names = {bool: "true/false", list: "a list", dict: "a table", float: "a decimal"}
    return names.get(type(value), type(value).__name__)

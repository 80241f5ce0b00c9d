"""The companion's settings: defaults that run the simulation with no file at all, and an
optional TOML file (``/etc/onitama-companion/config.toml`` on the Pi) that overrides them.

```toml
[mat]
hardware = "pi"                       # "pi" or "sim"
pinmap = "/etc/onitama-companion/pinmap.toml"   # omit for the built-in map
settle = 0.35                         # seconds at rest before a move is read (at most 0.5)

[web]
host = "0.0.0.0"
port = 8080
public_url = "http://10.42.0.1:8080"  # what QR codes point to; omit to use this machine's IP

[game]
sets = ["base", "senseis-path"]       # card sets a game started from the buttons deals from

[network]                             # written by install.sh --hotspot (the file is then 0640)
hotspot = true                        # this Pi is the table's Wi-Fi access point
ssid = "Onitama-7KQD"                 # generated at install
password = "..."                      # generated at install; never leaves this file but as the Wi-Fi QR
interface = "wlan0"
mdns = true                           # announce onitama.local (default: on with the hotspot)
```
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .errors import CompanionError


class ConfigError(CompanionError):
    """A configuration file that cannot be used; names the key and the problem."""


@dataclass(frozen=True)
class Config:
    hardware: str = "sim"
    pinmap: Path | None = None
    settle: float = 0.35
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None
    sets: tuple[str, ...] = ("base",)
    hotspot: bool = False
    ssid: str | None = None
    wifi_password: str | None = None
    wifi_interface: str = "wlan0"
    mdns: bool | None = None

    @property
    def announce_mdns(self) -> bool:
        """Announce ``onitama.local``: as set, else only when this Pi is the hotspot."""
        return self.hotspot if self.mdns is None else self.mdns

    def with_(self, **changes: Any) -> "Config":
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


_KEYS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "mat": {"hardware": str, "pinmap": str, "settle": (int, float)},
    "web": {"host": str, "port": int, "public_url": str},
    "game": {"sets": list},
    "network": {"hotspot": bool, "ssid": str, "password": str, "interface": str, "mdns": bool},
}
# Keys whose field in Config has another name.
_FIELDS = {"password": "wifi_password", "interface": "wifi_interface"}


def load_config(path: str | Path | None, base: Config = Config()) -> Config:
    """``base`` with the file's values on top; a missing ``path`` (None) gives ``base``."""
    if path is None:
        return base
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    values = _values(path, data)
    _check(path, values)
    if "sets" in values:
        values["sets"] = tuple(values["sets"])
    if "pinmap" in values:
        values["pinmap"] = Path(values["pinmap"])
    return replace(base, **values)


def _values(path: str | Path, data: dict[str, Any]) -> dict[str, Any]:
    """The file's values by field name, each of a known key and of its type."""
    values: dict[str, Any] = {}   # Any: TOML values, each checked against _KEYS below
    for section, content in data.items():
        if section not in _KEYS or not isinstance(content, dict):
            raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join(_KEYS)})")
        for key, value in content.items():
            kind = _KEYS[section].get(key)
            if kind is None:
                raise ConfigError(f"{path}: unknown key {section}.{key}")
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
                raise ConfigError(f"{path}: {section}.{key} has the wrong type ({value!r})")
            values[_FIELDS.get(key) or key] = value
    return values


def _check(path: str | Path, values: dict[str, Any]) -> None:
    """The values' ranges, and the ones that go together."""
    if values.get("hardware", "pi") not in ("pi", "sim"):
        raise ConfigError(f"{path}: mat.hardware must be \"pi\" or \"sim\"")
    if not 0 < values.get("settle", 0.35) <= 0.5:
        raise ConfigError(f"{path}: mat.settle must be above 0 and at most 0.5 seconds")
    if not 0 <= values.get("port", 8080) <= 65535:
        raise ConfigError(f"{path}: web.port must be 0-65535")
    if "sets" in values and (not values["sets"] or not all(isinstance(s, str) for s in values["sets"])):
        raise ConfigError(f"{path}: game.sets must be a list of card set names")
    if values.get("hotspot") and not (values.get("ssid") and values.get("wifi_password")):
        raise ConfigError(f"{path}: network.hotspot needs network.ssid and network.password "
                          "(install.sh --hotspot generates them)")


def default_state(sim: bool) -> Path:
    """The folder of the saved games: the service's, or the desktop simulation's."""
    if sim:
        base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
        return Path(base) / "onitama-companion-sim"
    return Path("/var/lib/onitama-companion")

"""Starting the links for ``serve`` and ``sim``: the broker named in the config, else a
mosquitto of the table's own when one is installed (the embedded default for two tables on
one network), else none (a game with another table is then refused with the reason)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..table.tables import TableDoors
from .broker import Mosquitto, installed
from .links import Companion, Links

log = logging.getLogger(__name__)


def open_links(companion: Companion, *, broker: str | None, port: int, workdir: Path,
               invite_host: str, bind: str = "0.0.0.0",
               embedded: bool = True) -> tuple[Links | None, Mosquitto | None]:
    """The links, and the mosquitto started here (stop it after the links), if any.
    ``invite_host``: this machine's address as the other table reaches it; ``embedded``
    False: start none (a guest's games name their broker; a host's meet on ``port``)."""
    own = None
    if broker is None and not embedded:
        broker = f"{invite_host}:{port}"
    if broker is None:
        if installed() is None:
            log.info("tables: no broker configured and mosquitto is not installed: "
                     "games with another table are off")
            return None, None
        broker = f"{invite_host}:{port}"
        own = Mosquitto(workdir, port, bind=bind)
        try:
            own.start()
            log.info("tables: this table's own mosquitto listens on port %s", port)
        except RuntimeError as exc:
            # Another broker has the port (the system's mosquitto, another simulation's):
            # games meet there. A table that is to host elsewhere sets [tables] broker.
            log.warning("tables: %s; using the broker already on port %s", exc, port)
            own = None
    links = Links(companion, broker)
    if isinstance(companion, TableDoors):
        companion.tables = links
    return links, own

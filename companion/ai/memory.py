"""How much memory the computer's tables may take, per Raspberry Pi model.

Every table that grows with the search has a bound here: the transposition tables (the
Python search's dictionary, about 280 bytes an entry; the native core's array, 16 bytes a
slot with at least two slots an entry) and the evaluation's cached piece-square tables
(about 7 kB each), and how many pieces a game's exact endgames cover (``dealtables``: none
on the 512 MB boards, where the four-piece table would take a fifth of the 120 MB; four
pieces up to 4 GB; five on a Pi with 8 GB or more, whose table takes 440 MB; six, 5.9 GB
kept and 7.5 GB while solving, only when asked for, ``ONITAMA_ENDGAME_PIECES``). The
service sets the budget of its board at start (``set_budget``, from ``firmware.pimodel``); a search made after that uses it. The sizes keep the whole service,
with two computer seats and the hints searching, under 120 MB of RSS (``docs/benchmarks.md``
has the measurements), but for the five-piece table of the 8 GB boards: 440 MB more, a
twentieth of their memory.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class MemoryBudget:
    tt_entries: int             # the Python search's transposition table, entries
    native_tt_entries: int      # the native core's transposition table, entries
    eval_tables: int            # the evaluation's cached (colour, hand, next card) tables
    # The deal's exact endgames: both masters and up to endgame_pieces - 2 students; 0 for
    # none. Kept / while solving: 4 pieces 25 / 32 MB, 5 pieces 440 / 590 MB, 6 pieces
    # 5.9 / 7.5 GB (docs/tablebase.md).
    endgame_pieces: int = 4

    @property
    def endgames(self) -> bool:
        return self.endgame_pieces > 0


# The 512 MB boards (Zero 2 W, 3 A+), the boards up to 4 GB, and those with 8 GB or more
# (a Pi 4 or 5: the model's name does not say, the kernel's memory size does). An unknown
# machine (the desktop simulation) keeps four pieces unless told otherwise.
SMALL = MemoryBudget(tt_entries=30_000, native_tt_entries=250_000, eval_tables=500, endgame_pieces=0)
LARGE = MemoryBudget(tt_entries=60_000, native_tt_entries=500_000, eval_tables=2_000)
LARGER = replace(LARGE, endgame_pieces=5)
_SMALL_BOARDS = ("Raspberry Pi Zero", "Raspberry Pi 3 Model A", "Raspberry Pi Model A")
_LARGER_RAM = 7 << 30           # an 8 GB board reports somewhat less
PIECES_SETTING = "ONITAMA_ENDGAME_PIECES"
# Memory a table takes while it is solved (a byte a position and three bit sets), by pieces.
SOLVING_BYTES = {0: 0, 4: 32 << 20, 5: 590 << 20, 6: 7700 << 20}

_budget = LARGE


def installed_ram() -> int:
    """The machine's memory in bytes (0 when the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return 0


def for_model(name: str | None, ram: int | None = None, setting: str | None = None) -> MemoryBudget:
    """The budget for the board the kernel names (``/proc/device-tree/model``), or None
    off a Pi; ``ram`` its memory in bytes (read from the system when None). ``setting``
    (``ONITAMA_ENDGAME_PIECES`` when None) sets the endgames' pieces explicitly: 0 (none), 4,
    5 or 6."""
    if name is not None and name.startswith(_SMALL_BOARDS):
        chosen = SMALL
    elif name is not None and (installed_ram() if ram is None else ram) >= _LARGER_RAM:
        chosen = LARGER
    else:
        chosen = LARGE
    setting = os.environ.get(PIECES_SETTING, "") if setting is None else setting
    if setting.strip():
        try:
            pieces = int(setting)
        except ValueError:
            pieces = -1
        if pieces not in SOLVING_BYTES:
            raise ValueError(f"{PIECES_SETTING} must be 0, 4, 5 or 6 (got {setting!r})")
        memory = installed_ram() if ram is None else ram
        if memory and SOLVING_BYTES[pieces] * 3 // 2 > memory:
            raise ValueError(f"{PIECES_SETTING}={pieces}: solving takes {SOLVING_BYTES[pieces] >> 20} MB, "
                             f"more than two thirds of this machine's {memory >> 20} MB")
        chosen = replace(chosen, endgame_pieces=pieces)
    return chosen


def budget() -> MemoryBudget:
    return _budget


def set_budget(new: MemoryBudget) -> None:
    global _budget
    _budget = new

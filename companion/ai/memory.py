"""How much memory the computer's tables may take, per Raspberry Pi model.

Every table that grows with the search has a bound here: the transposition tables (the
Python search's dictionary, about 280 bytes an entry; the native core's array, 16 bytes a
slot with at least two slots an entry) and the evaluation's cached piece-square tables
(about 7 kB each), and whether a game's exact endgames are built (``dealtables``: not on the
512 MB boards, where the table would take a fifth of the 120 MB and its build half a
minute). The service sets the budget of its board at start (``set_budget``, from
``firmware.pimodel``); a search made after that uses it. The sizes keep the whole service,
with two computer seats and the hints searching, under 120 MB of RSS (``docs/benchmarks.md``
has the measurements).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MemoryBudget:
    tt_entries: int             # the Python search's transposition table, entries
    native_tt_entries: int      # the native core's transposition table, entries
    eval_tables: int            # the evaluation's cached (colour, hand, next card) tables
    endgames: bool = True       # the deal's exact endgames: 25 MB kept, 58 MB while solved


# The 512 MB boards (Zero 2 W, 3 A+) and the rest; an unknown machine (the desktop
# simulation) gets the larger budget.
SMALL = MemoryBudget(tt_entries=30_000, native_tt_entries=250_000, eval_tables=500, endgames=False)
LARGE = MemoryBudget(tt_entries=60_000, native_tt_entries=500_000, eval_tables=2_000)
_SMALL_BOARDS = ("Raspberry Pi Zero", "Raspberry Pi 3 Model A", "Raspberry Pi Model A")

_budget = LARGE


def for_model(name: str | None) -> MemoryBudget:
    """The budget for the board the kernel names (``/proc/device-tree/model``), or None
    off a Pi."""
    if name is not None and name.startswith(_SMALL_BOARDS):
        return SMALL
    return LARGE


def budget() -> MemoryBudget:
    return _budget


def set_budget(new: MemoryBudget) -> None:
    global _budget
    _budget = new

"""The search with its inner loop in C: :class:`NativeSearcher` is a :class:`Searcher` whose
root iterations run in the native core (``core.c``) when the position is one the core covers
(the base game and the Way of the Wind: two-card hands of role "any", a one-card side stack,
no conditional cards); anything else goes through the Python search, transparently.

The Python keeps the iterative deepening, the root move order and the results (``search``
is shared); the core runs one iteration at a time with the same budget checks, so node
budgets, time limits and stop requests behave the same. cffi releases the GIL for the length
of a call, so a search leaves the web server and the game thread running.
"""

from __future__ import annotations

import importlib
import os
import time
from types import ModuleType
from typing import Any

from companion.rules.cards import CARDS, CardTable
from companion.rules.engine import _GOAL, ANY, EngineMove

from ..endgame import Endgames
from ..evaluate import Weights
from ..memory import budget
from ..search import Searcher, _Stop
from ..searchtypes import SearchMove, SearchState, TTEntry
from ..zobrist import Zobrist

MAX_DEPTH = 120         # the core's ply buffers hold a search this deep plus quiescence
_SKIP = -1              # a card the core does not take (conditional, or too many steps)

_module: ModuleType | None = None
_tried = False


def core() -> Any:
    """The compiled module (``companion.ai.native._core``), or None when it is not built or
    ``ONITAMA_NATIVE=0`` asks for the Python search."""
    global _module, _tried
    if os.environ.get("ONITAMA_NATIVE", "1") == "0":
        return None
    if not _tried:
        _tried = True
        try:
            _module = importlib.import_module("companion.ai.native._core")
        except ImportError:
            _module = None
    return _module


def available() -> bool:
    return core() is not None


def new_searcher(cards: CardTable = CARDS, roles: tuple[int, ...] = (ANY, ANY),
                 weights: Weights = Weights(), *, native: bool | None = None,
                 repeatable: bool = False) -> Searcher:
    """A searcher for the levels: the native one when the core is built (``native=None``)
    and covers this hand layout, else the Python one. ``native=False`` forces Python.
    ``repeatable`` (a search at a node budget): the native table gets the Python table's
    size, so that both cores play the same moves all game (a table cleared at another
    time gives other searches); on a clock the native table takes its own, larger, size."""
    if native is not False and roles == (ANY, ANY) and available():
        return NativeSearcher(cards, roles, weights,
                              native_tt_limit=budget().tt_entries if repeatable else None)
    if native:
        raise RuntimeError("the native search core is not built (python -m companion.ai.native.build)")
    return Searcher(cards, roles, weights)


def pack(mv: tuple[int, ...]) -> int:
    slot, f, t, sf, su, wins = mv[:6]
    return slot | (f + 1) << 2 | (t + 1) << 7 | (sf + 1) << 12 | (su + 1) << 17 | int(wins) << 22


def unpack(code: int) -> EngineMove:
    return (code & 3, (code >> 2 & 31) - 1, (code >> 7 & 31) - 1, (code >> 12 & 31) - 1,
            (code >> 17 & 31) - 1, bool(code >> 22 & 1))


class NativeSearcher(Searcher):
    """A :class:`Searcher` whose root iterations run in C where the core covers the state."""

    def __init__(self, cards: CardTable = CARDS, roles: tuple[int, ...] = (ANY, ANY),
                 weights: Weights = Weights(), *, zobrist: Zobrist | None = None,
                 tt_limit: int | None = None, native_tt_limit: int | None = None):
        super().__init__(cards, roles, weights, zobrist=zobrist, tt_limit=tt_limit)
        mod = core()
        if mod is None:
            raise RuntimeError("the native search core is not built")
        self._ffi, self._lib = mod.ffi, mod.lib
        limit = native_tt_limit if native_tt_limit is not None else budget().native_tt_entries
        ctx = self._lib.core_new(limit)
        if ctx == self._ffi.NULL:
            raise MemoryError("no memory for the native transposition table")
        self._ctx = self._ffi.gc(ctx, self._lib.core_free)
        self._index: dict[str, int] = {}
        self._covered = roles == (ANY, ANY)
        self._setup()

    def _setup(self) -> None:
        ffi, lib, z = self._ffi, self._lib, self.z
        lib.core_set_keys(self._ctx, ffi.new("uint64_t[]", [k for side in z.students for k in side]),
                          ffi.new("uint64_t[]", [k for side in z.masters for k in side]),
                          ffi.new("uint64_t[]", list(z.spirit)), z.turn)
        ev = self.evaluate
        base_s, base_m = zip(*(ev.base_terms(c) for c in (0, 1)))
        lib.core_set_eval(self._ctx, self.weights.tempo, self.weights.student,
                          ffi.new("int32_t[]", [v for side in base_s for v in side]),
                          ffi.new("int32_t[]", [v for side in base_m for v in side]), _GOAL[0], _GOAL[1])
        w = self.weights
        lib.core_set_race(self._ctx, ffi.new("int32_t[]", [0, w.race1, w.race2, w.race3, 0]), w.race_lead)

    def _card(self, name: str) -> int:
        """The core's index of card ``name``, handing it over on first use; _SKIP when the
        core does not take it."""
        found = self._index.get(name)
        if found is not None:
            return found
        lib, ffi = self._lib, self._ffi
        width = lib.CORE_MAXSTEP + 1
        steps: list[int] = []
        terms: list[int] = []
        usable = len(self._index) < lib.CORE_MAXCARDS
        red, blue = self.engine.table(name)
        for color, cm in ((0, red), (1, blue)):
            usable = usable and not cm.conditional
            for kind in (cm.student, cm.master, cm.spirit):
                for row in kind:
                    usable = usable and len(row) < width
                    targets = [t for t, _ in row][:width - 1]
                    steps += [len(targets)] + targets + [0] * (width - 1 - len(targets))
            s_full, m_full = self.evaluate.card_terms(name, color, 100)
            s_next, m_next = self.evaluate.card_terms(name, color, self.weights.next_card)
            terms += s_full + s_next + m_full + m_next
        if not usable:
            self._index[name] = _SKIP
            return _SKIP
        index = len([i for i in self._index.values() if i != _SKIP])
        lib.core_set_card(self._ctx, index, int(red.wind), ffi.new("int8_t[]", steps),
                          ffi.new("int32_t[]", terms), ffi.new("uint64_t[]", list(self.z.card(name))))
        self._index[name] = index
        return index

    def _state(self, st: SearchState) -> Any:
        """The core's form of ``st``, or None when the core does not cover it."""
        own, opp, mo, mp, sp, color, ho, hp, (mine, theirs) = st
        if not self._covered or len(ho) != 2 or len(hp) != 2 or len(mine) != 1 or theirs:
            return None
        cards = [self._card(name) for name in (*ho, *hp, mine[0])]
        if _SKIP in cards:
            return None
        if sp < 0 and any(self.engine.table(name)[0].wind for name in (*ho, *hp, mine[0])):
            return None     # a Wind Spirit card with no Spirit on the board: not a game the core plays
        return self._ffi.new("core_state *", {"own": own, "opp": opp, "mo": mo, "mp": mp, "sp": sp,
                                              "color": color, "ho": cards[:2], "hp": cards[2:4],
                                              "side": cards[4]})

    def set_endgames(self, endgames: Endgames | None) -> None:
        """The core probes the same table as the Python search (the node counts stay equal):
        a table built by the core, with each of its cards given the core's index."""
        if endgames is not None and endgames.owner is None:
            raise ValueError("the native search takes an endgame table built by the native core")
        super().set_endgames(endgames)
        if endgames is None:
            self._lib.core_set_endgames(self._ctx, self._ffi.NULL, self._ffi.NULL)
            return
        deal = [-1] * self._lib.CORE_MAXCARDS
        for k, name in enumerate(endgames.cards):
            index = self._card(name)
            if index != _SKIP:
                deal[index] = k
        self._lib.core_set_endgames(self._ctx, endgames.owner, self._ffi.new("int8_t[]", deal))

    def _age_history(self) -> None:
        super()._age_history()
        self._lib.core_age_history(self._ctx)
        self._lib.core_clear_stop(self._ctx)

    def request_stop(self) -> None:
        super().request_stop()
        self._lib.core_request_stop(self._ctx)

    def _tt_get(self, h: int) -> TTEntry | None:
        out = self._ffi.new("int32_t[4]")
        if self._lib.core_tt_get(self._ctx, h, out):
            return (out[0], out[1], out[2], unpack(out[3]))
        return super()._tt_get(h)

    def tt_size(self) -> int:
        """Entries in the native table now."""
        return int(self._lib.core_tt_size(self._ctx))

    def _root(self, st: SearchState, h: int, order: list[SearchMove], depth: int, all_scores: bool,
              margin: int | None = None) -> tuple[int, SearchMove, dict[SearchMove, int]]:
        cst = self._state(st) if depth <= MAX_DEPTH else None
        if cst is None:
            return super()._root(st, h, order, depth, all_scores, margin)
        ffi = self._ffi
        n = len(order)
        clock = ffi.new("core_clock *", {
            "nodes": self.nodes, "next_check": self._next_check,
            "node_limit": -1 if self._node_limit is None else self._node_limit,
            "seconds": 0.0 if self._deadline is None else self._deadline - time.perf_counter(),
            "has_deadline": int(self._deadline is not None)})
        scores = ffi.new("int32_t[]", n)
        best = ffi.new("int32_t[2]")
        stopped = self._lib.core_root(self._ctx, cst, h, ffi.new("uint32_t[]", [pack(mv) for mv in order]), n,
                                      depth, int(all_scores), int(margin is not None), margin or 0, clock,
                                      scores, best)
        self.nodes = clock.nodes
        self._next_check = clock.next_check
        if stopped:
            raise _Stop
        return best[0], order[best[1]], {mv: scores[i] for i, mv in enumerate(order)}

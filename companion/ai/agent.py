"""The computer player: ``choose(view, level) -> action text``.

A :class:`Player` keeps its search tables between the moves of a game (faster, same
answers at a node budget); :func:`choose` is the one-call form. Each way's registry entry
(``companion.rules.ways``) says how the computer plays it: searched on the main board, or
(Way of the Shadow and Way of the Light) through :mod:`companion.ai.hidden`, which plays from
the seat's knowledge only; or not at all (simultaneous play: both seats move at once, which
the search does not model).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from companion.rules.actions import Take, action_text
from companion.rules.board import engine_move
from companion.rules.engine import ANY, MASTER_ONLY, STUDENT_ONLY
from companion.rules.errors import VariantError
from companion.rules.moves import Move
from companion.rules.ways import HIDDEN_SEARCH, way

from .dealtables import TABLES
from .evaluate import Weights
from .levels import Level, level as get_level
from .native import new_searcher
from .search import Limits, Result, Searcher, search_state
from .searchtypes import SearchMove, SearchState
from .view import SeatView, ViewError

if TYPE_CHECKING:
    from .hidden import HiddenPlayer

ROLE_BY_NAME = {"any": ANY, "master": MASTER_ONLY, "student": STUDENT_ONLY}


class UnsupportedMode(ViewError):
    """The computer does not play this way (the registry says so: simultaneous play)."""


class CannotMove(ViewError):
    """The search finds no move in a position where the rules give one (a way whose rules
    the board search does not model, past the point where they differ)."""


def how_played(mode: str) -> str:
    """How the computer plays the way ``mode``, as its registry entry says: searched on the
    main board (``BOARD_SEARCH``) or from the seat's knowledge (``HIDDEN_SEARCH``).
    Raises :class:`UnsupportedMode` for a way it does not play."""
    try:
        chosen = way(mode)
    except VariantError as exc:
        raise UnsupportedMode(str(exc)) from None
    if chosen.computer is None:
        raise UnsupportedMode(chosen.no_computer())
    return chosen.computer


class Player:
    """One computer seat for one game. ``seed`` makes its choices repeatable (with a node
    budget); ``seconds``/``nodes`` override the level's budget. ``native``: the native search
    core where it is built (None), or the Python search (False); both choose the same moves
    at a node budget (every level's but ``hard``'s, which the native core spends on a deeper
    search)."""

    def __init__(self, level: str | Level = "medium", *, seed: int = 0, seconds: float | None = None,
                 nodes: int | None = None, weights: Weights = Weights(), native: bool | None = None):
        self.level = get_level(level)
        self.native = native
        self.seconds = seconds
        self.nodes = nodes
        self.weights = weights
        self.seed = seed
        self._searchers: dict[tuple[str, tuple[int, ...]], Searcher] = {}
        self.last: Result | None = None      # the last search, for benchmarks and bestmove
        # Knowledge: (log, move, state) of the last move
        self._plan: tuple[tuple[str, ...], SearchMove, SearchState] | None = None
        self._hidden: HiddenPlayer | None = None

    def limits(self) -> Limits:
        return self.level.limits(seconds=self.seconds, nodes=self.nodes)

    def searcher(self, view: SeatView) -> Searcher:
        roles = tuple(ROLE_BY_NAME[s] for s in view.slots) or (ANY, ANY)
        key = (view.mode, roles)
        found = self._searchers.get(key)
        if found is None:
            found = self._searchers[key] = new_searcher(view.cards(), roles, self.weights, native=self.native,
                                                        repeatable=self.limits().nodes is not None)
        return found

    def attach_endgames(self, view: SeatView, searcher: Searcher) -> None:
        """Give the searcher the exact endgames of this game's deal once they are built
        (:mod:`companion.ai.dealtables`; the base game only)."""
        found = None
        if view.mode == "base":
            pos = view.board()
            found = TABLES.ready((*pos.hands[0], *pos.hands[1], *pos.side), searcher.cards)
        if searcher.endgames is not found:
            searcher.set_endgames(found)

    def rng(self, view: SeatView) -> random.Random:
        """A generator seeded by the seed and the public history only, so two games that
        look the same to this seat get the same choices."""
        return random.Random(f"{self.seed}|{view.mode}|{view.seat}|{len(view.log)}|{view.phase}|"
                             f"{view.position}|{'|'.join(view.log)}")

    def choose(self, view: SeatView) -> str:
        if not isinstance(view, SeatView):
            raise TypeError("the computer's only input is a SeatView (SeatView.from_view(referee.view(seat)))")
        if view.seat not in view.to_act:
            raise ViewError(f"it is not {view.seat}'s turn to act")
        if not view.legal:
            raise ViewError("no legal action in this view")
        if how_played(view.mode) == HIDDEN_SEARCH:
            from .hidden import HiddenPlayer
            if self._hidden is None:
                self._hidden = HiddenPlayer(self)
            return self._hidden.choose(view)
        if view.phase == "take":
            return self._take(view)
        return action_text(self.best_move(view))

    def state(self, view: SeatView) -> SearchState:
        pos = view.board()
        stacks = None
        if view.side_stacks is not None:
            c = pos.turn
            stacks = (view.side_stacks[c], view.side_stacks[c ^ 1])
        return search_state(pos, stacks)

    def best_move(self, view: SeatView) -> Move:
        searcher = self.searcher(view)
        self.attach_endgames(view, searcher)
        st = self.state(view)
        lv = self.level
        result = searcher.search(st, self.limits(), root_scores=lv.temperature > 0,
                                 margin=int(4 * lv.temperature) or None)
        self.last = result
        mv = lv.pick(result.root, self.rng(view)) if lv.temperature > 0 and result.root else result.move
        if mv is None:
            # The view has a legal action, yet the search holds the game for over.
            raise CannotMove(f"the computer finds no move for {view.seat} here")
        self._plan = (view.log, mv, st)
        return engine_move(searcher.cards, st, mv[:6])

    def _take(self, view: SeatView) -> str:
        """Knowledge: the card to take from the side stack, as planned with the move when
        this player made it; otherwise the card whose hand the evaluation likes best."""
        plan = self._plan
        options = [a for a in view.actions() if isinstance(a, Take)]
        if plan is not None and plan[0] == view.log and len(plan[1]) > 6:
            mine = plan[2][8][0]
            wanted = mine[plan[1][6]]
            if Take(wanted) in options:
                return action_text(Take(wanted))
        searcher = self.searcher(view)
        own, _, mo, _, _, color = self.state(view)[:6]

        def value(card: str) -> int:
            students, master = searcher.evaluate.tables(color, (card,), None)
            return sum(master[sq] if sq == mo else students[sq] for sq in range(25) if own >> sq & 1)

        return action_text(max(options, key=lambda a: value(a.card)))

def choose(view: SeatView, level: str | Level = "medium", *, seed: int = 0,
           seconds: float | None = None, nodes: int | None = None) -> str:
    """The computer's action for ``view``, in the notation ``Referee.act`` accepts."""
    return Player(level, seed=seed, seconds=seconds, nodes=nodes).choose(view)

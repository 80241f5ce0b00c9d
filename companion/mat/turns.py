"""The legal turns of positions, made on demand: the histories' tree (histories.py) grows
only along turns whose first piece left a square the hands emptied, so most turns of most
positions are never made Moves, read as mats or played. Positions repeat across histories
and anchors: their turns are kept (``Known``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Callable

from ..rules.board import engine_move
from ..rules.cards import CardTable
from ..rules.engine import Engine, EngineMove
from ..rules.moves import Move
from ..rules.position import Position
from .emptied import AGAIN, Again
from .pieces import Pieces
from .readings import Reading, pieces_of, read_move

if TYPE_CHECKING:
    from .histories import Node

KNOWN = 4000      # positions whose legal turns are kept (a few anchors' trees)


class Turns:
    """The legal turns from one position, made Moves, read as mats and played on demand: a
    history grows only along turns whose first piece left a square the hands emptied, so
    most turns of most positions are never looked at (positions repeat across histories and
    anchors: they are kept, see ``Known``)."""

    def __init__(self, position: Position, engine: Engine, cards: CardTable, over: bool):
        self.position, self.over = position, over
        self._engine, self._cards = engine, cards
        self._state = engine.state(position)
        raw = [] if over else engine.moves(self._state)
        self.must_pass = bool(raw) and all(mv[1] < 0 and mv[3] < 0 for mv in raw)
        # The turns by the square their first piece leaves (the pawn's, else the Spirit's).
        self._starts: dict[int, list[tuple[int, EngineMove]]] = {}
        for i, mv in enumerate(raw):
            first = mv[1] if mv[1] >= 0 else mv[3]
            if first >= 0:
                self._starts.setdefault(first, []).append((i, mv))
        self._raw = raw
        self._moves: list[Move] | None = None
        self._made: dict[EngineMove, Move] = {}
        self._made_from: dict[int, tuple[tuple[int, Move], ...]] = {}
        self._raw_of: dict[Move, EngineMove] = {}
        self.readings: dict[Move, Reading] = {}
        self._afters: dict[Move, Position] = {}
        self._pieces: Pieces | None = None
        self._pawn_starts: tuple[int, ...] | None = None
        self._winds: tuple[bool, ...] | None = None   # is the mover's card in each slot a Wind card
        self._visits: dict[int, set[int]] | None = None   # each square's turns (by index)

    def _move(self, mv: EngineMove) -> Move:
        m = self._made.get(mv)
        if m is None:
            m = self._made[mv] = engine_move(self._cards, self._state, mv)
            self._raw_of.setdefault(m, mv)
        return m

    def _wind_slots(self) -> tuple[bool, ...]:
        """Whether each of the mover's cards (by the engine's slot) is a Wind Spirit card,
        looked up once: a card looked up by name folds the name's case, and a node's look for
        pawn steps asked it of every turn (most of the look's time)."""
        if self._winds is None:
            cards = self._cards
            self._winds = tuple(n in cards and cards[n].is_wind_card for n in self._state[6])
        return self._winds

    @property
    def moves(self) -> list[Move]:
        """Every legal turn, in the engine's order (each once)."""
        if self._moves is None:
            self._moves = list(dict.fromkeys(self._move(mv) for mv in self._raw))
        return self._moves

    def reading(self, move: Move) -> Reading:
        r = self.readings.get(move)
        if r is None:
            if self._pieces is None:
                self._pieces = pieces_of(self.position)   # (one position, many turns)
            r = self.readings[move] = read_move(self.position, move, self._pieces)
        return r

    def after(self, move: Move) -> Position:
        pos = self._afters.get(move)
        if pos is None:
            if move not in self._raw_of:
                self.moves   # every turn made a Move (the move came from elsewhere)
            engine = self._engine
            pos = self._afters[move] = engine.position(engine.apply(self._state, self._raw_of[move]))
        return pos

    def pawn_starts(self) -> tuple[int, ...]:
        """The squares a Wind Spirit card's pawn step (with a Spirit step to come) leaves
        (worked out once: every growth asks each node's)."""
        if self._pawn_starts is None:
            wind = self._wind_slots()
            self._pawn_starts = tuple(
                sq for sq, turns in self._starts.items()
                if any(mv[1] >= 0 and mv[3] >= 0 and wind[mv[0]] for _, mv in turns))
        return self._pawn_starts

    def leaving(self, sq: int) -> tuple[tuple[int, Move], ...]:
        """The turns whose first piece leaves ``sq``, with their index in the engine's order."""
        return self._from(sq)

    def pawn_steps(self, squares: tuple[int, ...]) -> list[tuple[int, int, Move]]:
        """The Wind Spirit cards' pawn steps from ``squares`` (with a Spirit step to come), each
        once, with the first turn that makes it, in the engine's order. Read off the engine's
        tuples: only those turns are made Moves (the others from a leaf of the tree seldom
        are: making every turn of a square was most of a look's time)."""
        wind = self._wind_slots()
        found: dict[tuple[int, int], Move] = {}
        for _, mv in sorted(e for sq in squares for e in self._starts.get(sq, ())):
            f, t, sf = mv[1], mv[2], mv[3]
            if f >= 0 and sf >= 0 and (f, t) not in found and wind[mv[0]]:
                found[(f, t)] = self._move(mv)
        return [(f, t, m) for (f, t), m in found.items()]

    def boards(self) -> list[Pieces]:
        """The board each turn leaves (its reading's ``pieces``; none where the player must
        pass), worked out on the engine's tuples: no turn made a Move or read (the labels
        the maps are ranked by need every turn's board at each publication)."""
        if self.must_pass:
            return []
        if self._pieces is None:
            self._pieces = pieces_of(self.position)
        wind, spirit = self._wind_slots(), self.position.spirit
        out = []
        for slot, f, t, sf, su, _ in self._raw:
            board = list(self._pieces)
            if wind[slot]:
                pawn, steps = f >= 0, ((sf, su),) if sf >= 0 else ()
            else:   # (as read_move reads a regular card's turn: the Spirit's, or a pawn's)
                a, b = (f, t) if f >= 0 else (sf, su)
                pawn, steps = a >= 0 and a != spirit, ((a, b),) if a >= 0 and a == spirit else ()
                f, t = a, b
            if pawn:
                board[t], board[f] = board[f], None
            for s, u in steps:
                board[s], board[u] = (board[u], "W") if board[u] is not None else (None, "W")
            out.append(tuple(board))
        return out

    def visiting(self, lifted: Counter[int], squares: frozenset[int]) -> bool:
        """Does a turn whose first piece leaves a square in ``lifted`` visit each of
        ``squares`` (its pawn's and its Spirit's squares: a reading's ``touched``)? Read off
        the engine's tuples: no turn made a Move, read or played."""
        if not squares:
            return any(n > 0 and sq in self._starts for sq, n in lifted.items())
        if self._visits is None:
            self._visits = {}
            for i, mv in enumerate(self._raw):
                for sq in set(mv[1:5]) - {-1}:
                    self._visits.setdefault(sq, set()).add(i)
        visits = [self._visits.get(sq, set()) for sq in squares]
        both = set.intersection(*visits)
        raw = self._raw
        return any(lifted[raw[i][1] if raw[i][1] >= 0 else raw[i][3]] > 0 for i in both)

    def _from(self, sq: int) -> tuple[tuple[int, Move], ...]:
        """The turns whose first piece leaves ``sq`` (each once), with their engine index
        (a tuple: one object less for the cyclic collector than a list, kept as long)."""
        out = self._made_from.get(sq)
        if out is None:
            seen: set[Move] = set()
            made = []
            for i, mv in self._starts.get(sq, ()):
                m = self._move(mv)
                if m not in seen:
                    seen.add(m)
                    made.append((i, m))
            out = self._made_from[sq] = tuple(made)
        return out


def origins(move: Move) -> tuple[int, ...]:
    """The squares a turn lifts its own pieces off (its pawn, the Spirit)."""
    f, s = move.from_sq, move.spirit_from
    return (() if f is None else (f,)) + (() if s is None else (s,))


class Known(dict[Position, Turns]):
    """Positions' legal turns, kept across anchors; forgotten all at once past ``KNOWN``.
    ``cleared`` counts the times: a position's turns found since the last time are still
    kept (a growth keeps each node's, see ``Grower.turns``)."""

    cleared = 0

    def __setitem__(self, pos: Position, moves: Turns) -> None:
        if len(self) >= KNOWN:
            self.clear()
            self.cleared += 1
        super().__setitem__(pos, moves)


class Counts:
    """Counts of lifts per square, each distinct one given a number, and which squares one
    counts more than another (a growth of the tree goes on from the last one when the lifts
    only grew: see ``histories.Tree``)."""

    def __init__(self) -> None:
        self._ids: dict[tuple[tuple[int, int], ...], int] = {}
        self.counts: list[Counter[int]] = []
        self._rises: dict[tuple[int, int], frozenset[int] | None] = {}

    def number(self, counts: Counter[int]) -> int:
        key = tuple(sorted((sq, n) for sq, n in counts.items() if n > 0))
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self.counts)
            self.counts.append(Counter(dict(key)))
        return found

    def rises(self, before: int, after: int) -> frozenset[int] | None:
        """The squares ``after`` counts more often than ``before``; None if it counts one
        less often (then nothing found under ``before`` carries over)."""
        pair = (before, after)
        if pair not in self._rises:
            old, new = self.counts[before], self.counts[after]
            if any(new[sq] < n for sq, n in old.items()):
                self._rises[pair] = None
            else:
                self._rises[pair] = frozenset(sq for sq, n in new.items() if n > old[sq])
        return self._rises[pair]


class Lifts:
    """The lifts one growth of the tree uses: how often hands emptied each square
    (``lifted``), and the lifts a turn after so many turns may use (``window``, each depth
    computed once), each numbered by ``counts``."""

    def __init__(self, lifted: Counter[int], window: Callable[[int], Counter[int]],
                 counts: Counts, again: "Again | None" = None):
        self.lifted, self._window, self._counts = lifted, window, counts
        self.again = again
        # The open moves' node the lifts again count for (a grower's turns found with other
        # open moves' are not these lifts').
        self.made: "Node | None" = None if again is None else again.made
        # (Numbered with the lifts again, each on a square of its own: ``AGAIN`` + square.)
        self.number = counts.number(lifted if again is None else
                                    lifted + Counter({AGAIN + sq: n
                                                      for sq, n in again.lifts.items()}))
        self._known: dict[int, tuple[Counter[int], int]] = {}

    def window(self, depth: int) -> Counter[int]:
        return self._at(depth)[0]

    def window_number(self, depth: int) -> int:
        return self._at(depth)[1]

    def _at(self, depth: int) -> tuple[Counter[int], int]:
        if depth not in self._known:
            allowed = self._window(depth)
            self._known[depth] = (allowed, self._counts.number(allowed))
        return self._known[depth]

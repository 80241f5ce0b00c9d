"""Seats the table plays for someone who is not at the mat, and the one thread that thinks.

Two kinds of seat have their main-board moves made on the mat by someone else's hands:

- a **computer** seat (``{"blue": "medium"}`` at set-up): the computer chooses from that
  seat's view only (``SeatView.from_view(referee.view(seat))``);
- a **remote** seat: a person plays it from a phone away from the table.

Either way the chosen move becomes the game's :class:`Expected` move: the mat shows it (its
from and to squares blink alternately, the e-board convention) and the game thread commits it
only when the recognizer reads exactly that move from the mat. A different move is not
committed: the mat is guided back to the game's position, and the expected move shown again.
Steps the mat cannot show (a Ninja's step, a Strike, a Lantern, a pass, a hidden Shadow
Master's move) are played at once, as a phone plays them.

The computer's decisions and every hint are computed on a :class:`Thinker` thread, never on
the game thread. Each job carries the game's version (:func:`version`) when it was asked;
its result is posted back to the game thread, which drops it if the game has moved on since.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..ai.agent import CannotMove, Player
from ..ai.hints import hint_table
from ..ai.levels import NAMES
from ..ai.view import SeatView
from ..rules.actions import parse_action
from ..rules.errors import OnitamaError
from ..rules.moves import Move
from ..rules.referee import SEATS, Referee
from ..rules.ways import WAYS, way
from .errors import BadRequest
from .logwords import bug

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "medium"
LEVELS: tuple[str, ...] = NAMES   # the computer's levels, for the pages
HINTS_PER_GAME = 3            # a seat's hints in one game, unless set-up says otherwise
MAX_HINTS = 99
HINT_NODES = 20_000           # one search grades every destination (companion.ai.hints)

# Ways two tables play (companion.rules.ways.Way.across_tables).
TABLE_WAYS = frozenset(name for name, way in WAYS.items() if way.across_tables)

Version = tuple[int, int]     # (game id, number of saved actions): changes with every turn


# A job for the thinker: what to run, what to do with its result, and with its error.
Job = tuple[Callable[[], Any], Callable[[Any], None], Callable[[Exception], None] | None]


class Chooser(Protocol):
    def choose(self, view: SeatView) -> str: ...


def version(game_id: int, seq: int) -> Version:
    return (game_id, seq)


# -- set-up ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Seating:
    """Who plays each seat besides people at the mat, and the hints each seat may ask for."""
    computer: Mapping[str, str]      # seat -> level
    remote: tuple[str, ...] = ()
    hints: int = HINTS_PER_GAME
    table: tuple[str, ...] = ()      # seats played on another table's mat (companion.link)

    def header(self) -> dict[str, Any]:
        out = {"computer": dict(self.computer), "remote": list(self.remote), "hints": self.hints}
        return {**out, "table": list(self.table)} if self.table else out

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> "Seating":
        return cls(dict(header.get("computer", {})), tuple(header.get("remote", ())),
                   int(header.get("hints", HINTS_PER_GAME)), tuple(header.get("table", ())))

    @property
    def away(self) -> frozenset[str]:
        """Seats whose main-board moves someone at this mat makes for them."""
        return frozenset(self.computer) | frozenset(self.remote) | frozenset(self.table)


def seating(request: Mapping[str, Any], *, mode: str) -> Seating:
    """The ``computer``, ``remote``, ``table`` and ``hints`` options of a new-game request,
    checked."""
    computer = _computer_seats(request, mode=mode)
    remote = request.get("remote") or []
    table = table_seats(request, mode=mode)
    hints = request.get("hints", HINTS_PER_GAME)
    if not isinstance(remote, list) or not all(seat in SEATS for seat in remote):
        raise BadRequest("remote is a list of seats, such as [\"red\"]")
    if set(remote) & set(computer):
        raise BadRequest("a seat is played by the computer or from a phone, not both")
    if set(table) & (set(remote) | set(computer)):
        raise BadRequest("a seat played at another table is played there only")
    if not isinstance(hints, int) or isinstance(hints, bool) or not 0 <= hints <= MAX_HINTS:
        raise BadRequest(f"hints is a number from 0 to {MAX_HINTS}")
    return Seating(dict(sorted(computer.items())), tuple(s for s in SEATS if s in remote), hints,
                   table)


def _computer_seats(request: Mapping[str, Any], *, mode: str) -> dict[str, str]:
    """The ``computer`` option: {seat: level}, in a way the computer plays."""
    computer = request.get("computer") or {}
    if not isinstance(computer, dict) or not all(
            seat in SEATS and isinstance(lv, str) for seat, lv in computer.items()):
        raise BadRequest("computer is {seat: level}, such as {\"blue\": \"medium\"}")
    for lv in computer.values():
        if lv not in LEVELS:
            raise BadRequest(f"unknown level {lv!r} (known: {', '.join(LEVELS)})")
    if computer and way(mode).computer is None:
        raise BadRequest(way(mode).no_computer())
    return computer


def table_seats(request: Mapping[str, Any], *, mode: str) -> tuple[str, ...]:
    """The ``table`` option: the one seat played at another table, in a way both tables can
    play with every rule checked on each (``Way.across_tables``)."""
    table = request.get("table") or []
    if not isinstance(table, list) or not all(seat in SEATS for seat in table) or len(table) > 1:
        raise BadRequest("table is a list of one seat played at another table, such as [\"blue\"]")
    if table and mode not in TABLE_WAYS:
        raise BadRequest(f"{WAYS[mode].title} is not played across two tables yet: "
                         f"{WAYS[mode].not_across}")
    return tuple(table)


# -- the expected move -------------------------------------------------------------------

@dataclass(frozen=True)
class Expected:
    """A main-board move the mat is asked to make for ``seat``."""
    seat: str
    text: str
    move: Move
    by: str                 # "computer", "remote" or "table" (another table's mat)

    def steps(self) -> tuple[tuple[int, int], ...]:
        """Its (from, to) pairs on the mat: the piece's step, then the Spirit's."""
        return mat_steps(self.move)

    def begun_by(self, move: Move) -> bool:
        """May the mat still amend ``move`` into this one? It is one step of this one, with
        another still to make (a Wind Spirit card's pawn step is often another card's whole
        move, read as such once the mat rests), or this one's pawn step with another Spirit
        step: the Spirit lifted as the pawn lands and set back on its square for a moment
        reads as its step onto the pawn's square, a swap, whose pieces stand where the pawn
        step alone leaves them (the table robot, wind4 computer 122: ``Octopus e1d2 c3d2``
        read, then amended into ``Octopus e1d2 c3b3``)."""
        read, mine = mat_steps(move), mat_steps(self.move)
        if move.is_pass:
            return False
        return set(read) < set(mine) or (len(read) == len(mine) == 2 and read[0] == mine[0])


def mat_steps(move: Move) -> tuple[tuple[int, int], ...]:
    """A move's (from, to) pairs on the mat: the piece's step, then the Spirit's."""
    pairs = [(move.from_sq, move.to_sq), (move.spirit_from, move.spirit_to)]
    return tuple((a, b) for a, b in pairs if a is not None and b is not None)


def board_move(referee: Referee[Any], seat: str, text: str) -> Move | None:
    """``text`` as the main-board move it names, when it is one of ``seat``'s legal actions
    now (None: a legal action that is no board move, such as a Ninja step or a pass).
    Raises :class:`BadRequest` for an action that is not legal."""
    view = referee.view(seat)
    table = referee.cards
    try:
        action = parse_action(text, view.get("card"), table)
    except OnitamaError as exc:
        raise BadRequest(str(exc)) from None
    legal = [parse_action(a["text"], view.get("card"), table) for a in view.get("legal", [])]
    if action not in legal:
        raise BadRequest(f"{text!r} is not a legal action for {seat} now")
    if isinstance(action, Move) and not action.is_pass:
        return action
    return None


def same_move(expected: Expected, mat_text: str, referee: Referee[Any]) -> bool:
    """Is the move the recognizer read the expected one?"""
    try:
        return parse_action(mat_text, None, referee.cards) == expected.move
    except OnitamaError:
        return False


# -- the thinking thread -----------------------------------------------------------------

def default_player(level: str, seed: int, nodes: int | None) -> Chooser:
    return Player(level, seed=seed, nodes=nodes)


def default_hints(view: SeatView, nodes: int) -> dict[str, dict[str, str]]:
    return hint_table(view, nodes=nodes)


class Thinker:
    """One thread that runs the computer's searches and the hints, a job at a time, and
    posts each result back to the game thread (``post``). Searches are CPU-bound pure
    Python; on their own thread they share the interpreter with the game thread, which
    takes its turns between them instead of waiting for a whole search."""

    def __init__(self, post: Callable[[Callable[[], object]], None]):
        self._post = post
        self._stopped = False
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="thinker", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], Any], done: Callable[[Any], None],
               failed: Callable[[Exception], None] | None = None) -> None:
        """Run ``job`` here; then ``done(result)`` on the game thread, or ``failed(error)``
        there when it raised (a job nobody waits on may leave ``failed`` out)."""
        self._jobs.put((job, done, failed))

    def close(self) -> None:
        """Stop after the job running now (its result is not posted); the rest are dropped."""
        self._stopped = True
        self._jobs.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None or self._stopped:
                return
            job, done, failed = item
            try:
                result = job()
            except CannotMove as exc:
                log.warning("%s", exc)          # the way's rules, not a bug
                self._fail(failed, exc)
                continue
            except Exception as exc:
                bug(log, "thinking", exc)
                self._fail(failed, exc)
                continue
            if not self._stopped:
                self._post(lambda: done(result))

    def _fail(self, failed: Callable[[Exception], None] | None, exc: Exception) -> None:
        if failed is not None and not self._stopped:
            self._post(lambda: failed(exc))

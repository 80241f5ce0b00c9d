"""The record as published: the moves that stand, and the last ones later hands may still change.

Moves before the *anchor* stand. Moves published after it are open: when the histories that
explain the mat change one of them, the record publishes the correction. A move replaced by
another of the same mover is an amendment (``takeback`` marked ``amend``, then ``move`` marked
``amended``; the OLED says so); a move dropped is a ``takeback``.
"""

from __future__ import annotations

from ..rules.board import Board
from ..rules.moves import Move
from ..rules.position import COLORS, Position
from . import oled
from .events import MatEvent
from .readings import Reading
from .window import move_of

ANNOUNCE_S = 4.0  # an amended turn is announced on the OLED this long


class Record:
    """The game as recognized (``board``): the moves that stand, then the ``open`` ones."""

    def __init__(self, board: Board, flash_s: float):
        self.board = board
        self.open: list[Reading] = []
        self.flash_s = flash_s
        self.flash: tuple[frozenset[int], float] | None = None
        self.announce: tuple[tuple[str, ...], float] | None = None
        # The last two open moves were published together at a rest, and the mat never rested
        # on the first alone: the hands that went on may be its mover's (a piece set down for
        # a moment where it does not end, read as the next player's reply). Both stay open
        # until the next publication, and a history that changes them amends them (story 6).
        self.pair = False
        # A whole reading published over a Wind Spirit card part-way (``on_its_way.held_open``):
        # the open turns from the one asked about (``hold``, asked for the next publication,
        # ``held`` once made) stay open until the next publication, so that the card's Spirit
        # step, if it comes, still reads the part-way history (the turn asked is asked again).
        # Also a turn a question offered to take back, still asked about when a publication
        # keeps it (``Heard.back_offered``): a late answer may still take it back, while the
        # mat is still (``still``: such a hold ends at the next change, :meth:`release`).
        self.hold: int | None = None
        self.held: int | None = None
        self.hold_still = self.still = False
        self.deferred = 0   # the open moves that would stand but for such a hold

    @property
    def position(self) -> Position:
        return self.board.position

    def moves_open(self) -> tuple[Move, ...]:
        """The open moves (every open reading is a turn's)."""
        return tuple(move_of(r) for r in self.open)

    def through(self, move: str) -> int:
        """How many open moves stand if the last open ``move`` (its text) and those before it
        do; 0 if ``move`` is not open."""
        opened = [str(m) for m in self.moves_open()]
        return len(opened) - opened[::-1].index(move) if move in opened else 0

    def anchor(self) -> Board:
        """The game at the anchor (a copy)."""
        board = self.board.copy()
        for _ in self.open:
            board.pop()
        return board

    def before_last(self) -> Position | None:
        """The position the last open move was played from."""
        if not self.open:
            return None
        board = self.board.copy()
        board.pop()
        return board.position

    def publish(self, steps: tuple[Reading, ...], t: float, unseen: bool = False) -> list[MatEvent]:
        """Make the open moves ``steps`` (from the anchor); returns the events. ``unseen``: the
        last two of them are a :attr:`pair` (:func:`.pairs.paired`)."""
        k = 0
        while k < min(len(steps), len(self.open)) and steps[k].move == self.open[k].move:
            k += 1
        events: list[MatEvent] = []
        popped, pushed = self.open[k:], list(steps[k:])
        # (The reply of a pair dropped, and its first turn's piece put elsewhere: the reply
        # was the mover's hand going on, and the turn is amended.)
        pair, self.pair = self.pair and len(popped) == 2, unseen
        self.held, self.hold = self.hold, None
        self.still, self.hold_still = self.hold_still, False
        if len(popped) - int(pair) == 1 and pushed and _origin(popped[0]) == _origin(pushed[0]):
            # The same piece put elsewhere: the turn amended (another piece moved after the
            # takeback is the takeback, then a turn).
            if pair:
                events.append({"takeback": str(self.board.pop())})
            old = self.board.pop()
            mover = COLORS[self.board.position.turn].title()
            new = self._push(pushed.pop(0))
            events += [{"takeback": str(old), "amend": True}, {"move": str(new), "amended": True}]
            self.announce = (oled.amended_lines(mover, str(new)), t + ANNOUNCE_S)
        else:
            for _ in popped:
                move = self.board.pop()
                events.append({"takeback": str(move)})
                self.flash = (_origins(move), t + self.flash_s)
        for r in pushed:
            events.append({"move": str(self._push(r))})
        self.open = list(steps)
        if steps[k:]:
            last = steps[-1].move
            assert last is not None, "a published step is a turn"
            lands = frozenset(sq for sq in (last.to_sq, last.spirit_to) if sq is not None)
            self.flash = (lands, t + self.flash_s) if lands else None
            outcome = self.board.outcome()
            if outcome is not None:
                events.append({"winner": outcome.winner, "how": outcome.how})
        return events

    def hold_for_answer(self, k: int | None) -> None:
        """Hold open turn ``k`` (None: none) for the next publication, unless another hold
        is asked, only while the mat is still."""
        if self.hold is None and k is not None:
            self.hold, self.hold_still = k, True

    def release(self) -> int:
        """The mat changed: a hold made only while it is still ends. The number of open
        moves that stand now (those it kept from standing), else 0."""
        if not self.still or self.held is None:
            return 0
        n, self.deferred, self.held, self.still = self.deferred, 0, None, False
        return n

    def standing(self, n: int) -> int:
        """How many of the first ``n`` open moves may stand now (not those :attr:`held`)."""
        if self.held is None:
            return n
        if self.still:
            self.deferred = n
        return min(n, self.held)

    def pass_turn(self, move: Move) -> list[MatEvent]:
        """The player to move had no move on the mat and gave up a card: it stands at once."""
        self.board.push(move)
        self.open = []
        return [{"move": str(move)}]

    def advance(self, n: int) -> list[Reading]:
        """The first ``n`` open moves stand now; returns them."""
        done, self.open = self.open[:n], self.open[n:]
        return done

    def seal(self) -> list[Reading]:
        """Every open move stands (the turn went on off the mat, or the game is over)."""
        return self.advance(len(self.open))

    def expire(self, t: float) -> None:
        if self.flash is not None and t >= self.flash[1]:
            self.flash = None
        if self.announce is not None and t >= self.announce[1]:
            self.announce = None

    def _push(self, r: Reading) -> Move:
        assert r.move is not None, "a published step is a turn"
        return self.board.push(r.move)


def _origins(move: Move) -> frozenset[int]:
    return frozenset(sq for sq in (move.from_sq, move.spirit_from) if sq is not None)


def _origin(r: Reading) -> int | None:
    """The square a turn picks up its first piece from (its pawn, or the Spirit)."""
    move = r.move
    assert move is not None, "a published step is a turn"
    return move.from_sq if move.from_sq is not None else move.spirit_from

"""Spirit glimpses, as the judge sees them: the next player lifts the Spirit 50-250 ms after a
turn landed it (hurried, snatch), before the mat could rest there, and moves it on. The
switches cannot tell that landing from the Spirit set down a moment on its way: a chain of such
turns leaves the edges that fewer turns (one, or none: a round trip) leave too, with hesitations
on the way. The mat must then ask, or let the next hands settle it; it cannot read the turns
at the chain's rest (snatch 36: Spider e5d4 c3b2, Centipede b2a2, Sasori a2c2, each Spirit stop
0.16-0.22 s, is also Spider e5d4 c3c2 with the Spirit set down on b2 and a2).

So, for a chain of two or more turns, each after the first a Spirit step alone begun by lifting
the Spirit where the turn before it landed it, less than the settle time after that turn's last
edge:
- a turn decided by its reply's rest (``Turn.decided_by``: the reply began on its squares) is
  decided by the chain's last rest: a glimpsed reply never rests, the mat rests only there;
- a chain of two turns whose last turn's question (whose step, move or takeback: ``tracegen``) is
  answered at once: that answer decides the first turn too (``Turn.answered``), the question is
  about both (longer chains: as below, the answer may leave a shorter reading of earlier turns);
- else, if fewer legal turns from the chain's first position leave the same board, lifting only
  squares the hands lifted, each such reading is an answer the later turns must rule out (as
  ``questions.OpenQuestion`` does for a question left open): the chain's turns, and those
  played before they are ruled out, are decided by the rest of the turn that rules the last
  one out (``Turn.decided_by``; if that turn's own Spirit landing is glimpsed, the rest of the
  chain it is in: the mat rests only there); never ruled out, they are not timed (``untimed``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from companion.rules.board import Board
from companion.rules.moves import Move
from companion.rules.position import COLORS, Position, format_board
from companion.rules.squares import parse_square

from questions import OpenQuestion
from tracelooks import first_lift, spirit_only

FEWER = 3   # the readings looked for: at most this many turns (and fewer than the chain's)


@dataclass
class Chain:
    before: Position
    turns: list = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    after: Position | None = None
    lifted: set[int] = field(default_factory=set)
    settled: list = field(default_factory=list)   # turns decided once the mat rests after it
    answer: dict = field(default_factory=dict)   # the last turn's mover naming its card


@dataclass
class Unsettled:
    question: OpenQuestion
    turns: list


def answer_for(move: Move, before: Position) -> dict:
    """The phone answer of ``move``'s mover naming its card, to the question shown (as an
    answer given at once, it names no turn)."""
    return {"seat": COLORS[before.turn], "card": move.card}


class Glimpses:
    """The chain of glimpses going on, and the chains whose other readings are still open."""

    def __init__(self, settle: float):
        self.settle = settle
        self.chain: Chain | None = None
        self.open: list[Unsettled] = []

    def after_turn(self, turn, move: Move | None, before: Position | None, after: Position | None,
                   first: int | None, lifted: set[int]) -> None:
        """``turn`` was played (``move`` from ``before`` to ``after``; None: a pass or a
        takeback), its hands' first lift ``first``, the squares they lifted ``lifted``."""
        chain = self.chain
        if chain is not None and move is not None and self._goes_on(chain, turn, move, before, first):
            chain.turns.append(turn)
            chain.moves.append(move)
            chain.after = after
            chain.lifted |= lifted
            assert before is not None
            chain.answer = answer_for(move, before)
        else:
            if chain is not None:
                self._ended(chain)
            self.chain = (Chain(before, [turn], [move], after, set(lifted),
                                answer=answer_for(move, before))
                          if move is not None and before is not None else None)
        for unsettled in list(self.open):
            if any(t is turn for t in unsettled.turns):
                continue
            if move is None or before is None or after is None:
                unsettled.turns.append(turn)
                continue
            unsettled.question.observe(before, move, after)
            if unsettled.question.settled:
                # (Read once the mat rests: at the end of the chain ``turn`` is in.)
                self.open.remove(unsettled)
                assert self.chain is not None
                self.chain.settled += unsettled.turns
            else:
                unsettled.turns.append(turn)

    def hesitated(self, turn, move: Move, before: Position, after: Position,
                  squares: list[int]) -> None:
        """``turn``'s hands set a piece down a moment on ``squares`` (empty before and after,
        less than the settle time): where one was the Spirit's stop, and the mover's turn
        ending there with the next player's Spirit step on to where it landed leaves the same
        board, the mat cannot tell that from the one turn either (the twin of a glimpse)."""
        others = twins(move, before, after, squares)
        if others and turn.answered is None and not turn.untimed:
            self.open.append(Unsettled(OpenQuestion(answer_for(move, before), turn, others,
                                                    None), [turn]))

    def finish(self, answer: Callable[[dict], None]) -> None:
        """The game is over: what the hands never settled is not timed, and its mover answers
        the question the mat may still show, on the phone (``answer``), as a
        player would: a question nobody answers and no hand settles leaves the turn unread."""
        if self.chain is not None:
            self._ended(self.chain)
        self.chain = None
        for unsettled in self.open:
            for t in unsettled.turns:
                t.untimed = True
            if unsettled.question.answer:
                answer(unsettled.question.answer)
        self.open = []

    def _goes_on(self, chain: Chain, turn, move: Move, before: Position | None,
                 first: int | None) -> bool:
        last, last_move = chain.turns[-1], chain.moves[-1]
        spirit = before.spirit if before is not None else -1
        landed = spirit >= 0 and spirit in (last_move.to_sq, last_move.spirit_to)
        return (landed and before is not None and spirit_only(before, move)
                and first_lift(move) == spirit and first == spirit and turn.start is not None
                and turn.start - last.rest < self.settle)

    def _ended(self, chain: Chain) -> None:
        last = chain.turns[-1]
        others = fewer(chain) if len(chain.turns) >= 2 and chain.after is not None else []
        if others and (last.answered is None or len(chain.turns) > 2):
            # (Turns ruled on in this chain wait for its own readings to be ruled out.)
            self.open.append(Unsettled(OpenQuestion(chain.answer, last, others, None),
                                       chain.settled + list(chain.turns)))
            chain.settled = []
        for t in chain.settled:
            if not t.untimed and t.answered is None:
                t.decided_by = max(t.decided_by or 0.0, last.rest)
        if len(chain.turns) < 2:
            return
        for t in chain.turns[:-1]:
            # (Decided by the reply's rest: a glimpsed reply has none, the chain's end has.)
            if t.decided_by is not None and t.answered is None:
                t.decided_by = max(t.decided_by, last.rest)
        if last.answered is not None and len(chain.turns) == 2:
            for t in chain.turns[:-1]:
                if t.answered is None and not t.untimed:
                    t.answered = last.answered


def fewer(chain: Chain) -> list[Position]:
    """The positions fewer legal turns from ``chain.before`` reach that leave the chain's board,
    each turn lifting only squares the hands lifted (not the chain's own position)."""
    assert chain.after is not None
    target, true = format_board(chain.after), str(chain.after)
    out: dict[str, Position] = {}

    def walk(board: Board, depth: int) -> None:
        pos = board.position
        if format_board(pos) == target and str(pos) != true and depth < len(chain.turns):
            out.setdefault(str(pos), pos)
        if depth >= min(FEWER, len(chain.turns) - 1) or board.is_game_over():
            return
        for m in list(board.legal_moves):
            if m.is_pass or not _lifts(m) <= chain.lifted:
                continue
            board.push(m)
            walk(board, depth + 1)
            board.pop()

    walk(Board(chain.before), 0)
    return list(out.values())


def twins(move: Move, before: Position, after: Position, squares: list[int]) -> list[Position]:
    """The positions more turns reach from ``before`` that leave ``after``'s board: the mover's
    Spirit to one of ``squares`` (``move``'s pawn step, if any, the same), then Spirit steps
    alone, each from where the last landed it, each but the last to another of ``squares``."""
    if before.spirit < 0 or after.spirit == before.spirit:
        return []
    target, out = format_board(after), {}
    board = Board(before)

    def on(left: list[int]) -> None:
        mid = board.position
        for z in list(board.legal_moves):
            if z.is_pass or not spirit_only(mid, z) or first_lift(z) != mid.spirit:
                continue
            board.push(z)
            if format_board(board.position) == target:
                out.setdefault(str(board.position), board.position)
            elif board.position.spirit in left and not board.is_game_over():
                on([sq for sq in left if sq != board.position.spirit])
            board.pop()

    for y in list(board.legal_moves):
        if (y.is_pass or (y.from_sq, y.to_sq) != ((move.from_sq, move.to_sq) if move.wind_card
                                                   else (before.spirit, y.to_sq))
                or (y.spirit_to if y.wind_card else y.to_sq) not in squares):
            continue
        board.push(y)
        if not board.is_game_over():
            on([sq for sq in squares if sq != board.position.spirit])
        board.pop()
    return list(out.values())


def stops(events: list[dict], noise: list[float], mark: int, before: Position, after: Position,
          settle: float, vacated: int | None = None) -> list[int]:
    """The squares a piece was set down on a moment since event ``mark`` (noise aside): empty
    in ``before`` (or ``vacated``: the square the turn's own pawn step left, which a Wind
    card's Spirit may then cross) and ``after``, on for less than ``settle``."""
    quiet = set(noise)
    placed: dict[int, float] = {}
    out = []
    for e in events[mark:]:
        if e["t"] in quiet:
            continue
        if "on" in e:
            placed.setdefault(parse_square(e["on"]), e["t"])
        elif "off" in e:
            sq = parse_square(e["off"])
            if sq in placed and e["t"] - placed.pop(sq) < settle \
                    and (before.piece_at(sq) is None or sq == vacated) \
                    and after.piece_at(sq) is None:
                out.append(sq)
    return out


def _lifts(move: Move) -> set[int]:
    return {sq for sq in (move.from_sq, move.spirit_from) if sq is not None}


def lifted_since(events: list[dict], noise: list[float], mark: int) -> tuple[int | None, set[int]]:
    """The first square lifted since event ``mark`` (noise aside), and every one."""
    quiet = set(noise)
    offs = [parse_square(e["off"]) for e in events[mark:] if "off" in e and e["t"] not in quiet]
    return (offs[0] if offs else None), set(offs)

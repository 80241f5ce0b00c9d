"""Reading moves from a presence-only mat: a pure, deterministic state machine.

The recognizer knows the rules, not the pins. It is fed debounced occupancy with the time it
changed (``update``), the passing of time (``advance``: moves commit after the mat has rested
for the settle time, and the recognizer never reads a clock), mat buttons (``button``) and
phone answers (``answer``). Each call returns the events decided, as the output objects of the
trace spec (``move``, ``prompt``, ``mismatch``, ``synced``, ``takeback``, ``winner``, plus
``prompt_cancelled``), and ``feedback()`` says what the LEDs and the OLED should show.

How it reads hands (docs/recognizer.md has the long form):
- Only a mat at rest is read, and only as a whole: its occupancy is compared with every legal
  turn's result, with undoing the last turn, and with the position now. The order of lifts and
  placements never matters, so captures and swaps may be made in any order.
- Where occupancy cannot show a turn (a capture, a Spirit swap), the squares must have been
  seen empty for ``clear`` seconds: longer than a brush, shorter than any real hand.
- When two readings fit the mat and the evidence equally, it asks; it never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence, cast

from ..rules.board import Board
from ..rules.cards import CARDS, CardTable
from ..rules.position import COLORS, Position
from .readings import Reading, read_move, read_undo
from ..rules.squares import square_distance, square_name

SETTLE_S = 0.35   # at rest this long before a reading is accepted
MAX_SETTLE_S = 0.5  # the spec's bound: a move commits within 0.5 s of the mat coming to rest
CLEAR_S = 0.08    # seen empty this long to count as lifted (brushes are shorter)
FLASH_S = 0.6     # a committed move's destination flashes this long

# Lifted pawn: destinations coloured by the card reaching them (hand order), both = BOTH.
CARD_COLOURS = ("cyan", "magenta")
BOTH_COLOUR = "white"


@dataclass(frozen=True, slots=True)
class Light:
    colour: str   # a colour name (matfeedback.py turns it into RGB)
    effect: str   # "steady", "flash" (once), "blink-slow", "blink-fast", "pulse"


@dataclass(frozen=True)
class Feedback:
    """What the mat should show now: lights per square, misplaced pawns paired with the
    square each belongs on (from, to), and the OLED's lines."""
    scene: Mapping[int, Light]
    pairs: tuple[tuple[int, int], ...]
    oled: tuple[str, ...]


class Recognizer:
    """Turns a mat's occupancy into moves of the game that starts at ``position``.

    ``t`` is the time the mat is known to be at rest in ``position`` (the trace's start).
    """

    def __init__(self, position: Position | str, *, cards: CardTable = CARDS,
                 settle: float = SETTLE_S, clear: float = CLEAR_S, flash: float = FLASH_S,
                 t: float = 0.0):
        if not 0 < settle <= MAX_SETTLE_S:
            raise ValueError(f"settle time {settle} s: must be above 0 and at most {MAX_SETTLE_S} s")
        self.settle, self.clear, self.flash = settle, clear, flash
        self._board = Board(position, cards=cards)
        self._history: list[tuple[Reading | None, Position]] = []
        self._occ = self._board.position.occupied()
        self._changed_at = t
        self._evaluated = True
        self._empty_since = {sq: t for sq in range(25) if sq not in self._occ}
        self._seen: set[frozenset[int]] = set()
        self._prompt: dict | None = None
        self._options: dict[str, Reading | None] = {}
        self._chosen: str | None = None   # a Wind Spirit card answered mid-move
        self._mismatch: frozenset[int] | None = None
        self._flash: tuple[frozenset[int], float] | None = None
        self._out: list[dict] = []
        self._new_position(t)

    # -- state -----------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The game as recognized (read it; feed moves only through the mat)."""
        return self._board

    @property
    def occupancy(self) -> frozenset[int]:
        return self._occ

    @property
    def prompt(self) -> dict | None:
        """The question waiting for an answer, as emitted, or None."""
        return self._prompt

    @property
    def next_deadline(self) -> float | None:
        """The next time ``advance`` would decide something if nothing else happens."""
        times = []
        if not self._evaluated:
            times.append(self._changed_at + self.settle)
        if self._flash is not None:
            times.append(self._flash[1])
        return min(times) if times else None

    # -- inputs ----------------------------------------------------------------------------

    def update(self, t: float, occupancy: frozenset[int]) -> list[dict]:
        """The debounced occupancy changed at time ``t``."""
        self._advance_to(t)
        occupancy = frozenset(occupancy)
        if occupancy != self._occ:
            self._track(t, occupancy)
            self._occ = occupancy
            self._changed_at = t
            self._evaluated = False
            self._flash = None
        return self._drain()

    def advance(self, t: float) -> list[dict]:
        """Time has reached ``t`` (call at least every few tens of ms, or at ``next_deadline``)."""
        self._advance_to(t)
        return self._drain()

    def button(self, t: float, name: str) -> list[dict]:
        """Mat button A or B answers a prompt with the first or second card of the prompted
        player's hand; C chooses the takeback when a prompt offers it."""
        self._advance_to(t)
        if self._prompt is not None:
            hand = self._hand()
            key = {"A": hand[0], "B": hand[1] if len(hand) > 1 else None, "C": "takeback"}.get(name)
            if key in self._options:
                self._choose(key, t)
        return self._drain()

    def answer(self, t: float, seat: str, card: str | None = None, *, takeback: bool = False) -> list[dict]:
        """A phone answer from ``seat``: the card used (or given up), or the takeback."""
        self._advance_to(t)
        if self._prompt is not None and seat == self._prompt["seat"]:
            key = "takeback" if takeback else self._card_name(card)
            if key in self._options:
                self._choose(key, t)
        return self._drain()

    # -- evidence --------------------------------------------------------------------------

    def _track(self, t: float, new: frozenset[int]) -> None:
        for sq in self._occ - new:
            self._empty_since[sq] = t
        refilled = new - self._occ
        for sq in refilled:
            since = self._empty_since[sq]
            if t - since >= self.clear:
                self._seen.add(frozenset((sq,)))
            for other, other_since in self._empty_since.items():
                if other != sq and t - max(since, other_since) >= self.clear:
                    self._seen.add(frozenset((sq, other)))
        for sq in refilled:
            del self._empty_since[sq]

    def _forget(self, t: float) -> None:
        """Start collecting evidence afresh: what happened before ``t`` proves nothing now."""
        self._seen.clear()
        for sq in self._empty_since:
            self._empty_since[sq] = t

    def _has(self, groups: frozenset[frozenset[int]]) -> bool:
        return groups <= self._seen

    # -- reading the mat at rest -----------------------------------------------------------

    def _advance_to(self, t: float) -> None:
        deadline = self._changed_at + self.settle
        if not self._evaluated and t >= deadline:
            self._evaluated = True
            self._rest(deadline)
        if self._flash is not None and t >= self._flash[1]:
            self._flash = None

    def _rest(self, t: float) -> None:
        occ, base = self._occ, self._base
        candidates = self._readings + ([self._undo] if self._undo else [])
        full = [r for r in candidates if r.occupancy == occ and self._has(r.groups)
                and (self._chosen is None or r.card in (None, self._chosen))]
        partial = [r for r in self._readings if r.midway == occ and r not in full
                   and self._has(r.midway_groups)
                   and (self._chosen is None or r.card == self._chosen)]
        # The reading that explains the most evidence wins: a swap over "nothing happened",
        # a Wind Spirit card's two steps over a plain move with the same result, a turn that
        # explains every square seen empty over a half turn that explains some of them.
        best = [r for r in full if not any(r.evidence < o.evidence for o in full)]
        partial = [r for r in partial if not any(r.midway_evidence < o.evidence for o in best)]
        if not best:
            if occ == base:
                self._forget(t)
                self._chosen = None
                self._cancel_prompt(t)
                if self._mismatch is not None:
                    self._mismatch = None
                    self._emit(t, synced=True)
            elif not partial and not self._in_progress(candidates):
                self._report_mismatch(t, occ ^ base)
            return
        # cast: partial readings are of legal moves, which always have a card.
        waiting = sorted(cast("set[str]", {r.card for r in partial if r.card not in {b.card for b in best}}),
                         key=self._slot)
        if len(best) == 1 and not waiting:
            self._commit(best[0], t)
            return
        options: dict[str, Reading | None] = {}
        for r in best:
            key = r.card or "takeback"
            if key in options:
                # Same card, different results, equal evidence: no answer can tell them apart.
                self._report_mismatch(t, frozenset().union(*(x.touched for x in best)),
                                      ambiguous=sorted(str(x.move or "takeback") for x in best))
                return
            options[key] = r
        for card in waiting:
            options[card] = None
        self._ask(t, options)

    def _in_progress(self, candidates: list[Reading]) -> bool:
        """A mat part-way through some turn: only lifts, or differences all on squares that
        one legal turn (or the takeback) visits."""
        occ, base = self._occ, self._base
        if occ <= base:
            return True
        differ = occ ^ base
        return any(differ <= r.touched for r in candidates)

    def _report_mismatch(self, t: float, squares: frozenset[int], ambiguous: list[str] | None = None) -> None:
        self._cancel_prompt(t)
        if self._board.is_game_over() and ambiguous is None:
            return  # after the game the pawns leave the mat: nothing to sync with
        if squares != self._mismatch:
            self._mismatch = squares
            extra = {"ambiguous": ambiguous} if ambiguous else {}
            self._emit(t, mismatch=[square_name(sq) for sq in sorted(squares)], **extra)

    # -- prompts ---------------------------------------------------------------------------

    def _hand(self) -> tuple[str, ...]:
        pos = self._board.position
        return pos.hands[pos.turn]

    def _slot(self, card: str) -> int:
        return self._hand().index(card)

    def _card_name(self, card: str | None) -> str | None:
        if card is None or card not in self._board.cards:
            return None
        return self._board.cards[card].name

    def _ask(self, t: float, options: Mapping[str, Reading | None]) -> None:
        cards = sorted((k for k in options if k != "takeback"), key=self._slot)
        prompt = {"seat": self._board.turn, "choose": cards}
        if "takeback" in options:
            prompt["takeback"] = str(cast(Reading, options["takeback"]).undo)   # the undo reading
        self._options = dict(options)
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, synced=True)
        if prompt != self._prompt:
            self._prompt = prompt
            self._emit(t, prompt=prompt)

    def _cancel_prompt(self, t: float) -> None:
        if self._prompt is not None and not self._must_pass:
            self._emit(t, prompt_cancelled={"seat": self._prompt["seat"]})
            self._prompt = None
            self._options = {}

    def _choose(self, key: str, t: float) -> None:
        reading = self._options[key]
        if reading is None:
            # A Wind Spirit card chosen after its pawn step: wait for the Spirit's step.
            self._chosen = key
            self._prompt = None
            self._options = {}
            return
        self._commit(reading, t)

    # -- committing --------------------------------------------------------------------------

    def _commit(self, reading: Reading, t: float) -> None:
        board = self._board
        if reading.move is None:
            move = board.pop()
            self._history.pop()
            self._emit(t, takeback=str(move))
            self._flash = (reading.touched & reading.occupancy, t + self.flash)
        else:
            before = board.position
            board.push(reading.move)
            self._history.append((None if reading.move.is_pass else reading, before))
            self._emit(t, move=str(reading.move))
            move = reading.move
            lands = {sq for sq in (move.to_sq, move.spirit_to) if sq is not None}
            self._flash = (frozenset(lands), t + self.flash) if lands else None
            outcome = board.outcome()
            if outcome is not None:
                self._emit(t, winner=outcome.winner, how=outcome.how)
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, synced=True)
        self._new_position(t)

    def _new_position(self, t: float) -> None:
        board = self._board
        pos = board.position
        self._base = pos.occupied()
        moves = list(board.legal_moves)
        self._must_pass = bool(moves) and all(m.is_pass for m in moves)
        self._readings = [] if self._must_pass else [read_move(pos, m) for m in moves]
        last = self._history[-1] if self._history else None
        self._undo = (read_undo(*cast("tuple[Reading, Position]", last))
                      if last is not None and last[0] is not None else None)
        self._prompt = None
        self._options = {}
        self._chosen = None
        self._forget(t)
        if self._must_pass:
            # No legal move: the mat has nothing to show, so ask at once which card goes.
            self._ask(t, {m.card: read_move(pos, m) for m in moves})

    def _emit(self, t: float, **event) -> None:
        self._out.append({"t": round(t, 3), **event})

    def _drain(self) -> list[dict]:
        out, self._out = self._out, []
        return out

    # -- feedback ----------------------------------------------------------------------------

    def feedback(self) -> Feedback:
        pos = self._board.position
        who = COLORS[pos.turn].title()
        hand = self._hand()
        scene: dict[int, Light] = {}
        pairs: tuple[tuple[int, int], ...] = ()
        oled: tuple[str, ...]
        outcome = self._board.outcome()
        if self._mismatch is not None:
            extra, missing = self._occ - self._base, self._base - self._occ
            for sq in extra | missing or self._mismatch:
                scene[sq] = Light("red", "blink-fast")
            pairs = pair_up(extra, missing)
            hint = (f"move {square_name(pairs[0][0])} to {square_name(pairs[0][1])}" if pairs
                    else "fix the blinking squares")
            oled = ("Mat out of sync", hint, "or finish a legal move")
        elif self._prompt is not None:
            for reading in self._options.values():
                for sq in reading.touched if reading is not None else ():
                    scene[sq] = Light("white", "blink-slow")
            choices = "  ".join(f"{'AB'[self._slot(c)]}:{c}" for c in self._prompt["choose"])
            first = f"{who} cannot move:" if self._must_pass else f"{who}: which card?"
            second = "give up a card" if self._must_pass else "did you play?"
            oled = (first, second, choices, "C: take back" if "takeback" in self._prompt
                    else "or answer on phone")
        elif outcome is not None:
            winner = self._board.position.master(COLORS.index(outcome.winner))
            if winner >= 0:
                scene[winner] = Light(outcome.winner, "pulse")
            way = "Way of the Stone" if outcome.how == "stone" else "Way of the Stream"
            oled = (f"{outcome.winner.title()} wins", way)
        else:
            scene.update(self._destinations())
            oled = (f"{who} to move", "  ".join(f"{'AB'[i]}:{c}" for i, c in enumerate(hand)))
        if self._flash is not None:
            for sq in self._flash[0]:
                scene[sq] = Light("green", "flash")
        return Feedback(scene, pairs, oled)

    def _destinations(self) -> dict[int, Light]:
        """Lights for a lifted piece (its legal first steps) or a Wind Spirit card half done
        (the Spirit's steps), each coloured by the card that reaches it."""
        lifted = self._base - self._occ
        reach: dict[int, set[int]] = {}
        for r in self._readings:
            if self._chosen is not None and r.card != self._chosen:
                continue
            m = r.move
            assert m is not None, "the readings of legal moves have their move"
            step: tuple[int | None, int | None]
            if r.midway is not None and r.midway == self._occ and m.spirit_to is not None:
                step = (m.spirit_from, m.spirit_to)
            elif m.from_sq is not None:
                step = (m.from_sq, m.to_sq)
            else:
                step = (m.spirit_from, m.spirit_to)
            if step[0] in lifted or (r.midway == self._occ and step[0] == m.spirit_from):
                assert step[1] is not None, "a step's squares come in pairs"
                reach.setdefault(step[1], set()).add(self._slot(m.card))
        return {sq: Light(CARD_COLOURS[slots.pop()] if len(slots) == 1 else BOTH_COLOUR, "steady")
                for sq, slots in reach.items()}


def pair_up(extra: frozenset[int], missing: frozenset[int]) -> tuple[tuple[int, int], ...]:
    """Pair each pawn standing where none belongs with a square missing one, for the least
    total distance; left-overs stay unpaired (a pawn too many, or one off the mat)."""
    src, dst = sorted(extra), sorted(missing)
    swap = len(src) > len(dst)
    small, large = (dst, src) if swap else (src, dst)
    if not small:
        return ()
    matched: Sequence[tuple[int, int]]
    if len(small) > 8:
        # A mat in that much disorder is being set up again: nearest free square will do.
        matched, free = [], list(large)
        for a in small:
            b = min(free, key=lambda sq: square_distance(a, sq))
            free.remove(b)
            matched.append((a, b))
        return tuple(sorted((b, a) if swap else (a, b) for a, b in matched))
    # Over the squares of the larger side in turn, best[mask] is the least total distance
    # with the smaller side's squares in ``mask`` paired so far (at most 25 x 2^8 steps).
    inf = float("inf")
    full = (1 << len(small)) - 1
    best: dict[int, tuple[float, tuple]] = {0: (0, ())}
    for b in large:
        nxt = dict(best)
        for mask, (cost, chosen) in best.items():
            for i, a in enumerate(small):
                if not mask >> i & 1:
                    key, value = mask | 1 << i, cost + square_distance(a, b)
                    if value < nxt.get(key, (inf,))[0]:
                        nxt[key] = (value, chosen + ((a, b),))
        best = nxt
    matched = best[full][1]  # reachable: the larger side has a square for each
    return tuple(sorted((b, a) if swap else (a, b) for a, b in matched))

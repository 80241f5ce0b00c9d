"""Reading moves from a presence-only mat: a pure, deterministic state machine.

The recognizer knows the rules, not the pins. It is fed debounced occupancy with the time it
changed (``update``), the passing of time (``advance``: moves commit after the mat has rested
for the settle time, and the recognizer never reads a clock), mat buttons (``button``) and
phone answers (``answer``). Each call returns the events decided, as the output objects of the
trace spec (``move``, ``prompt``, ``mismatch``, ``synced``, ``takeback``, ``winner``, plus
``prompt_cancelled`` and ``waiting``; an amended turn is a ``takeback`` marked ``amend`` and a
``move`` marked ``amended``), and ``feedback()`` says what the LEDs and the OLED should show.

How it reads hands (docs/recognizer.md has the long form):
- Only a mat at rest is read, and only as a whole: its occupancy is compared with every legal
  turn's result, with undoing the last turn, with amending it, and with the position now. The
  order of lifts and placements never matters, so captures and swaps may be made in any order.
- Where occupancy cannot show a turn (a capture, a Spirit swap), the squares must have been
  seen empty for ``clear`` seconds: longer than a brush, shorter than any real hand.
- A complete turn is committed at rest; the next hand answers what is left: the same player
  going on (a Wind Spirit card's Spirit step, the pawn put elsewhere) amends it, the opponent
  lifting their own piece ends it (at once, if the mat had not yet rested: fast play).
- When explanations fit the mat and the evidence equally, it asks; it never guesses. A mat
  nothing explains is searched for a turn and the reply to it before it is called out of sync.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ..rules.board import Board
from ..rules.cards import CARDS, CardTable
from ..rules.moves import Move
from ..rules.position import COLORS, Position
from .evidence import Evidence
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


# A plan is one explanation of the mat: the steps that lead from the game as recognized to it.
# ("play", r): push r's move (or take the last move back, r being the undo reading);
# ("amend", r): the last move's mover changed it into r's move (played from the same position).
PLAY, AMEND = "play", "amend"
Step = tuple[str, Reading]
Plan = tuple[Step, ...]

KEEP_S = 1.5      # evidence outlives a return to the position this long (a captured pawn set
                  # down for a moment on its captor's square, a capture taken back captured pawn
                  # first); a longer stay is a put-back, and what happened before proves nothing
ANNOUNCE_S = 4.0  # an amended turn is announced on the OLED this long


@dataclass
class _Window:
    """The last move committed, which its mover may still amend until the opponent starts."""
    reading: Reading            # as committed
    before: Position            # the position it was played from
    mover: int
    readings: list[Reading]     # the mover's other turns from ``before`` with the same piece
    touched: frozenset[int]     # every square those turns (and the move) visit
    needs: dict[Reading, frozenset[frozenset[int]]]  # evidence each amendment needs
    seen: frozenset[frozenset[int]]       # the evidence the move itself was read with
    extra: dict[Reading, frozenset[int]]  # squares it shows emptied that the move left full


def _move(r: Reading) -> Move:
    """The move of a reading known to be a turn (only the takeback's reading has none)."""
    assert r.move is not None, "a reading of a legal turn has a move"
    return r.move


def _origin(move: Move) -> int | None:
    """The square of the piece a turn picks up first (its pawn, or the Spirit)."""
    return move.from_sq if move.from_sq is not None else move.spirit_from


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
        self._evidence = Evidence((sq for sq in range(25) if sq not in self._occ), t, clear)
        self._base_since: float | None = None   # the mat came to rest in the position then
        self._passed: dict[Reading, None] = {}  # complete turns the mat showed, not at rest
        self._lifts: dict[int, tuple[float, int, tuple]] = {}  # sq -> (t, version, what it ends)
        self._version = 0                       # counts commits: a lift decided before is stale
        self._prompt: dict | None = None
        self._options: dict[str, list[Plan]] = {}
        self._mismatch: frozenset[int] | None = None
        self._waiting: str | None = None
        self._window: _Window | None = None
        self._flash: tuple[frozenset[int], float] | None = None
        self._announce: tuple[tuple[str, ...], float] | None = None
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
    def waiting(self) -> str | None:
        """The seat whose turn the mat shows part-way done, at rest, or None."""
        return self._waiting

    @property
    def amendable(self) -> bool:
        """Can the last move's mover still amend it (the opponent has not started)?"""
        return self._window is not None

    @property
    def next_deadline(self) -> float | None:
        """The next time ``advance`` would decide something if nothing else happens."""
        times = [t0 + self.clear for t0, _, _ in self._lifts.values()]
        if not self._evaluated:
            times.append(self._changed_at + self.settle)
        if self._flash is not None:
            times.append(self._flash[1])
        if self._announce is not None:
            times.append(self._announce[1])
        return min(times) if times else None

    # -- inputs ----------------------------------------------------------------------------

    def update(self, t: float, occupancy: frozenset[int]) -> list[dict]:
        """The debounced occupancy changed at time ``t``."""
        self._advance_to(t)
        occupancy = frozenset(occupancy)
        if occupancy != self._occ:
            before = self._occ
            for sq in occupancy - before:
                self._lifts.pop(sq, None)
            for sq in before - occupancy:
                ends = self._ends(before, sq)
                if ends:
                    self._lifts[sq] = (t, self._version, ends)
            if self._base_since is not None:
                if t - self._base_since > KEEP_S:
                    self._evidence.forget(t)
                self._base_since = None
            self._evidence.track(t, self._occ, occupancy)
            self._occ = occupancy
            self._changed_at = t
            self._evaluated = False
            self._flash = None
            self._note_passed()
        return self._drain()

    def advance(self, t: float) -> list[dict]:
        """Time has reached ``t`` (call at least every few tens of ms, or at ``next_deadline``)."""
        self._advance_to(t)
        return self._drain()

    def button(self, t: float, name: str) -> list[dict]:
        """Mat button A or B answers a prompt with the first or second card of the prompted
        player's hand; C chooses the takeback when a prompt offers it, else the other
        player's reply when the prompt asks whose step it was (and they have one card for it)."""
        self._advance_to(t)
        if self._prompt is not None:
            hand = self._hand_of(COLORS.index(self._prompt["seat"]))
            reply = self._prompt.get("reply", {}).get("choose", [])
            c = "takeback" if "takeback" in self._options else reply[0] if len(reply) == 1 else None
            key = {"A": hand[0], "B": hand[1] if len(hand) > 1 else None, "C": c}.get(name)
            if key in self._options and (name == "C" or key in self._prompt["choose"]):
                self._choose(key, t)
        return self._drain()

    def answer(self, t: float, seat: str, card: str | None = None, *, takeback: bool = False) -> list[dict]:
        """A phone answer from ``seat``: the card used (or given up), or the takeback. When the
        prompt asks whose step it was, the replying seat answers with its own card."""
        self._advance_to(t)
        prompt = self._prompt
        if prompt is not None:
            key = "takeback" if takeback else self._card_name(card)
            if seat == prompt["seat"]:
                allowed = prompt["choose"] + (["takeback"] if "takeback" in prompt else [])
            elif seat == prompt.get("reply", {}).get("seat"):
                allowed = prompt["reply"]["choose"]
            else:
                allowed = []
            if key in allowed and key in self._options:
                self._choose(key, t)
        return self._drain()

    def end_turn(self, t: float) -> list[dict]:
        """The turn goes on off the mat (in Light & Shadow, the phone's step begins): the last
        move can no longer be amended on the mat."""
        self._advance_to(t)
        self._window = None
        return self._drain()

    # -- evidence --------------------------------------------------------------------------

    def _note_passed(self) -> None:
        """The mat shows a complete turn (evidence included): remember it, so that a reply
        made before it came to rest still finds it."""
        for r in self._by_occupancy.get(self._occ, ()):
            if self._evidence.shows(r):
                self._passed[r] = None

    # -- explanations ----------------------------------------------------------------------

    def _candidates(self) -> list[Reading]:
        return self._readings + ([self._undo] if self._undo else [])

    def _replies(self, r: Reading) -> list[Reading]:
        """The turns that may follow ``r`` (the opponent's, or after a takeback the mover's
        own again), as readings from the position ``r`` leads to."""
        found = self._reply_cache.get(r)
        if found is None:
            board = self._board.copy()
            if r.move is None:
                board.pop()
            else:
                board.push(r.move)
            moves = [] if board.is_game_over() else list(board.legal_moves)
            pos = board.position
            found = [read_move(pos, m) for m in moves if not m.is_pass]
            self._reply_cache[r] = found
        return found

    def _offered(self) -> list[Reading]:
        """The turns a standing question offers."""
        return list(dict.fromkeys(plan[0][1] for plans in self._options.values()
                                  for plan in plans if plan[0][0] == PLAY))

    def _firsts(self) -> list[Reading]:
        """First steps of two-step explanations: complete turns the mat showed without resting
        on them, and the turns a standing question offers."""
        return list(dict.fromkeys([*self._passed, *self._offered()]))

    def _explain(self, occ: frozenset[int]) -> list[Plan]:
        """Every way the game can have reached the mat ``occ`` with the evidence seen: one turn
        (or the takeback), the last move amended by its mover, or a turn not yet committed
        and the reply to it. The explanations that account for the most evidence win."""
        plans: list[Plan] = [((PLAY, r),) for r in self._candidates()
                             if r.occupancy == occ and self._evidence.shows(r)]
        w = self._window
        if w is not None:
            plans += [((AMEND, r),) for r in w.readings
                      if r.occupancy == occ and self._evidence.has(
                          w.needs[r], empty_now=frozenset(range(25)) - occ, also=w.seen)]
        # A turn a standing question offers, and the reply to it; when nothing else explains
        # the mat, also a turn the mat showed complete without resting on it.
        for r in self._firsts() if not plans else self._offered():
            if r.occupancy != occ:
                plans += [((PLAY, r), (PLAY, m)) for m in self._replies(r)
                          if m.occupancy == occ and self._evidence.shows_after(r, m)]
        plans = list(dict.fromkeys(plans))
        # An amendment is judged by the evidence it needs beyond what the move showed
        # (amendments come only from an open window).
        extra = w.extra if w is not None else {}
        evidence = [frozenset().union(*(extra[r] if kind == AMEND else r.evidence
                                        for kind, r in plan)) for plan in plans]
        return [p for p, e in zip(plans, evidence) if not any(e < o for o in evidence)]

    def _in_progress(self, occ: frozenset[int]) -> bool:
        """A mat part-way through something legal: only lifts, or differences all on squares
        that one legal turn (the takeback, an amendment, a reply to a turn shown) visits, with
        something lifted for whatever was set down (a pawn never comes from nowhere)."""
        base = self._base
        if occ <= base:
            return True
        differ = occ ^ base
        if base - occ:
            if any(differ <= r.touched for r in self._candidates()):
                return True
            w = self._window
            if w is not None and any(differ <= r.touched | w.reading.touched for r in w.readings):
                return True
        for r in self._firsts():
            d = occ ^ r.occupancy
            if occ <= r.occupancy or (r.occupancy - occ and any(d <= m.touched for m in self._replies(r))):
                return True
        return False

    # -- reading the mat at rest -----------------------------------------------------------

    def _advance_to(self, t: float) -> None:
        while True:
            due = [(t0 + self.clear, sq) for sq, (t0, _, _) in self._lifts.items()]
            if not self._evaluated:
                due.append((self._changed_at + self.settle, -1))
            if not due:
                break
            when, sq = min(due)
            if when > t:
                break
            if sq < 0:
                self._evaluated = True
                self._rest(when)
            else:
                _, version, ends = self._lifts.pop(sq)
                if version == self._version and sq not in self._occ:
                    self._lift_ended(when, ends)
        if self._flash is not None and t >= self._flash[1]:
            self._flash = None
        if self._announce is not None and t >= self._announce[1]:
            self._announce = None

    def _ends(self, before: frozenset[int], sq: int) -> tuple:
        """What lifting ``sq`` off the mat ``before`` ends, if the lift proves real: the turn
        (or the amendment) the mat showed complete, when the lifted piece is the next
        player's own (fast play); the last move's window, when the opponent starts."""
        ends: list = []
        board = self._board
        w = self._window
        if not self._evaluated and self._prompt is None and not self._must_pass:
            plans = self._explain(before)
            if plans and all(len(p) == 1 and p[0][1].move is not None for p in plans):
                foreign = True
                for (kind, r), in plans:
                    if kind == AMEND:
                        assert w is not None, "an amendment is read only while its window is open"
                        near, mover = r.touched | w.reading.touched, w.mover
                    else:
                        # Not a square the turn visits, nor one a Wind Spirit card going on
                        # from it would (the mover may still be at work there).
                        move = _move(r)
                        near = r.touched.union(*(
                            x.touched for x in self._readings
                            if move.spirit_from is None and _move(x).spirit_from is not None
                            and (_move(x).from_sq, _move(x).to_sq) == (move.from_sq, move.to_sq)))
                        mover = board.position.turn
                    piece = r.pieces[sq]
                    if sq in near or piece is None or piece not in ("Bb" if mover == 0 else "Rr") + "W":
                        foreign = False
                if foreign:
                    ends.append(("turn", tuple(plans)))
        if w is not None and sq not in w.touched:
            piece = board.position.piece_at(sq)
            if piece is not None and piece in ("Rr" if board.turn == "red" else "Bb") + "W":
                ends.append(("window",))
        return tuple(ends)

    def _lift_ended(self, t: float, ends: tuple) -> None:
        # The turn shown is committed first (an amendment needs its window), then the
        # opponent's start closes the window, the amended move's included.
        for end in ends:
            if end[0] == "turn" and self._prompt is None:
                self._resolve(list(end[1]), t)
        if ends:
            self._window = None

    def _rest(self, t: float) -> None:
        occ, base = self._occ, self._base
        plans = self._explain(occ)
        if plans:
            self._resolve(plans, t)
            return
        if occ == base:
            self._base_since = self._changed_at
            self._passed.clear()
            self._waiting = None
            self._cancel_prompt(t)
            if self._mismatch is not None:
                self._mismatch = None
                self._emit(t, synced=True)
            return
        if self._in_progress(occ):
            # A pawn in the hand shows its destinations; a mat with pieces set down part-way
            # through a turn says so (the OLED shows it), never nothing.
            if self._prompt is None and self._mismatch is None and not occ <= base:
                self._say_waiting(t)
            return
        # A turn the evidence shows, with pawns too many (a captured pawn set down aside):
        # those pawns are out of sync, and no square the game does not need is pointed to.
        shown = [r for r in self._candidates() if r.occupancy < occ and self._evidence.shows(r)]
        self._report_mismatch(t, occ - shown[0].occupancy if shown else occ ^ base)

    def _say_waiting(self, t: float) -> None:
        w = self._window
        differ = self._occ ^ self._base
        seat = COLORS[w.mover] if w is not None and differ <= w.touched else self._board.turn
        if seat != self._waiting:
            self._waiting = seat
            self._emit(t, waiting={"seat": seat})

    def _resolve(self, plans: list[Plan], t: float) -> None:
        """Commit what all explanations agree on; ask about the first step they do not."""
        plans = list(dict.fromkeys(plans))
        while len({p[0] for p in plans}) == 1:
            step, last = plans[0][0], all(len(p) == 1 for p in plans)
            self._commit(*step, t, last=last)
            plans = [p[1:] for p in plans if len(p) > 1]
            if not plans:
                return
        options: dict[str, list[Plan]] = {}
        for plan in plans:
            options.setdefault(plan[0][1].card or "takeback", []).append(plan)
        for key, same in options.items():
            if len({p[0] for p in same}) > 1:
                # Same card, different results, equal evidence: no answer can tell them apart.
                readings = [p[0][1] for p in same]
                self._report_mismatch(t, frozenset().union(*(r.touched for r in readings)),
                                      ambiguous=sorted(str(r.move or "takeback") for r in readings))
                return
        self._ask(t, options)

    def _report_mismatch(self, t: float, squares: frozenset[int], ambiguous: list[str] | None = None) -> None:
        self._cancel_prompt(t)
        self._waiting = None
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

    def _hand_of(self, seat: int) -> tuple[str, ...]:
        """The hand a player answers from: the mover's hand before the move they may still
        amend, else the hand now."""
        w = self._window
        if w is not None and w.mover == seat:
            return w.before.hands[seat]
        return self._board.position.hands[seat]

    def _slot(self, card: str, seat: int | None = None) -> int:
        return self._hand_of(self._board.position.turn if seat is None else seat).index(card)

    def _card_name(self, card: str | None) -> str | None:
        if card is None or card not in self._board.cards:
            return None
        return self._board.cards[card].name

    def _seat_of(self, step: Step) -> int:
        if step[0] == AMEND:
            assert self._window is not None, "an amendment is read only while its window is open"
            return self._window.mover
        return self._board.position.turn

    def _ask(self, t: float, options: Mapping[str, list[Plan]]) -> None:
        seats = {key: self._seat_of(plans[0][0]) for key, plans in options.items()}
        turn = self._board.position.turn
        first = min(seats.values(), key=lambda s: s != (self._window.mover if self._window else turn))
        own = sorted((k for k, s in seats.items() if s == first and k != "takeback"),
                     key=lambda c: self._slot(c, first))
        prompt: dict = {"seat": COLORS[first], "choose": own}
        if "takeback" in options:
            prompt["takeback"] = str(options["takeback"][0][0][1].undo)
        others = sorted((k for k, s in seats.items() if s != first and k != "takeback"),
                        key=lambda c: self._slot(c, 1 - first))
        if others:
            prompt["reply"] = {"seat": COLORS[1 - first], "choose": others}
        self._options = dict(options)
        self._waiting = None
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
        plans = self._options[key]
        self._prompt = None
        self._options = {}
        self._resolve(plans, t)

    # -- committing --------------------------------------------------------------------------

    def _commit(self, kind: str, reading: Reading, t: float, *, last: bool = True) -> None:
        board = self._board
        window = None
        if kind == AMEND:
            old = board.pop()
            _, before = self._history.pop()
            self._emit(t, takeback=str(old), amend=True)
            board.push(_move(reading))
            self._history.append((reading, before))
            self._emit(t, move=str(reading.move), amended=True)
            who = COLORS[before.turn].title()
            self._announce = ((f"{who} amended:", str(reading.move)), t + ANNOUNCE_S)
            window = before
        elif reading.move is None:
            move = board.pop()
            self._history.pop()
            self._emit(t, takeback=str(move))
        else:
            before = board.position
            board.push(reading.move)
            self._history.append((None if reading.move.is_pass else reading, before))
            self._emit(t, move=str(reading.move))
            if not reading.move.is_pass:
                window = before
        if reading.move is None:
            self._flash = (reading.touched & reading.occupancy, t + self.flash)
        else:
            move = reading.move
            lands = {sq for sq in (move.to_sq, move.spirit_to) if sq is not None}
            self._flash = (frozenset(lands), t + self.flash) if lands else None
            outcome = board.outcome()
            if outcome is not None:
                self._emit(t, winner=outcome.winner, how=outcome.how)
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, synced=True)
        seen = self._evidence.groups() | (self._window.seen if kind == AMEND and self._window
                                          else frozenset())
        self._new_position(t, forget=last)
        if window is not None and not board.is_game_over():
            self._open_window(reading, window, seen)

    def _open_window(self, reading: Reading, before: Position, seen: frozenset) -> None:
        origin = _origin(_move(reading))   # only a turn opens a window
        others = [read_move(before, m) for m in Board(before, cards=self._board.cards).legal_moves
                  if not m.is_pass and m != reading.move and _origin(m) == origin]
        # A turn that leaves the same pieces where the move left them is no amendment.
        others = [r for r in others if r.pieces != reading.pieces]
        touched = frozenset().union(reading.touched, *(r.touched for r in others))
        # An amendment must show its own hands on the mat as it stands: each square the move
        # left occupied that now holds another piece was emptied (a swap's two together),
        # after the commit or before it (a captured pawn set down aside made the mat look like
        # another move). A Wind Spirit card going on leaves the pawn step as it is.
        needs, extra = {}, {}
        for r in others:
            changed = frozenset(sq for sq in reading.occupancy & r.occupancy
                                if reading.pieces[sq] != r.pieces[sq])
            needs[r] = (frozenset((changed,)) if len(changed) == 2 and "W" in
                        {reading.pieces[sq] for sq in changed} else
                        frozenset(frozenset((sq,)) for sq in changed))
            extra[r] = changed
        # Evidence from before the commit on squares the move itself used proves nothing new.
        seen = frozenset(g for g in seen if not g & reading.touched)
        self._window = _Window(reading, before, before.turn, others, touched, needs, seen, extra)

    def _new_position(self, t: float, *, forget: bool = True) -> None:
        board = self._board
        pos = board.position
        self._version += 1
        self._base = pos.occupied()
        moves = list(board.legal_moves)
        self._must_pass = bool(moves) and all(m.is_pass for m in moves)
        self._readings = [] if self._must_pass else [read_move(pos, m) for m in moves]
        # A pass (history's None) is not taken back on the mat.
        last, before = self._history[-1] if self._history else (None, None)
        self._undo = read_undo(last, before) if last is not None and before is not None else None
        self._by_occupancy: dict[frozenset[int], list[Reading]] = {}
        for r in self._candidates():
            self._by_occupancy.setdefault(r.occupancy, []).append(r)
        self._reply_cache: dict[Reading, list[Reading]] = {}
        self._passed = {}
        self._lifts = {}
        self._window = None
        self._prompt = None
        self._options = {}
        self._waiting = None
        self._base_since = None
        if forget:
            self._evidence.forget(t)
        if self._must_pass:
            # No legal move: the mat has nothing to show, so ask at once which card goes.
            self._ask(t, {m.card: [((PLAY, read_move(pos, m)),)] for m in moves})

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
            if self._mismatch <= extra and not self._mismatch & self._base:
                # Pawns too many on a turn the mat shows: take them off, nothing else.
                extra, missing = self._mismatch, frozenset()
            for sq in extra | missing or self._mismatch:
                scene[sq] = Light("red", "blink-fast")
            pairs = pair_up(extra, missing)
            hint = (f"move {square_name(pairs[0][0])} to {square_name(pairs[0][1])}" if pairs
                    else f"take off the pawn on {square_name(min(extra))}" if extra and not missing
                    else "fix the blinking squares")
            oled = ("Mat out of sync", hint, "or finish a legal move")
        elif self._prompt is not None:
            for plans in self._options.values():
                for plan in plans:
                    for _, reading in plan:
                        for sq in reading.touched:
                            scene[sq] = Light("white", "blink-slow")
            seat = COLORS.index(self._prompt["seat"])
            asked = self._prompt["seat"].title()
            choices = "  ".join(f"{'AB'[self._slot(c, seat)]}:{c}" for c in self._prompt["choose"])
            reply = self._prompt.get("reply")
            if self._must_pass:
                first, second = f"{asked} cannot move:", "give up a card"
            elif reply:
                first, second = "Whose step was it?", f"{asked}: your card?"
            else:
                first, second = f"{asked}: which card?", "did you play?"
            if "takeback" in self._prompt:
                last = "C: take back"
            elif reply and len(reply["choose"]) == 1:
                last = f"C: {reply['seat'].title()}'s {reply['choose'][0]}"
            else:
                last = "or answer on phone"
            oled = (first, second, choices, last)
        elif outcome is not None:
            winner = self._board.position.master(COLORS.index(outcome.winner))
            if winner >= 0:
                scene[winner] = Light(outcome.winner, "pulse")
            way = "Way of the Stone" if outcome.how == "stone" else "Way of the Stream"
            oled = (f"{outcome.winner.title()} wins", way)
        else:
            # The player to move lifting a pawn of theirs sees its destinations; until then a
            # last move still open shows only what its mover may still do.
            # Pieces as a tuple, not "Rr": piece_at's None (never met here, a lifted square
            # held a piece) is then simply not the mover's.
            turn = ("R", "r") if pos.turn == 0 else ("B", "b")
            moving = any(pos.piece_at(sq) in turn for sq in self._base - self._occ)
            scene.update((not moving and self._window_lights()) or self._destinations())
            oled = (f"{who} to move", "  ".join(f"{'AB'[i]}:{c}" for i, c in enumerate(hand)))
            if self._announce is not None:
                oled = self._announce[0] + oled
            elif self._waiting is not None:
                oled = (f"{self._waiting.title()}: waiting for", "the rest of the turn")
        if self._flash is not None:
            for sq in self._flash[0]:
                scene[sq] = Light("green", "flash")
        return Feedback(scene, pairs, oled)

    def _window_lights(self) -> dict[int, Light]:
        """While the last mover may still go on or amend: a Wind Spirit card that could go on
        shows the Spirit's destinations in that card's colour; the pawn just moved, lifted,
        shows the other squares its turn allowed. Nothing else is lit then."""
        w = self._window
        if w is None:
            return {}
        lifted = self._base - self._occ
        moved = _move(w.reading)   # only a turn opens a window
        reach: dict[int, set[int]] = {}
        for r in w.readings:
            m = _move(r)
            slot = w.before.hands[w.mover].index(m.card)
            if (m.wind_card and m.spirit_to is not None and r.midway == w.reading.occupancy
                    and m.from_sq == moved.from_sq and m.to_sq == moved.to_sq):
                reach.setdefault(m.spirit_to, set()).add(slot)
            elif moved.to_sq in lifted and m.to_sq is not None and m.from_sq == moved.from_sq:
                reach.setdefault(m.to_sq, set()).add(slot)
        return {sq: Light(CARD_COLOURS[slots.pop()] if len(slots) == 1 else BOTH_COLOUR, "steady")
                for sq, slots in reach.items()}

    def _destinations(self) -> dict[int, Light]:
        """Lights for a lifted piece (its legal first steps) or a Wind Spirit card half done
        (the Spirit's steps), each coloured by the card that reaches it."""
        lifted = self._base - self._occ
        reach: dict[int, set[int]] = {}
        for r in self._readings:
            m = _move(r)
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

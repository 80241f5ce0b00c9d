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

This class holds the state and its timing; the parts are pure functions and small classes:
turns.py (what the mat may show next), explain.py (the explanation search), window.py (the
amend window), prompts.py (questions and answers), scene.py and destinations.py (what the
LEDs and the OLED show), pairing.py (misplaced pawns paired with their squares).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..rules.board import Board
from ..rules.cards import CARDS, CardTable
from ..rules.position import COLORS, Position
from ..rules.squares import square_name
from .destinations import destinations, window_lights
from .events import MatEvent, Prompt
from .evidence import Evidence
from .explain import AMEND, PLAY, Plan, Step, amended_then_replied, ended_by_lift, explain
from .explain import in_progress, offered
from .pairing import pair_up as pair_up
from .prompts import allowed_answers, build_prompt, button_choice
from .readings import Reading, read_move
from .scene import Feedback, Light
from .scene import lifting_own, mismatch_view, outcome_view, play_oled, prompt_view, stray_step
from .turns import Turns
from .window import Window, move_of, open_window

SETTLE_S = 0.35   # at rest this long before a reading is accepted
MAX_SETTLE_S = 0.5  # the spec's bound: a move commits within 0.5 s of the mat coming to rest
CLEAR_S = 0.08    # seen empty this long to count as lifted (brushes are shorter)
FLASH_S = 0.6     # a committed move's destination flashes this long
KEEP_S = 1.5      # evidence outlives a return to the position this long (a captured pawn set
                  # down for a moment on its captor's square, a capture taken back captured pawn
                  # first); a longer stay is a put-back, and what happened before proves nothing
ANNOUNCE_S = 4.0  # an amended turn is announced on the OLED this long


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
        self._lifts: dict[int, tuple[float, int, tuple[Any, ...]]] = {}  # sq -> (t, version, what it ends)
        self._version = 0                       # counts commits: a lift decided before is stale
        self._held: frozenset[int] | None = None  # a mat whose amendment waits (_reply_begun)
        self._prompt: Prompt | None = None
        self._options: dict[str, list[Plan]] = {}
        self._mismatch: frozenset[int] | None = None
        self._waiting: str | None = None
        self._window: Window | None = None
        self._flash: tuple[frozenset[int], float] | None = None
        self._announce: tuple[tuple[str, ...], float] | None = None
        self._out: list[MatEvent] = []
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
    def prompt(self) -> Prompt | None:
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
    def spirit_may_follow(self) -> tuple[str, tuple[str, ...]] | None:
        """The last move, read as a regular card's, is also the pawn step of a Wind Spirit
        card its mover may still go on with (the mat amends it then): the mover and those
        cards; else None."""
        w = self._window
        if w is None or w.reading.move is None or w.reading.move.spirit_from is not None:
            return None
        move = w.reading.move
        cards = tuple(dict.fromkeys(
            move_of(r).card for r in w.readings if move_of(r).spirit_from is not None
            and (move_of(r).from_sq, move_of(r).to_sq) == (move.from_sq, move.to_sq)))
        return (COLORS[w.mover], cards) if cards else None

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

    def update(self, t: float, occupancy: frozenset[int]) -> list[MatEvent]:
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

    def advance(self, t: float) -> list[MatEvent]:
        """Time has reached ``t`` (call at least every few tens of ms, or at ``next_deadline``)."""
        self._advance_to(t)
        return self._drain()

    def button(self, t: float, name: str) -> list[MatEvent]:
        """Mat button A or B answers a prompt with the first or second card of the prompted
        player's hand; C chooses the takeback when a prompt offers it, else the other
        player's reply when the prompt asks whose step it was (and they have one card for it)."""
        self._advance_to(t)
        if self._prompt is not None:
            hand = self._hand_of(COLORS.index(self._prompt["seat"]))
            key = button_choice(self._prompt, self._options, hand, name)
            if key is not None:
                self._choose(key, t)
        return self._drain()

    def answer(self, t: float, seat: str, card: str | None = None, *, takeback: bool = False) -> list[MatEvent]:
        """A phone answer from ``seat``: the card used (or given up), or the takeback. When the
        prompt asks whose step it was, the replying seat answers with its own card."""
        self._advance_to(t)
        prompt = self._prompt
        if prompt is not None:
            key = "takeback" if takeback else self._card_name(card)
            if key in allowed_answers(prompt, seat) and key in self._options:
                self._choose(key, t)
        return self._drain()

    def end_turn(self, t: float) -> list[MatEvent]:
        """The turn goes on off the mat (in Light & Shadow, the phone's step begins): the last
        move can no longer be amended on the mat."""
        self._advance_to(t)
        self._window = None
        return self._drain()

    # -- evidence --------------------------------------------------------------------------

    def _note_passed(self) -> None:
        """The mat shows a complete turn (evidence included): remember it, so that a reply
        made before it came to rest still finds it."""
        for r in self._turns.by_occupancy.get(self._occ, ()):
            if self._evidence.shows(r):
                self._passed[r] = None

    # -- explanations ----------------------------------------------------------------------

    def _firsts(self) -> list[Reading]:
        """First steps of two-step explanations: complete turns the mat showed without resting
        on them, and the turns a standing question offers."""
        return list(dict.fromkeys([*self._passed, *offered(self._options)]))

    def _explain(self, occ: frozenset[int]) -> list[Plan]:
        return explain(occ, self._turns, self._window, self._evidence, self._firsts(),
                       offered(self._options))

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

    def _ends(self, before: frozenset[int], sq: int) -> tuple[Any, ...]:
        """What lifting ``sq`` off the mat ``before`` ends, if the lift proves real: the turn
        (or the amendment) the mat showed complete, when the lifted piece is the next
        player's own (fast play); the last move's window, when the opponent starts."""
        ends: list[Any] = []
        board = self._board
        w = self._window
        # A mat judged at rest is decided, unless it held an amendment back: the opponent
        # starting elsewhere shows the amendment was made.
        if ((not self._evaluated or before == self._held) and self._prompt is None
                and not self._turns.must_pass):
            plans = self._explain(before)
            if ended_by_lift(plans, sq, w, self._turns.readings, board.position.turn):
                ends.append(("turn", tuple(plans)))
        if w is not None and w.closed_by(sq, board.position, board.turn):
            ends.append(("window",))
        return tuple(ends)

    def _lift_ended(self, t: float, ends: tuple[Any, ...]) -> None:
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
        if plans and self._reply_begun(occ, plans):
            # The last move amended, or the opponent's Wind Spirit card half made (a swapped
            # student stepped on where the Spirit could have gone): the Spirit's step, or
            # the opponent starting another turn elsewhere (_ends), tells them apart.
            self._held = occ
            self._say_waiting(t, COLORS[self._board.position.turn])
            return
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
                self._emit(t, {"synced": True})
            return
        if in_progress(occ, base, self._turns, self._window, self._firsts()):
            # A pawn in the hand shows its destinations; a mat with pieces set down part-way
            # through a turn says so (the OLED shows it), never nothing.
            if self._prompt is None and self._mismatch is None and not occ <= base:
                self._say_waiting(t)
            return
        later = amended_then_replied(occ, self._window, self._evidence) if self._window else []
        if later:
            self._resolve(later, t)
            return
        # A turn the evidence shows, with pawns too many (a captured pawn set down aside):
        # those pawns are out of sync, and no square the game does not need is pointed to.
        shown = [r for r in self._turns.candidates() if r.occupancy < occ and self._evidence.shows(r)]
        self._report_mismatch(t, occ - shown[0].occupancy if shown else occ ^ base)

    def _reply_begun(self, occ: frozenset[int], plans: list[Plan]) -> bool:
        """Do the ``plans`` only amend the last move, on a mat that also shows the pawn step
        of the opponent's Wind Spirit card?"""
        return (all(len(p) == 1 and p[0][0] == AMEND for p in plans)
                and any(r.midway == occ and self._evidence.has(r.midway_groups)
                        for r in self._turns.readings))

    def _say_waiting(self, t: float, seat: str | None = None) -> None:
        w = self._window
        differ = self._occ ^ self._base
        if seat is None:
            seat = COLORS[w.mover] if w is not None and differ <= w.touched else self._board.turn
        if seat != self._waiting:
            self._waiting = seat
            self._emit(t, {"waiting": {"seat": seat}})

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
            event: MatEvent = {"mismatch": [square_name(sq) for sq in sorted(squares)]}
            if ambiguous:
                event["ambiguous"] = ambiguous
            self._emit(t, event)

    # -- prompts ---------------------------------------------------------------------------

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
        takeback = str(options["takeback"][0][0][1].undo) if "takeback" in options else None
        prompt = build_prompt(seats, first, takeback, self._slot)
        self._options = dict(options)
        self._waiting = None
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, {"synced": True})
        if prompt != self._prompt:
            self._prompt = prompt
            self._emit(t, {"prompt": prompt})

    def _cancel_prompt(self, t: float) -> None:
        if self._prompt is not None and not self._turns.must_pass:
            self._emit(t, {"prompt_cancelled": {"seat": self._prompt["seat"]}})
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
            self._emit(t, {"takeback": str(old), "amend": True})
            board.push(move_of(reading))
            self._history.append((reading, before))
            self._emit(t, {"move": str(reading.move), "amended": True})
            who = COLORS[before.turn].title()
            self._announce = ((f"{who} amended:", str(reading.move)), t + ANNOUNCE_S)
            window = before
        elif reading.move is None:
            move = board.pop()
            self._history.pop()
            self._emit(t, {"takeback": str(move)})
        else:
            before = board.position
            board.push(reading.move)
            self._history.append((None if reading.move.is_pass else reading, before))
            self._emit(t, {"move": str(reading.move)})
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
                self._emit(t, {"winner": outcome.winner, "how": outcome.how})
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, {"synced": True})
        seen = self._evidence.groups() | (self._window.seen if kind == AMEND and self._window
                                          else frozenset())
        self._new_position(t, forget=last)
        if window is not None and not board.is_game_over():
            self._window = open_window(reading, window, board.cards, seen)

    def _new_position(self, t: float, *, forget: bool = True) -> None:
        board = self._board
        self._version += 1
        self._base = board.position.occupied()
        self._turns = Turns(board, self._history[-1] if self._history else None)
        self._passed = {}
        self._lifts = {}
        self._window = None
        self._prompt = None
        self._options = {}
        self._waiting = None
        self._held = None
        self._base_since = None
        if forget:
            self._evidence.forget(t)
        if self._turns.must_pass:
            # No legal move: the mat has nothing to show, so ask at once which card goes.
            pos = board.position
            self._ask(t, {m.card: [((PLAY, read_move(pos, m)),)] for m in self._turns.moves})

    def _emit(self, t: float, event: MatEvent) -> None:
        self._out.append({"t": round(t, 3), **event})

    def _drain(self) -> list[MatEvent]:
        out, self._out = self._out, []
        return out

    # -- feedback ----------------------------------------------------------------------------

    def feedback(self) -> Feedback:
        pairs: tuple[tuple[int, int], ...] = ()
        stray = None
        outcome = self._board.outcome()
        if self._mismatch is not None:
            scene, pairs, oled = mismatch_view(self._mismatch, self._occ, self._base)
            stray = stray_step(self._mismatch, self._occ, self._base)
        elif self._prompt is not None:
            touched = (sq for plans in self._options.values() for plan in plans
                       for _, reading in plan for sq in reading.touched)
            scene, oled = prompt_view(self._prompt, touched, self._turns.must_pass, self._slot)
        elif outcome is not None:
            scene, oled = outcome_view(outcome.winner, outcome.how, self._board.position)
        else:
            # The player to move lifting a pawn of theirs sees its destinations; until then a
            # last move still open shows only what its mover may still do.
            pos = self._board.position
            lifted = self._base - self._occ
            w = self._window
            # The Spirit and the student it swaps with, both in the hand, are the last mover's
            # Wind Spirit card going on, whoever's student it is.
            going_on = w is not None and pos.spirit in lifted and lifted <= w.touched
            moving = lifting_own(pos, lifted) and not going_on
            scene = dict((not moving and window_lights(w, self._base, self._occ))
                         or destinations(self._turns.readings, self._base, self._occ, self._slot,
                                         lambda r: self._evidence.has(r.midway_groups)))
            oled = play_oled(pos, self._announce[0] if self._announce else None, self._waiting)
        if self._flash is not None:
            for sq in self._flash[0]:
                scene[sq] = Light("green", "flash")
        return Feedback(scene, pairs, oled, stray)

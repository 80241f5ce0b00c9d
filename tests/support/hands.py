"""Hands on the mat: switch transitions with times, as a player's hands make them, and how long
each thing hands do takes."""

from __future__ import annotations

import random

from companion.rules.squares import square_distance, square_name

# Timings of hands, in seconds. Clear of the recognizer's thresholds on purpose: a brush is
# shorter than CLEAR_S, a hesitation shorter than the 0.25 s the spec allows, a deliberate
# lift longer than CLEAR_S, and the short pause inside a Wind Spirit card shorter than the
# settle time while the long one is longer.
BOUNCE = (0.0004, 0.0025)
BRUSH = (0.004, 0.045)
HESITATE = (0.04, 0.2)
TRAVEL = (0.15, 0.7)
EXCHANGE = (0.12, 0.4)
THINK = (0.8, 3.0)
LONG_THINK = (4.0, 12.0)
HOLD = (1.0, 4.0)
STEP_PAUSE_SHORT = (0.03, 0.2)
STEP_PAUSE_LONG = (0.6, 2.5)
ANSWER = (0.7, 2.5)
FAST = (0.05, 0.35)          # the next player starts this soon after the mat rests
SET_DOWN = (0.3, 0.8)        # a pawn left on a wrong square before moving on ...
SETTLE_BAND = (0.28, 0.45)   # ... but never this close to the settle time, bounces and debounce
#                              included (either may happen): in effect 0.45-0.8 s, always
#                              long enough to be committed, then amended
ASIDE = (0.2, 0.9)           # a captured pawn set down for a moment
AIR = (1.0, 3.0)             # a pawn held in the air
KNOCK = (0.004, 0.04)        # a piece knocked off its switch by the hand
SLIDE = (0.02, 0.09)         # a pawn slid over a square on the way
HURRIED = (0.05, 0.15)       # the next player starts this soon after the mat rests (hurried)
SNATCH = (0.05, 0.25)        # ... by lifting the piece the last turn just placed (snatch)
KNOCKED = (0.3, 2.5)         # a neighbour knocked off its switch, then put back
SET_DOWN_ANY = (0.3, 0.8)    # a pawn left on a wrong square, any length (set-down)
NUDGE = (0.1, 0.5)           # a pawn lifted and re-seated on its own square
LONG_AIR = (3.0, 8.0)        # a piece in the air while the other player touches something
ONLOOKER = (0.005, 0.15)     # a passing hand lifts a piece off its switch this long


class Hands:
    """Switch transitions with times, as a player's hands make them."""

    def __init__(self, rng: random.Random, events: list[dict], occupied: set[int]):
        self.rng = rng
        self.now = 0.0
        self.events = events
        self.occupied = occupied
        # Times of transitions that are noise, not the hands playing (brushes, an onlooker):
        # the scorer does not count them as the mat moving.
        self.noise: list[float] = []
        # Transitions due later, made while the hands do something else (a knocked pawn put
        # back while the moving one travels): (time, square, on).
        self.pending: list[tuple[float, int, bool]] = []
        self.away: set[int] = set()   # occupied squares whose piece is knocked off its switch

    def wait(self, span: tuple[float, float]) -> None:
        self.until(self.now + self.rng.uniform(*span))

    def until(self, t: float) -> None:
        """Time passes to ``t``; transitions due meanwhile happen at their time."""
        while self.pending and self.pending[0][0] <= t:
            due, sq, on = self.pending.pop(0)
            self.now = max(self.now, due)
            self._edge(sq, on)
            self.away.discard(sq)
        self.now = max(self.now, t)

    def later(self, t: float, sq: int, on: bool) -> None:
        self.pending.append((t, sq, on))
        self.pending.sort()

    def finish(self) -> None:
        """Whatever the hands left to do later is done now (its own time)."""
        if self.pending:
            self.until(self.pending[-1][0])

    def _edge(self, sq: int, on: bool, noise: bool = False) -> None:
        # The contact chatters a few times within milliseconds before it holds.
        states = [on] + [not on, on] * self.rng.randint(0, 3)
        for i, state in enumerate(states):
            if i:
                self.now += self.rng.uniform(*BOUNCE)
            self.events.append({"t": round(self.now, 4), "on" if state else "off": square_name(sq)})
            if noise:
                self.noise.append(round(self.now, 4))

    def lift(self, sq: int) -> None:
        self._edge(sq, False)
        self.occupied.discard(sq)

    def place(self, sq: int) -> None:
        self._edge(sq, True)
        self.occupied.add(sq)

    def brush(self, sq: int, span: tuple[float, float] = BRUSH) -> None:
        """A hand passing over a piece opens its switch for a moment (noise)."""
        self._edge(sq, False, noise=True)
        self.now += self.rng.uniform(*span)
        self._edge(sq, True, noise=True)

    def knock(self, sq: int, span: tuple[float, float]) -> None:
        """The hand knocks a piece off its switch; it is put back on its square after ``span``."""
        self._edge(sq, False)
        self.away.add(sq)
        self.later(self.now + self.rng.uniform(*span), sq, True)

    def chatter(self, sq: int) -> None:
        """A second magnet arriving on an occupied square: bounces, no change."""
        for _ in range(self.rng.randint(1, 3)):
            self._edge(sq, False)
            self.wait(BOUNCE)
            self._edge(sq, True)
            self.wait(BOUNCE)

    def travel(self, frm: int, to: int) -> None:
        """Carry a piece: maybe brush a neighbour, hesitate on an empty square, or hold it."""
        rng = self.rng
        if rng.random() < 0.3:
            near = [sq for sq in self.occupied if sq not in self.away and sq not in (frm, to)
                    and min(square_distance(sq, frm), square_distance(sq, to)) == 1]
            if near:
                self.wait((0.02, 0.15))
                self.brush(rng.choice(near))
        if rng.random() < 0.25:
            empty = [sq for sq in range(25) if sq not in self.occupied and sq not in (frm, to)]
            self.wait((0.05, 0.3))
            here = rng.choice(empty)
            self.place(here)
            self.wait(HESITATE)
            self.lift(here)
        self.wait(HOLD if rng.random() < 0.1 else TRAVEL)

    def step(self, frm: int, to: int, capture: bool, order: str | None = None) -> None:
        """A pawn (or the Spirit onto an empty square) moves; a capture in any order."""
        if not capture:
            self.lift(frm)
            self.travel(frm, to)
            self.place(to)
            return
        order = order or self.rng.choice(("own first", "captured first", "captured last"))
        if order == "own first":
            self.lift(frm)
            self.travel(frm, to)
            self.lift(to)
            self.wait(EXCHANGE)
            self.place(to)
        elif order == "captured first":
            self.lift(to)
            self.wait((0.2, 1.5))
            self.lift(frm)
            self.travel(frm, to)
            self.place(to)
        else:
            # Set down beside the captured pawn, which is then slid off while the captor is
            # pushed onto the middle of the square.
            self.lift(frm)
            self.travel(frm, to)
            self.chatter(to)
            self.wait((0.05, 0.3))
            self.lift(to)
            self.wait(EXCHANGE)
            self.place(to)

    def swap(self, a: int, b: int, spirit_first: bool = False) -> None:
        """The Spirit and a student change places: two lifts, two placements, any order."""
        first, second = (a, b) if spirit_first else self.rng.sample((a, b), 2)
        self.lift(first)
        self.wait((0.05, 0.3))
        self.lift(second)
        self.wait((0.15, 0.5))
        first, second = self.rng.sample((a, b), 2)
        self.place(first)
        self.wait((0.05, 0.3))
        self.place(second)

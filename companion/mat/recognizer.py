"""Reading moves from a presence-only mat: a pure, deterministic tracker of hypotheses.

The recognizer knows the rules, not the pins. It is fed debounced occupancy with the time it
changed (``update``), the passing of time (``advance``: it never reads a clock), mat buttons
(``button``) and phone answers (``answer``). Each call returns the events decided (the trace
spec's output objects, :mod:`.events`), and ``feedback()`` says what the LEDs and the OLED
should show.

It keeps hypotheses, not a state (docs/recognizer.md has the contract):
- pieces.py: every edge is replayed on piece maps; a placement branches over the pieces in the
  air, each map ranked by the noise its hands needed (a beam);
- histories.py: the legal histories from the *anchor* (the last point it is sure of: the
  position before the last move published) that leave one of those maps;
- record.py: what the cheapest histories agree on is published, at rest or at the next
  player's lift; a history that changes a published move publishes the correction;
- asking.py: when they disagree, a question keeps the histories each answer allows; the hands
  go on being read, and may settle it themselves;
- view.py: the LEDs and the OLED; a mat no history explains is out of sync, and its pawns are
  led to the nearest history's board.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from ..rules.board import Board
from ..rules.moves import Move
from ..rules.cards import CARDS, CardTable
from ..rules.engine import Engine
from ..rules.position import COLORS, Position
from ..rules.squares import square_name
from .asking import Question, pass_question, unsaid
from .events import MatEvent, Prompt
from .histories import Explanation, Node, Tree, explain
from .sides import boards, sides_of
from .turns import Known
from .walks import untimed
from .pairing import pair_up as pair_up
from .pieces import PIECES, PieceMap, PieceMaps
from .readings import pieces_of
from .record import Record
from .scene import Feedback
from .window import move_of
from .view import NEAR, MatView, feedback, nearest, unfinished
from .agreeing import agreed_turn
from .ahead import publication
from .explaining import (agreement, allowed, asked_again, board_fit, build_tables, bury,
                         common_prefix, expected, fast_turn, half_made, held_by,
                         least_noise, may_follow, refollow,
                         rested_ends, shown_after, wind_halves, window_of)
from .pairs import paired
from .resting import Twin, rested_reading
from .seen import seen_readings
from .moment import Moment
from .snatching import chained, snatch_ends, snatch_of, split_in_two
from .undoing import asked_instead, moved_back, spirit_first, spirit_put_back, taking_back
from .on_its_way import amends_back, held_open, look_again, part_way, whole
from .round_trips import ask_apart, shown_then
from .emptied import again_of, emptied_since
from .answering import answered, proved
from .heard import Heard, turn_of
from .starting import next_players, proof, starts, touched
from .in_place import made_in_place
from .set_aside import set_aside
from .taken_back import answered_late, still_named, taken_back_at
from .one_game import one_game
from .relabelled import least_maps
from .showing import before_next
from .proving import kept_at_lift, proves_start, shown_whole

SETTLE_S = 0.35   # at rest this long before a reading is accepted
MAX_SETTLE_S = 0.5  # the spec's bound: a move commits within 0.5 s of the mat coming to rest
CLEAR_S = 0.08    # empty this long to count as lifted (brushes are shorter)
FLASH_S = 0.6     # a committed move's destination flashes this long
DEPTH = 2         # histories grown from the anchor at each rest (deeper ones stay alive)
SCAN_S = 0.01     # the mat's scan period: work left over goes on at the next scan
SLICE = 150       # the tree's work per call (turns tried; a node made counts ``MADE``)
AT_REST = 4 * SLICE   # ... when the mat rests and the tree is not grown yet
KEEP_S = 1.5      # a mat resting this long in what histories explain drops the other maps (a
                  # captured pawn set down for a moment on its captor's square is shorter)


class Recognizer:
    """Turns a mat's occupancy into moves of the game that starts at ``position``.

    ``t`` is the time the mat is known to be at rest in ``position`` (the trace's start).
    """

    def __init__(self, position: Position | str, *, cards: CardTable = CARDS,
                 settle: float = SETTLE_S, clear: float = CLEAR_S, flash: float = FLASH_S,
                 t: float = 0.0, first: int = 1):
        if not 0 < settle <= MAX_SETTLE_S:
            raise ValueError(f"settle time {settle} s: must be above 0 and at most {MAX_SETTLE_S} s")
        self.settle, self.clear = settle, clear
        self._record = Record(Board(position, cards=cards), flash)
        self._engine = Engine(cards)
        build_tables(self._record, self._engine)
        self._known = Known()
        self._tree = Tree(self._record.board, self._engine, self._known)
        self._occ = self._record.position.occupied()
        self._maps = PieceMaps(pieces_of(self._record.position), t, clear)
        self._lifts: list[tuple[float, int]] = []  # (when, square) since the anchor's move began
        self._rested: list[tuple[float, frozenset[int]]] = [(t, self._occ)]  # the mat's rests (at t, too)
        self._shown: list[float] = []              # when the mat showed each open move made
        self._shown_at = t                         # ... and the game as last published
        self._changed_at = t
        self._moment: Moment | None = None   # a Spirit's moment read as one hand (``one_hand``)
        self._set_down: frozenset[int] = frozenset()   # the squares the last change filled
        self._since = t          # the histories' steps land after this (see ``_stand``)
        self._cut = t            # when the mat showed the move the anchor comes after
        self._evaluated = True
        self._explained: list[Node] = []         # the cheapest histories at the last rest
        # Histories as cheap as those published at the last rest, whose turns followed one
        # another on boards the mat never rested on (``seen_at_rest`` put them after the
        # published one): kept growing until the next publication, in case the next hands
        # go on from them (a Spirit the next player snatched, read as set down on its way).
        self._doubted: list[Node] = []
        self._unseen: list[Node] = []            # those of the last look
        self._twins: list[Twin] = []             # kept at the last look only as glimpses
        # The whole turns the mat showed when the Spirit their last turn placed was lifted
        # (whose hand, the mover's or the next player's, the switches cannot say): grown on
        # from until the next publication, so that a chain of fast Spirit moves does not
        # outrun the tree (hurried 30).
        self._chain: list[Node] = []
        self._fitting: set[int] = set()          # the maps some history left, at the last look
        self._prune: float | None = None         # when maps no history explains are dropped
        self._aside: float | None = None         # when a piece set aside stops being aside
        self._moved_on: frozenset[int] = frozenset()   # where a piece ``set_aside`` doubts stands
        # The tree is grown in slices, one a scan (``SLICE``), ahead of the next look: when
        # the next slice is due, and whether a rest waits for the tree to be read.
        self._work: float | None = t + SCAN_S
        self._reading = False
        # A lift that may end a turn (fast play), waiting for the tree of the mat before it:
        # (when, squares lifted, the lifts and maps then, publications, rests).
        self._late: tuple[float, frozenset[int], list[tuple[float, int]], list[PieceMap],
                          int, int] | None = None
        self._midway: list[Node] = []            # the next player's Wind card half made, at the last look
        self._halves: list[Node] = []            # Wind cards' pawn steps from the game as published
        # A lift that may end a turn: (when, publications then, the turn, when the mat last
        # showed it whole).
        self._fast: dict[int, tuple[float, int, Node, float]] = {}
        # A fast reply that began on the pawn the turn before it placed (the pawn it captures:
        # a snatch), which the mover's own hand may have lifted again: (when, publications
        # then, the turn). The next player's lift of a piece of their own away from that turn
        # and from where the mover could amend it to, nothing set down since, ends the turn.
        self._snatch: tuple[float, int, Node] | None = None
        self._version = 0                        # counts publications: a lift decided before is stale
        self._starts: dict[int, float] = {}      # the opponent's lifts, until they prove real
        self._started: dict[int, float] = {}     # the opponent's lifts that proved they started
        self._rejected: list[tuple[Move, ...]] = []  # histories the players' answers ruled out
        # The card a player said a turn was played with (the turn after the moves given): an
        # amendment of it into another card's turn is ruled out too.
        self._named: list[tuple[tuple[Move, ...], str]] = []
        self._question: Question | None = None
        # Phone answers name a turn, numbered from ``first`` (the turn the mat starts on);
        # those for a turn no open question asks about are kept for it.
        self._heard = Heard(first, self._record)
        self._passing = False                    # the question is which card to give up
        self._mismatch: tuple[frozenset[int], frozenset[int]] | None = None
        self._waiting: str | None = None
        self._out: list[MatEvent] = []
        self._expect()
        self._check_pass(t)

    # -- state -----------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The game as recognized (read it; feed moves only through the mat)."""
        return self._record.board

    @property
    def occupancy(self) -> frozenset[int]:
        return self._occ

    @property
    def prompt(self) -> Prompt | None:
        """The question waiting for an answer, as emitted, or None."""
        return self._question.prompt if self._question is not None else None

    def turn_of(self, seat: str, card: str | None = None, *, takeback: bool = False) -> int | None:
        """The number of the turn a phone answer to the open question says something of (the
        turn played with ``card``, or the one taken back; ``first`` is the turn the mat
        started on): the phone names it with the answer. None if the question offers
        ``seat`` no such answer."""
        return turn_of(self._question, seat, card, takeback)

    @property
    def waiting(self) -> str | None:
        """The seat whose turn the mat shows part-way done, at rest, or None."""
        return self._waiting

    @property
    def amendable(self) -> bool:
        """May the last move's mover still amend it: it is open, and the opponent has not
        started (lifted a piece of their own elsewhere, for real)?"""
        return bool(self._record.open) and not self._started

    @property
    def spirit_may_follow(self) -> tuple[str, tuple[str, ...]] | None:
        """The last move, read as a regular card's, is also the pawn step of a Wind Spirit
        card its mover may still go on with (the mat amends it then): the mover and those
        cards; else None (also once the opponent has started)."""
        return may_follow(self._tree, self._record) if self.amendable else None

    @property
    def hypotheses(self) -> int:
        """Live hypotheses: the piece maps, and the histories kept apart beyond the first."""
        return len(self._maps.maps) + max(0, len(self._explained) - 1)

    @property
    def next_deadline(self) -> float | None:
        """The next time ``advance`` would decide something if nothing else happens."""
        times = [when for when, _ in self._due(float("inf"))]
        times += [x[1] for x in (self._record.flash, self._record.announce) if x is not None]
        return min(times) if times else None

    # -- inputs ----------------------------------------------------------------------------

    def update(self, t: float, occupancy: frozenset[int]) -> list[MatEvent]:
        """The debounced occupancy changed at time ``t``."""
        occupancy = frozenset(occupancy)
        self._advance_to(t, changed=bool(self._set_down - occupancy))
        if occupancy != self._occ:
            self._release(t)
            before = self._occ
            self._started = touched(self._started, occupancy - before, t)
            for sq in occupancy - before:
                self._fast.pop(sq, None)
                self._starts.pop(sq, None)
                # A brush is no lift.
                self._lifts = [(t0, s) for t0, s in self._lifts if s != sq or t - t0 >= self.clear]
            lifted = before - occupancy
            if occupancy - before:
                self._snatch = None   # (a piece set down: the mat is another turn now)
            elif self._snatch is not None:
                # After a snatch, the next player's lift of a piece of their own ends the
                # turn; a lift of the mover's may be the mover amending it.
                self._snatched(t, lifted)
            # (A mat left waiting may be a turn the next player's lift ends, as in fast play;
            # not the lift of a piece ``set_aside`` doubts: the hand at work goes on with it.)
            if lifted - self._moved_on and (not self._evaluated or self._waiting is not None):
                self._note_fast(t, lifted - self._moved_on)
            self._starts = starts(self._starts, t, lifted, self._lifts,
                                  partial(next_players, self._tree, self._record), self.clear)
            self._lifts += [(t, sq) for sq in lifted]
            self._maps.change(t, before, occupancy)
            self._occ = occupancy
            self._changed_at = t
            self._set_down = occupancy - before
            self._evaluated = False
            self._prune = self._aside = None
            self._moved_on = frozenset()
            self._reading = False
            self._work = t + SCAN_S   # the tree for the lifts now, from the next scan
            self._record.flash = None
        return self._drain()

    def advance(self, t: float) -> list[MatEvent]:
        """Time has reached ``t`` (call at least every few tens of ms, or at ``next_deadline``)."""
        self._advance_to(t)
        return self._drain()

    def button(self, t: float, name: str) -> list[MatEvent]:
        """Mat button A or B answers with the first or second card of the asked player's hand;
        C the takeback when offered, else the other player's one card."""
        self._advance_to(t)
        if self._question is not None:
            key = self._question.button_key(name)
            if key is not None:
                self._choose(key, t)
        return self._drain()

    def offered(self, turn: int, seat: str, card: str | None = None, *,
                takeback: bool = False) -> bool:
        """Did a question raised offer ``seat`` this answer for ``turn`` (one about a turn
        that does not stand yet)? A phone can only send what it was shown."""
        return self._heard.offers(turn, seat, card, takeback)

    def answer(self, t: float, seat: str, card: str | None = None, *,
               takeback: bool = False, turn: int | None = None) -> list[MatEvent]:
        """A phone answer from ``seat``: the card used (or given up), or the takeback; ``turn``:
        the turn it says something of (``turn_of``). An answer about a turn the open question
        does not ask about is kept for a question about that turn, and answers the question
        that offered it if the mat is still at the anchor that was asked from (``heard``)."""
        self._advance_to(t)
        key, late = self._heard.hear(self._question, turn, seat, card, takeback)
        if key is not None:
            self._choose(key, t, late)
        return self._drain()

    def end_turn(self, t: float) -> list[MatEvent]:
        """The turn goes on off the mat (in Light & Shadow, the phone's step begins): the
        moves published stand."""
        self._advance_to(t)
        self._stand(len(self._record.open), t)
        return self._drain()

    def declared(self, move: str) -> None:
        """``move``, published, was declared away from the mat (a remote seat's phone, the
        computer): it is that seat's, and the mat may not take it back or amend it (the table
        refuses to), so it and the moves before it stand; the moves published after it stay
        open. Else a history that amends it may tie with the one that goes on from it, and a
        question or an amendment the table refuses stops the game (Blue's Spirit put back for
        a moment after Red's declared Cobra d4c4, tests/table/test_declared_moves.py)."""
        n = self._record.through(move)
        # (One its mover may still go on from with a Wind Spirit card stays open: the mat's
        # view, which the table does not show: tests/table/test_spirit_step_said.py.)
        if n and self.spirit_may_follow is None:
            self._stand(n, self._changed_at)
            whole(self._maps, self._tree, self._record)

    def feedback(self) -> Feedback:
        view = MatView(self._occ, self._maps.maps, self._waiting, self._mismatch)
        return feedback(self._record, self._tree, self._question, self._passing, view)

    # -- the clock -------------------------------------------------------------------------

    def _advance_to(self, t: float, changed: bool = False) -> None:
        """Decide what is due by ``t``. A piece set down and lifted again in the scan that
        ends the settle time (``changed``) ends it before it is read: the debounce gives a
        change 25 ms or more after the switches made it, so that piece was still in the hand
        (set-down 18: a Spirit set down for 0.339 s, 0.350 s after the debounce, read as at
        rest). Another change in that scan (the next player's first lift) is read after."""
        sliced = False   # one slice of the tree's growth per call
        rest_by = t - SCAN_S / 2 if changed else t
        while True:
            due = self._due(rest_by)
            if not due or min(due)[0] > t:
                break
            when, sq = min(due)
            if sq == -4:
                self._work = None if not sliced else t + SCAN_S
                if not sliced:
                    sliced = True
                    self._slice(when)
            elif sq >= 100:
                self._started[sq - 100] = proof(self._tree, self._record, sq - 100,
                                                self._starts.pop(sq - 100))
            elif sq >= 0:
                self._fast_lift(sq, when)
            else:
                self._timer(sq, when)
        self._record.expire(t)

    def _due(self, rest_by: float) -> list[tuple[float, int]]:
        """What is due when: fast lifts (their square), opponents' lifts (100 + square),
        the settle time (-1, if it ends by ``rest_by``), the prune (-2), a piece aside (-3), a
        slice of growth (-4)."""
        due = [(t0 + self.clear, sq) for sq, (t0, _, _, _) in self._fast.items()]
        due += [(t0 + self.clear, 100 + sq) for sq, t0 in self._starts.items()]
        if not self._evaluated and self._changed_at + self.settle <= rest_by:
            due.append((self._changed_at + self.settle, -1))
        timers = ((self._prune, -2), (self._aside, -3), (self._work, -4))
        return due + [(when, kind) for when, kind in timers if when is not None]

    def _timer(self, kind: int, when: float) -> None:
        """The settle time (-1), the prune (-2) or a piece aside (-3) is due."""
        if kind == -3:
            self._aside = None
            self._moved_on = frozenset()
            self._rest(when)   # the piece set aside stayed: the mat is read again
        elif kind == -2:
            self._prune = None
            explained = explain(self._explained, self._maps.maps, when, self._since)
            self._maps.keep(least_maps(explained, self._maps.maps, when, self._since),
                            held_by(explained), part_way(explained))
            if not explained:
                self._rest(when)   # a piece "set aside" stayed: the mat is read again
        else:
            self._evaluated = True
            self._rest(when)

    def _fast_lift(self, sq: int, when: float) -> None:
        """A lift that may end a turn has lasted ``clear``: the turn ends there."""
        _, version, node, shown = self._fast.pop(sq)
        # (Only a lift that proves the next player started ends the turn: ``proves_start``.)
        if version == self._version and proves_start(node, self._record, sq, self._occ,
                                                     self._lifts, self.clear, self._tree):
            found = explain([node], self._maps.maps, since=self._since)
            self._maps.settle({id(e.map): node.taken for e in found
                               if e.cost == found[0].cost}, before=shown)
            # The history the mat showed is the one the next hands go on from.
            self._explained = [node]
            self._publish([node], when, shown=shown - 1e-6)

    # -- explaining the mat ----------------------------------------------------------------

    def _lifted(self) -> Counter[int]:
        """How often hands emptied each square (for longer than a brush) since the anchor's
        next move began, at least as often as the open moves did (they were made)."""
        made = self._tree.follow(self._record.moves_open())
        if made is None:
            return emptied_since(self._lifts, self._shown, Counter(), None)
        return emptied_since(self._lifts, self._shown, made.emptied, made.pieces)

    def _slice(self, t: float) -> None:
        """A scan's slice of the tree's growth for the next look; a lift or a rest waiting
        for the tree is judged once it is grown."""
        if self._late is not None:
            self._judge_fast(SLICE)
            if self._late is not None or self._reading:
                self._work = t + SCAN_S
        elif self._reading:
            self._rest(t, again=True)
        elif self._grow(SLICE) is None:
            self._work = t + SCAN_S

    def _grow(self, budget: int | None) -> list[Node] | None:
        """The histories grown for a look now (None: not yet, see ``Tree.grow``)."""
        lifted = self._lifted()
        # (The window is a function of copies, not of the recognizer: the tree keeps it, and
        # a recognizer in a cycle with its tree is freed only by the cyclic collector.)
        window = partial(window_of, tuple(self._lifts), tuple(self._shown), lifted)
        return self._tree.grow(lifted, DEPTH, self._explained + self._doubted + self._chain,
                               window,
                               key=(tuple(self._lifts), tuple(self._shown)), budget=budget,
                               again=again_of(self._lifts, self._shown,
                                              self._tree.follow(self._record.moves_open())))

    def _explain(self, maps: list[PieceMap], now: float, budget: int | None = None
                 ) -> tuple[list[Node], list[Explanation]] | None:
        """The nodes grown, and the cheapest histories among them that leave one of ``maps``
        (none the players' answers ruled out); None if the tree is not grown within
        ``budget``."""
        opened = self._record.moves_open()
        grown = self._grow(budget)
        if grown is None:
            return None
        sides = sides_of(maps, now)
        named = still_named(self._named, self._tree, opened, self._shown, self._rested)
        nodes = allowed(grown + self._tree.halves(grown, boards(maps, now, sides),
                                                  self._tree.follow(opened)),
                        *unsaid(self._asked(), self._rejected, named), self._tree)
        pos = self._record.position
        self._fitting = set()
        # (Not once the players named the card of the last turn: it is a turn, not a takeback.)
        back = spirit_first(self._tree, opened) if all(p != opened[:-1] for p, _ in named) else None
        every = explain(nodes, maps, now, self._since,
                        frozenset(PIECES[pos.turn]), self._shown_at,
                        self._fitting, sides,
                        taking_back(self._tree, nodes, opened, self._asked(), back))
        found = least_noise(every, maps[0].cost if maps else 0, opened, bool(self._started),
                            partial(rested_ends, record=self._record, lifts=self._lifts,
                                    shown=self._shown, rested=self._rested),
                            self._doubted, back, asked_instead(nodes, opened, self._asked()))
        # The next player's Wind Spirit card half made (an amendment is not read over it).
        self._midway, self._halves = wind_halves(every, found, nodes, opened)
        q = self._asked()
        seen = seen_readings(every, found, self._record, self._lifts,
                             (self._shown, self._shown_at), self._rested, self.clear,
                             self._maps.laid, q.number - self._heard.open if q else None, q)
        self._unseen, self._twins, self._moment = seen.unseen, seen.twins, seen.moment
        return [n for n in nodes if n.pending is None], seen.kept

    def _note_fast(self, t: float, lifted: frozenset[int]) -> None:
        """Fast play: the mat showed a complete turn without resting on it, and the next
        player lifts a piece of theirs away from it. The turn ends there, once the lift
        proves real (``clear``). If the tree for the mat before the lift is not grown yet,
        it is grown on at the next scans and the lift judged then, on the mat it lifted
        from (``_late``)."""
        if self._late is not None:
            self._judge_fast(None)   # (one lift judged after another, as they came)
        self._late = (t, lifted, list(self._lifts), self._maps.maps, self._version,
                      len(self._rested))
        # A scan's slice, as every other call's growth: the lift is judged at the next scans
        # if its tree needs more (it ends the turn only once it lasts ``clear``, 8 scans).
        self._judge_fast(SLICE)

    def _judge_fast(self, budget: int | None) -> None:
        """Judge the lift noted by ``_note_fast`` (``_late``) if its tree is grown within
        ``budget``; a publication or a rest since makes it moot."""
        assert self._late is not None
        t, lifted, lifts, maps, version, rests = self._late
        if version != self._version or rests != len(self._rested):
            self._late = None
            return
        lifts, self._lifts = self._lifts, lifts   # (the lifts the mat had made then)
        try:
            looked = self._explain(maps, t, budget)
        finally:
            self._lifts = lifts
        if looked is None:
            return
        self._late = None
        fast = fast_turn(kept_at_lift(looked[1], self._unseen, self._record), self._tree,
                         self._record, self._midway, lifted)
        if fast is None:
            # Read two ways: the turns they agree on may end (``agreed_turn``).
            self._fast.update(agreed_turn(looked[1], self._tree, self._record, self._midway,
                                          lifted, (self._lifts, self._shown_at, t), self._version))
            return
        node, mine = fast
        if maps is self._maps.maps:
            # The mat showed the turn whole and the next player went on at once (fast 60).
            shown_whole(self._maps, self._fitting, node, mine, lifted, self._occ, lifts, t,
                        self._record, self._tree)
        self._chain = chained(self._chain, node, lifted, mine)
        self._fast.update((sq, (t, self._version, node, t)) for sq in mine)
        over = snatch_of(self._tree, self._record, self._explained, node, lifted, mine,
                         (self._lifts, self._shown_at, t))
        if over is None:
            return
        self._snatch = (t, self._version, node)
        # The turns before it that are over, whose ever hand the snatch is (story 4).
        self._fast.update((sq, (t, self._version, *turns)) for sq, turns in over.items())

    def _snatched(self, t: float, lifted: frozenset[int]) -> None:
        """A lift after a snatch (``_snatch``): one of the next player's own pieces away
        from the turn, and from where its mover could amend it to (a capture: takeback 2),
        ends it once it proves real, the turn shown until the snatch."""
        assert self._snatch is not None   # (dropped at each publication and restart)
        t0, version, node = self._snatch
        ends = snatch_ends(self._tree, node, self._midway, lifted)
        self._fast.update((sq, (t, version, node, t0)) for sq in ends)

    def _rest(self, t: float, again: bool = False) -> None:
        """The mat rests: read it (``again``: a rest that waited for the tree)."""
        if not again:
            self._rested.append((t, self._occ))
            self._maps.lay(t)
        looked = self._explain(self._maps.maps, t, AT_REST)
        self._reading = looked is None
        if looked is None:
            self._work = t + SCAN_S   # the tree is grown on at the next scans, then read
            return
        self._work = t + SCAN_S       # (the next look's tree, ahead)
        nodes, found = looked
        if not found:
            self._unexplained(t, nodes)
            return
        found = found + moved_back(found, nodes, self._record.moves_open())
        found, held = held_open(found, self._record)
        if found[0].node.pending is not None:
            self._maps.rested(self._fitting, found[0].node.taken)
            # Read part-way only while a piece set down may be aside or on its way (a
            # Spirit, story 9): the mat is read again as it stands then.
            self._aside = look_again(found, self._aside)
            self._part_way(t, COLORS[found[0].node.position.turn])
            return
        opened = self._record.moves_open()
        if self._midway and all(e.node.moves[:len(opened)] != opened for e in found):
            # Every reading amends a published turn, but the mat is also the next player's
            # Wind Spirit card half made: no amendment is read over it (their Spirit step,
            # or a lift elsewhere, tells them apart).
            self._part_way(t, COLORS[self._midway[0].position.turn])
            return
        aside = set_aside(found, opened, self._shown, self._lifts, self._changed_at, t,
                          partial(self._tree.moves_from, self._record.position))
        if aside is not None:
            # The piece moved on may be the one the next player captures, set down for a
            # moment (story 6): read once it has stood as long as a piece may be aside.
            self._aside = aside
            self._moved_on = self._set_down
            self._part_way(t, COLORS[self._record.position.turn])
            return
        if all(e.aside is not None for e in found):
            # A piece the histories took off stands aside on the mat: the hand that took it
            # is not done, so nothing is published until it goes (or stays, then it is read
            # again as it stands).
            self._aside = max(e.aside for e in found if e.aside is not None)
            self._point_aside(t, found[0].node.occupancy)
            return
        found = made_in_place(found, opened)
        self._prune = self._changed_at + KEEP_S
        self._waiting = None
        # A piece the maps lost in the air (no history took it) would land later anywhere
        # at no cost, in place of one that was only put back (nudge 30): at a rest that
        # publishes a turn it is lost in every map. (At other rests a piece may be in the
        # hand of a turn being taken back: takeback-wind 11.)
        opened = self._record.moves_open()
        publishes = any(e.node.moves != opened for e in found)
        if publishes:
            # (Not at other rests: the mat may be a takeback half made, the piece it took
            # back on its square, the mover's in the hand.)
            self._maps.rested(self._fitting, found[0].node.taken)
        self._maps.settle({id(e.map): e.node.taken for e in found},
                          others=found[0].node.taken if publishes else None,
                          held=held_by(found))
        whole = [e.node for e in found]
        self._explained = whole + held   # (the part-way readings' turns before: see held_open)
        self._publish_rested(whole, t)
        self._record.hold = None
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, synced=True)

    def _publish_rested(self, whole: list[Node], t: float) -> None:
        """Publish the histories read at a rest (``whole``: ``_explained`` but the part-way
        readings held open beside them; the twins are asked among ``_explained`` as
        :meth:`_publish` refollowed them). Beside the twins of a Spirit set down a moment on
        its way (``_twins``, kept only as glimpses), the reading the mat rested on is
        published at once, and the twins are only asked about: an answer that names a twin's
        card amends the turn, and a twin nobody answers never holds the record
        (:func:`.resting.rested_reading`); so are the two players' turns a Spirit's moment
        was read as, beside the one hand (``_moment``)."""
        lead = rested_reading(whole, self._twins, self._record.moves_open(), self._moment)
        self._publish(lead or whole, t, doubted=split_in_two(whole, self._unseen))
        if lead and not self._passing:
            # (The twins asked about from the anchor now: those published turns that
            # every history keeps but the last stand, and the histories were refollowed.)
            paths = [n.moves for n in self._explained]
            self._ask_apart(self._explained, common_prefix(paths), self._record.moves_open(), t)

    def _held(self, t: float) -> None:
        """Pieces in the hand: a Wind Spirit card's pawn step made with them is a turn
        part-way (its Spirit lifted, or a student it swaps with), else nothing to say."""
        seat = half_made(self._halves, self._maps.maps[:NEAR])
        if (seat is not None and self._mismatch is None and self._question is None
                and seat != self._waiting):
            self._waiting = seat
            self._emit(t, waiting={"seat": seat})

    def _point_aside(self, t: float, toward: frozenset[int]) -> None:
        """The captured piece standing aside is the square to clear (out of step with the
        turn read until it goes): the LEDs and the OLED point to it."""
        squares = self._occ ^ toward
        if squares and (self._mismatch is None or self._mismatch[0] != squares):
            self._waiting = None
            self._mismatch = (squares, toward)
            self._emit(t, mismatch=[square_name(sq) for sq in sorted(squares)])

    def _part_way(self, t: float, seat: str) -> None:
        """The mat is a turn part-way (a Wind Spirit card's pawn step with its Spirit step to
        come, or a capture whose captured piece may be set down for a moment): ``seat``'s
        hands are at work."""
        if self._mismatch is not None:
            self._mismatch = None
            self._emit(t, synced=True)
        if self._question is None and self._waiting != seat:
            self._waiting = seat
            self._emit(t, waiting={"seat": seat})

    def _unexplained(self, t: float, nodes: list[Node]) -> None:
        """No history leaves the mat: a piece in the hand, a turn part-way, or out of sync."""
        # The histories the mat last rested in come first: a question left open keeps them.
        known = set(self._explained)   # (nodes hash by identity)
        nodes = self._explained + [n for n in nodes if n not in known]
        state = unfinished(self._tree, nodes, self._maps.maps, self._occ, self._lifted(),
                           self._halves)
        if state == "held":
            self._held(t)
            return
        occ = self._occ
        fits = [n for n in nodes if n.occupancy == occ]
        fit = board_fit(fits, self._record.moves_open(),
                        t >= self._changed_at + KEEP_S, self._explained)
        if fit is not None:
            # The mat is one legal history's board, though no way the hands went that the
            # maps kept leads there: the pieces are read from the board.
            self._maps = PieceMaps(fit.pieces, t, self.clear, fit.taken, untimed(fit.paths),
                                   self._maps.laid)
            self._expect()
            self._rest(t)
            return
        if fits and self._aside is None and t < self._changed_at + KEEP_S:
            self._aside = self._changed_at + KEEP_S   # the mat is read again then
        if state is not None and self._mismatch is None:
            if self._question is None and state != self._waiting:
                self._waiting = state
                self._emit(t, waiting={"seat": state})
            return
        if self._record.board.is_game_over():
            return  # after the game the pawns leave the mat: nothing to sync with
        toward = nearest(self._occ, self._record.position.occupied(), nodes)
        squares = self._occ ^ toward
        self._waiting = None
        if self._mismatch is None or self._mismatch[0] != squares:
            self._cancel_question(t)
            self._mismatch = (squares, toward)
            self._emit(t, mismatch=[square_name(sq) for sq in sorted(squares)])

    # -- publishing ------------------------------------------------------------------------

    def _publish(self, found: list[Node], t: float, shown: float | None = None,
                 doubted: tuple[Node, ...] = ()) -> None:
        """Publish what every history agrees on; ask about the first turn they do not
        (``doubted``: histories to keep growing if a turn is published, see ``_doubted``)."""
        record = self._record
        opened = record.moves_open()
        found = one_game(found, opened)
        paths = [n.moves for n in found]
        unique = len(set(paths)) == 1
        # (The turns they agree on are published at once, a round trip after them too.)
        common = common_prefix(paths)
        extends = common > len(opened) and all(p[:len(opened)] == opened for p in paths)
        published = extends or (unique and paths[0] != opened) or amends_back(paths, common, record)
        # The other player's Spirit moved straight back along a Wind card turn's Spirit step
        # is also that turn taken back Spirit first, its pawn not yet (cause 10): the reply
        # is published, but the turn it would undo stays open, so the pawn's return can
        # still take both back.
        undone = published and spirit_put_back(found, opened)
        # (Or the turns every reading of a published turn asked about makes after it.)
        chosen = publication(found, paths, opened, common, published, self._asked())
        if chosen is not None:
            lead, ways, upto = chosen
            # (Not at the mat's last change if a round trip after them is asked about: the
            # turns after them are read from the lifts made since they were shown.)
            shown = shown_then(self._tree, ways, opened, upto, (self._rested, self._lifts),
                               self._shown_at, shown)
            # (Not after the hands went on from them, whichever way they did.)
            shown = before_next(ways, upto, self._lifts, self._shown_at, shown,
                                self._changed_at)
            record.hold_for_answer(self._heard.back_offered(self._question, opened,
                                                            agreement(ways[0], opened), upto))
            self._published(lead, upto, opened, t, shown)
            self._doubted = list(doubted)
            opened = record.moves_open()
        if not unique:
            self._ask_apart(found, common, opened, t)
            return
        if self._question is not None and not self._passing:
            if published:
                self._question = None    # the hands settled it
            else:
                self._cancel_question(t)  # the mat went back
        # The last turn stays open, a winning one too: its mover's hands may still amend it
        # (the win is then taken back, as any published turn is); both turns of a pair do.
        self._stand(record.standing(len(record.open) - 1 - int(undone or record.pair)), t)
        self._check_pass(t)

    def _ask_apart(self, found: list[Node], common: int, opened: tuple[Move, ...],
                   t: float) -> None:
        """Histories that agree on ``common`` turns: ask about the first they do not."""
        # The published moves every history keeps, but the last, stand (a question left
        # open must not keep the anchor, and the tree grown from it, turns behind).
        n = self._record.standing(agreement(found[0].moves[:common], opened) - 1)
        if n > 0:
            self._explained = found
            self._stand(n, t)
            found, common, opened = self._explained, common - n, opened[n:]
        takeback = str(opened[common]) if common < len(opened) else None
        q = ask_apart(found, common, len(opened), self._record.position.turn, takeback,
                      self._asked(), self._heard.open)
        if q is not None:
            self._raise(q, t)

    def _published(self, node: Node, common: int, opened: tuple[Move, ...], t: float,
                   shown: float | None) -> None:
        """Publish the first ``common`` turns of ``node`` (``opened`` were published)."""
        kept = agreement(node.moves[:common], opened)
        if not kept:   # (the turns from the anchor come after its takeback)
            self._since = taken_back_at(self._tree, opened, self._shown, self._rested, self._since)
        self._shown = shown_after(self._tree, node.moves[:common], opened, kept, self._shown,
                                  self._lifts, shown if shown is not None else self._changed_at,
                                  self._moment)
        # What was said of a turn taken back was said of hands that are gone.
        self._heard.taken_back(common, len(opened))
        pair = paired(self._tree, node.moves[:common], opened, kept, self._rested, shown)
        for event in self._record.publish(node.steps[:common], t, pair):
            self._put(t, event)
        self._shown_at = shown if shown is not None else self._changed_at
        self._expect()
        # The hands took turns back: what the players said about them was about hands
        # that are gone (an amendment keeps its turn, and what was said of it).
        self._rejected = [r for r in self._rejected if len(r) <= common]
        self._named = [(p, c) for p, c in self._named if len(p) < common]
        self._version += 1
        self._doubted, self._chain = [], []
        self._fast.clear()
        self._snatch = None
        self._starts.clear()
        self._started = {}

    def _release(self, t: float) -> None:
        """The mat changed: turns held open for an answer stand, and the open question is
        asked again from the anchor now (:func:`.explaining.asked_again`)."""
        n = self._record.release()
        self._stand(n, t)
        common = asked_again(n, self._question, self._passing, self._explained)
        if common is not None:
            self._ask_apart(self._explained, common, self._record.moves_open(), t)

    def _expect(self) -> None:
        """The labels the maps are ranked by (see :func:`.explaining.expected`)."""
        self._maps.expected = expected(self._tree, self._record)

    def _stand(self, n: int, t: float) -> None:
        """The first ``n`` open moves stand: the anchor moves past them, and what they took
        off is off for good."""
        if n <= 0:
            return
        done = tuple(move_of(r) for r in self._record.advance(n))
        bury(self._tree, self._maps, done)
        self._tree.stop()
        old, self._tree = self._tree, Tree(self._record.anchor(), self._engine, self._known)
        self._explained = refollow(old, self._tree, self._explained, done)
        self._doubted = refollow(old, self._tree, self._doubted, done)
        self._chain = refollow(old, self._tree, self._chain, done)
        self._rejected = [r[n:] for r in self._rejected if r[:n] == done and len(r) > n]
        self._named = [(p[n:], c) for p, c in self._named if p[:n] == done and len(p) >= n]
        # The hands of the moves that stand are done: their lifts are no one's now.
        cuts = [self._cut] + self._shown[:n]
        cut, self._shown = self._shown[n - 1], self._shown[n:]
        # A history's steps land after the mat showed the move before the anchor's (that of
        # the anchor's own may be the time of a late answer, after the next hands moved).
        self._since, self._cut = max(self._since, cuts[-2]), max(self._cut, cut)
        self._lifts = [(t0, sq) for t0, sq in self._lifts if t0 > cut]
        self._heard.stand()
        self._rested = [(t0, occ) for t0, occ in self._rested if t0 > cut]
        self._maps.forget(cut)

    def _check_pass(self, t: float) -> None:
        """No legal move on the mat: ask at once which card goes."""
        moves = self._tree.moves_from(self._record.position)
        if moves.must_pass and not self._record.board.is_game_over():
            self._passing = True
            self._question = None
            self._raise_pass(t, [m.card for m in moves.moves])

    # -- questions ---------------------------------------------------------------------------

    def _raise(self, q: Question, t: float) -> None:
        """Ask ``q`` (shown again only if its prompt changed). A phone answer kept for the
        turn it asks about, after the same turns, answers it at once (``heard``)."""
        self._waiting = None
        q = self._heard.asked(q)
        if self._question is None or q.prompt != self._question.prompt:
            self._emit(t, prompt=q.prompt)
        self._question = q
        key = self._heard.take(q) if not self._passing else None
        if key is not None:
            self._choose(key, t)   # what the player said of that turn, before it was asked

    def _raise_pass(self, t: float, cards: list[str]) -> None:
        """Ask which of ``cards`` the player to move gives up: no move of theirs is legal."""
        pos = self._record.position
        self._question = pass_question(pos.turn, pos.hands[pos.turn], cards, self._heard.next)
        self._emit(t, prompt=self._question.prompt)

    def _asked(self) -> Question | None:
        """The question open, but for which card to give up (it asks of no history)."""
        return None if self._passing else self._question

    def _cancel_question(self, t: float) -> None:
        if self._question is not None and not self._passing:
            self._emit(t, prompt_cancelled={"seat": self._question.prompt["seat"]})
            self._question = None

    def _choose(self, key: str, t: float, late: Question | None = None) -> None:
        """Answer ``key`` to the open question, or to ``late``: one the mat no longer shows,
        asked from the anchor it is at (``heard``); the open question then stands until the
        histories the answer keeps settle it (``_publish``)."""
        q = late or self._question
        if late is None:
            self._question = None
        assert q is not None
        if self._passing:
            self._passing = False
            move = next(m for m in self._tree.moves_from(self._record.position).moves if m.card == key)
            for event in self._record.pass_turn(move):
                self._put(t, event)
            self._shown, self._named = [], []
            self._restart(t)
            return
        kept, (self._rejected, self._named), again = answered(q, key, self._explained,
                                                             self._rejected, self._named,
                                                             self._tree.moves_from)
        back = answered_late(q, key, self._tree, self._record.moves_open(), self._shown,
                             self._rested)
        if back is not None:
            # (The takeback published as of its rest; the hands since are read afresh, and the
            # histories it keeps grow on: they may be more turns deep than the anchor's tree.)
            self._explained = [self._tree.root]
            self._publish(self._explained, t, back)
            self._explained += kept
            if self._evaluated:
                self._rest(t, again=True)
        elif again and self._evaluated:
            self._rest(t, again=True)   # (the turn made in place of one taken back)
        elif kept:
            self._explained = kept
            self._stand(proved(q, key, self._heard), t)   # (before it is published)
            # (As the mat last changed: read at no rest, what it publishes is no pair.)
            self._publish(self._explained, t, self._changed_at)

    def _restart(self, t: float) -> None:
        """The anchor is the position now (after a pass)."""
        self._tree.stop()
        self._tree = Tree(self._record.board, self._engine, self._known)
        self._since = self._cut = t
        self._explained, self._doubted, self._chain, self._snatch = [], [], [], None
        self._heard.stand()
        self._expect()
        self._version += 1
        self._check_pass(t)

    def _emit(self, t: float, **event: object) -> None:
        self._out.append({"t": round(t, 3), **event})  # type: ignore[typeddict-item]

    def _put(self, t: float, event: MatEvent) -> None:
        self._out.append({"t": round(t, 3), **event})

    def _drain(self) -> list[MatEvent]:
        out, self._out = self._out, []
        return out

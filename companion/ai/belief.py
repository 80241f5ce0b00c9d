"""Where the enemy's hidden Ninjas can be, from what a seat has seen.

The belief is the exact set of the enemy's possible Ninja placements (a placement: the
squares of all its living Ninjas, sorted), read from the public record in the seat's view:
the start, then turn by turn. The reading of the finished turns is a fold over the record, so
the belief of the seat's next decision reads on from the last one's (``after``) over the new
turns only, and is read from the start only when the record is not an extension of the one
seen then (a takeback, a restart, another game). After an enemy turn every placement grows
by the card's reach (the Ninja stepped or not); it shrinks on squares the seat's own pawns
entered without a capture, on squares where a pawn stands (a Ninja never shares a square
with a pawn: landing on one is a capture), on Lantern answers, strikes, captures and
reveals. It never uses what the seat cannot know: its input is a
:class:`~companion.ai.view.SeatView`.

Way of the Shadow has one Ninja a side (at most 25 placements), Way of the Light two for the
Shadow Master (at most 300 pairs), so the exact set is small.

Each placement carries a weight (``odds``): 1 each under the set's reading, else a filter
of the record by a model of the enemy's choices (:mod:`companion.ai.odds`, the Light
Master's only). The weights come from the public record only, as the set does; the support
is the set.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import KeysView

from companion.rules.cards import CardTable
from companion.rules.engine import Engine
from companion.rules.position import BLUE, COLORS, Position, parse_position
from companion.rules.shadow import LIGHT_BOARD, SHADOW_BOARD
from companion.rules.squares import FILE_NAMES, RANK_NAMES, parse_square

from .odds import LIGHT_MODEL, MODELS, Odds, Placement, add, enemy_hands, normalized, rescale, spare, steps
from .view import SeatView


@lru_cache(maxsize=4)
def engine_for(cards: CardTable) -> Engine:
    """One move generator per card table: a belief is read afresh for every decision (and
    the enemy's for every reply modelled), and building the tables of every card each time
    was a third of a decision's time."""
    return Engine(cards)


@dataclass
class PublicBoard:
    """The pawns as the public record tells them, turn by turn."""
    pawns: list[int]
    masters: list[int]

    def move(self, c: int, f: int, t: int) -> None:
        e = 1 - c
        self.pawns[c] ^= (1 << f) | (1 << t)
        if self.masters[c] == f:
            self.masters[c] = t
        self.remove(e, t)

    def remove(self, c: int, sq: int) -> None:
        if self.pawns[c] >> sq & 1:
            self.pawns[c] &= ~(1 << sq)
            if self.masters[c] == sq:
                self.masters[c] = -1

    @property
    def all(self) -> int:
        return self.pawns[0] | self.pawns[1]


def _is_step(token: str) -> bool:
    """A pawn's step like ``c1c3`` (not ``pass``, ``N?c3``, ``S?c3+``, ``xN``, ``L3+``)."""
    return len(token) == 4 and token[0] in FILE_NAMES and token[2] in FILE_NAMES


def _line(token: str) -> int:
    """The squares of a Lantern token ``L3+`` / ``Lc-`` as a mask."""
    ch = token[1]
    if ch in RANK_NAMES:
        r = RANK_NAMES.index(ch)
        return sum(1 << (r * 5 + f) for f in range(5))
    f = FILE_NAMES.index(ch.lower())
    return sum(1 << (r * 5 + f) for r in range(5))


def start_board(mode: str, light: int | None) -> PublicBoard:
    """The pawns at the start of a game of ``mode`` (Way of the Light: ``light``'s)."""
    if mode == "shadow":
        text = SHADOW_BOARD
    else:
        assert light is not None, "Way of the Light: the view names the Light Master's colour"
        text = LIGHT_BOARD[light]
    pos = parse_position(f"{text} red Ox,Boar Horse,Elephant Crab")
    return PublicBoard([pos.red, pos.blue], [pos.red_master, pos.blue_master])


class Belief:
    """The enemy's possible Ninja placements for ``view``'s seat. ``enemy_has_ninjas`` is
    False when the enemy plays without Ninjas (the Light Master, seen from the Shadow
    Master's seat); a placement is ``()`` once all its Ninjas are captured."""

    def __init__(self, view: SeatView, cards: CardTable | None = None, *, after: "Belief | None" = None,
                 model: str | None = None):
        self.view = view
        self.cards = cards or view.cards()
        self.engine = engine_for(self.cards)
        self.me = view.color
        self.enemy = 1 - self.me
        light = None if view.light is None else COLORS.index(view.light)
        self.light = light
        self.enemy_has_ninjas = view.mode == "shadow" or (light is not None and self.enemy != light)
        self.board = start_board(view.mode, light)
        # The model weighs the Light Master's belief only (``LIGHT_MODEL`` unless given).
        self.model_name = (model or LIGHT_MODEL) if view.mode == "light" and self.enemy_has_ninjas else "set"
        self.model = MODELS[self.model_name]
        self.weighted = self.model != MODELS["set"]     # else every weight is 1
        self.odds: Odds = {}
        self._hands: dict[int, tuple[str, ...]] | None = None
        # The finished turns read so far: (the record read, the placements and the board
        # after it), before the turn in progress is read into them.
        self.folded: tuple[tuple[str, ...], Odds, PublicBoard] | None = None
        if self.enemy_has_ninjas:
            self.odds = self._initial()
            if view.phase != "setup":
                self._replay(self._read_on(after))

    @property
    def placements(self) -> KeysView[Placement]:
        """The placements the record leaves possible (those with a weight)."""
        return self.odds.keys()

    def weights(self, places: list[Placement]) -> list[float] | None:
        """The weights of ``places`` (the belief's placements) summing to 1; None under the
        set (each as likely: the callers count)."""
        return normalized(self.odds, places) if self.weighted else None

    def _game(self) -> tuple[str, int, int | None, int, str]:
        """What the reading of a record depends on besides the record."""
        return self.view.mode, self.me, self.light, id(self.cards), self.model_name

    def _read_on(self, after: "Belief | None") -> int:
        """Start from ``after``'s reading of the finished turns when this view's record
        extends it: how many turns of the record are read already."""
        if after is None or after.folded is None or after._game() != self._game():
            return 0
        log, odds, board = after.folded
        if self.view.log[:len(log)] != log:
            return 0
        self.odds = odds
        self.board = PublicBoard(list(board.pawns), list(board.masters))
        return len(log)

    # -- the start -------------------------------------------------------------------------

    def _initial(self) -> Odds:
        e = self.enemy
        if self.view.mode == "shadow":
            m = self.board.masters[e]
            return {(m + d,): 1.0 for d in (-1, 1) if 0 <= m % 5 + d < 5 and not self.board.all >> (m + d) & 1}
        back = range(20, 25) if e == BLUE else range(0, 5)
        return {p: 1.0 for p in combinations(back, 2)}

    # -- replaying the record --------------------------------------------------------------

    def _mover(self, k: int) -> int:
        """Who made turn ``k``: turns alternate, and the view says whose turn it is now."""
        view = self.view
        now = COLORS.index(view.to_act[0]) if view.to_act else self.me
        return now if (len(view.log) - k) % 2 == 0 else 1 - now

    def _replay(self, start: int) -> None:
        for k in range(start, len(self.view.log)):
            tokens = self.view.log[k].split()
            if not tokens:
                continue
            mover = self._mover(k)
            if mover == self.enemy:
                self._spare(k)
                self._enemy_turn(tokens)
                self._rescale()
            else:
                self._own_turn(tokens)
            self._no_pawn_squares()
        # The maps are never changed in place (each step makes a new one): kept as they are.
        self.folded = (self.view.log, self.odds,
                       PublicBoard(list(self.board.pawns), list(self.board.masters)))
        self._in_progress()
        self._revealed()

    def _enemy_turn(self, tokens: list[str]) -> None:
        e = self.enemy
        card = self.cards[tokens[0]].name
        board = self.board
        rest = tokens[1:]
        if self.view.mode == "light":
            # The Shadow Master moves one Ninja ("N?"), captures with one ("N?c3"), or passes
            # (written like a quiet step) when no Ninja can move.
            step = rest[0]
            if len(step) == 4:
                sq = parse_square(step[2:])
                self.odds = self._stepped_to(card, sq)
                board.remove(self.me, sq)
            else:
                self.odds = self._quiet(card, must_move=True)
            return
        i = 0
        if rest and _is_step(rest[0]):
            f, t = parse_square(rest[0][:2]), parse_square(rest[0][2:])
            # A pawn never lands on its own Ninja.
            self.odds = {p: w for p, w in self.odds.items() if t not in p}
            board.move(e, f, t)
            i = 1
        elif rest and rest[0] == "pass":
            i = 1
        if i < len(rest) and rest[i] == "xN":
            i += 1          # the enemy's pawn took the seat's own Ninja: nothing about theirs
        if not self.odds:
            return
        if i < len(rest) and rest[i].startswith("N?"):
            sq = parse_square(rest[i][2:4])
            board.remove(self.me, sq)
            self.odds = self._stepped_to(card, sq)
        elif i < len(rest) and rest[i].startswith("S?"):
            sq = parse_square(rest[i][2:4])
            self.odds = self._stepped_to(card, sq)
        else:
            self.odds = self._quiet(card, must_move=False)

    def _own_turn(self, tokens: list[str]) -> None:
        rest = tokens[1:]
        for token in rest[self._own_step(rest):]:
            self._own_report(token)

    def _own_step(self, rest: list[str]) -> int:
        """The seat's own main step (a pawn's move, a pass, a Ninja striking): how many tokens
        it took."""
        if rest and _is_step(rest[0]):
            t = parse_square(rest[0][2:])
            self.board.move(self.me, parse_square(rest[0][:2]), t)
            struck = len(rest) > 1 and rest[1] == "xN"     # the pawn landed on a Ninja
            self._found(t, struck)
            return 2 if struck else 1
        if rest and (rest[0] == "pass" or rest[0].startswith("N?")):
            if len(rest[0]) == 4 and rest[0].startswith("N?"):
                self.board.remove(self.enemy, parse_square(rest[0][2:]))
            return 1
        return 0

    def _own_report(self, token: str) -> None:
        """What a token after the main step tells: a Ninja's capture, a strike's answer, a
        Lantern's."""
        if token.startswith("N?") and len(token) == 4:
            self.board.remove(self.enemy, parse_square(token[2:]))
        elif token.startswith("S?"):
            self._found(parse_square(token[2:4]), token.endswith("+"))
        elif token.startswith("L"):
            line = _line(token)
            yes = token.endswith("+")
            self.odds = {p: w for p, w in self.odds.items() if any(line >> s & 1 for s in p) == yes}

    def _found(self, sq: int, hit: bool) -> None:
        """An enemy Ninja was found on ``sq`` (and is gone), or none stood there."""
        if hit:
            self.odds = {tuple(s for s in p if s != sq): w for p, w in self.odds.items() if sq in p}
        else:
            self.odds = {p: w for p, w in self.odds.items() if sq not in p}

    def _stepped_to(self, card: str, sq: int) -> Odds:
        """Placements after one enemy Ninja stepped to ``sq`` with ``card`` (read before the
        board loses what stood on ``sq``)."""
        reach = self.engine.table(card)[self.enemy].student_mask
        out: Odds = {}
        for p, w in self.odds.items():
            if sq in p:
                continue
            for n, t, share in steps(self.model, reach, p, self.board.masters[self.me]):
                if t == sq:
                    add(out, self.model, tuple(sorted(sq if s == n else s for s in p)), w * share)
        return out

    def _quiet(self, card: str, *, must_move: bool, capture: bool = False) -> Odds:
        """After a turn where an enemy Ninja may have stepped without capturing: onto a
        square without pawns, not onto its fellow Ninja. ``must_move`` (the Shadow Master's
        turn): the placement stays as it was only if no Ninja could step with this card.
        ``capture``: the step may also have taken a pawn (the record of it is not in yet).
        Weighted, a placement's steps that would have taken a pawn take their share away
        (the turn was seen to be quiet); a placement that may stay keeps its weight."""
        reach = self.engine.table(card)[self.enemy].student_mask
        pawns = self.board.all
        out: Odds = {}
        for p, w in self.odds.items():
            moves = steps(self.model, reach, p, self.board.masters[self.me])
            for n, t, share in moves:
                if capture or not pawns >> t & 1:
                    add(out, self.model, tuple(sorted(t if s == n else s for s in p)), w * share)
            if not must_move or not moves:
                add(out, self.model, p, w)
        return out

    def _spare(self, k: int) -> None:
        """Before the enemy's turn ``k`` (Way of the Light): the enemy did not take the
        master (the game goes on), which a weighted model may weigh (:func:`spare`)."""
        if self.model.spared < 1.0 and self.view.mode == "light":
            if self._hands is None:
                self._hands = enemy_hands(self.view, self.cards, self.enemy, self._mover)
            self.odds = spare(self.odds, self.model, self.engine, self._hands.get(k, ()), self.enemy,
                              self.board.masters[self.me])

    def _rescale(self) -> None:
        self.odds = rescale(self.odds) if self.weighted else self.odds

    def _no_pawn_squares(self) -> None:
        pawns = self.board.all
        self.odds = {p: w for p, w in self.odds.items() if not any(pawns >> s & 1 for s in p)}

    def _in_progress(self) -> None:
        """The turn in progress (its Ninja or Lantern step), which the record does not hold
        yet: where the mover's pawn went, and on the enemy's turn its Ninja's step."""
        pos = self.view.board()
        mover = COLORS.index(self.view.to_act[0]) if self.view.to_act else self.me
        if mover == self.enemy:
            self._enemy_in_progress(pos)
        else:
            self._own_in_progress(pos)
            self.board = PublicBoard([pos.red, pos.blue], [pos.red_master, pos.blue_master])
        self._no_pawn_squares()

    def _enemy_in_progress(self, pos: Position) -> None:
        entered = pos.pawns(self.enemy) & ~self.board.pawns[self.enemy]
        self.odds = {p: w for p, w in self.odds.items() if not any(entered >> s & 1 for s in p)}
        self.board = PublicBoard([pos.red, pos.blue], [pos.red_master, pos.blue_master])
        if self.view.phase == "lantern" and self.view.mode == "shadow":
            # The Ninja step is over and the card exchanged: the played card lies beside.
            self.odds = self._quiet(pos.side[0], must_move=False, capture=True)

    def _own_in_progress(self, pos: Position) -> None:
        entered = pos.pawns(self.me) & ~self.board.pawns[self.me]
        info = self.view.ninja_info(COLORS[self.enemy])
        alive = info.alive if info is not None else 0
        before = max((len(p) for p in self.odds), default=0)
        for sq in range(25):
            if entered >> sq & 1:
                hit = {tuple(s for s in p if s != sq): w for p, w in self.odds.items() if sq in p}
                missed = {p: w for p, w in self.odds.items() if sq not in p}
                # Fewer Ninjas now: the pawn took one there, or the seat's strike hit one.
                self.odds = (hit | missed) if alive < before else missed
        # A Ninja fell this turn where the record does not say yet: any one of them.
        out: Odds = {}
        for p, w in self.odds.items():
            fallen = list(combinations(p, alive)) if len(p) > alive else [p]
            for q in fallen:
                add(out, self.model, q, w / len(fallen) if self.model.split else w)
        self.odds = out

    def _revealed(self) -> None:
        info = self.view.ninja_info(COLORS[self.enemy])
        if info is None:
            return
        for sq in info.revealed:
            self.odds = {p: w for p, w in self.odds.items() if sq in p}

    # -- the enemy's side of it -------------------------------------------------------------

    @classmethod
    def held_by_enemy(cls, view: SeatView, cards: CardTable | None = None, *,
                      after: "Belief | None" = None) -> "Belief":
        """What the enemy can know of this seat's own Ninjas: the same reading of the
        public record, from the enemy's seat (its view shares every public field with this
        one; the seat's own Ninja squares are left out); read on from ``after``, the last
        such reading, as ``Belief`` is."""
        enemy_seat = COLORS[1 - view.color]
        return cls(replace(view, seat=enemy_seat, own_ninjas=(), legal=()), cards, after=after)

    def after_enemy_turn(self, card: str, revealed: int | None = None) -> set[Placement]:
        """The placements once the enemy's turn in progress ends with ``card``: its Ninja
        stepped (Way of the Light: one of them, if any could) or not, or one stepped to
        ``revealed`` where everyone saw it (a capture or a strike)."""
        if revealed is not None:
            return set(self._stepped_to(card, revealed))
        return set(self._quiet(card, must_move=self.view.mode == "light"))

    # -- questions -------------------------------------------------------------------------

    def squares(self) -> set[int]:
        """Every square where some enemy Ninja may stand."""
        return {s for p in self.odds for s in p}

    def per_ninja(self) -> list[set[int]]:
        """For each hidden enemy Ninja (in square order within a placement), its squares."""
        if not self.odds:
            return []
        n = max(len(p) for p in self.odds)
        return [{p[i] for p in self.odds if len(p) > i} for i in range(n)]

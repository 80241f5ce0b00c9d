"""The ambushes the seat's master can walk into over the enemy's next two turns.

The sampled worlds of :mod:`companion.ai.hidden` are searched two turns deep, and in each of
them the seat's own next turn is played knowing where the enemy's Ninjas stand. So they miss
what decides most losses of the Light Master: an enemy who sees everything steps a hidden
Ninja, on its first turn, to where the seat's master will stand after the seat's blind reply,
and takes it on its second. The seat only ever learns the enemy's card, so its reply is one
choice for every placement that card leaves possible.

:class:`Ambush` counts this over the whole belief, exactly, for each action of the seat: the
share of the enemy's placements from which, whatever the seat then does knowing only the
enemy's card, a Ninja takes the master on the enemy's second turn. The seat's reply is taken
to be the master's least exposed square among those it can reach (or keeps) with its next
hand, judged on the belief it will then hold, as :class:`~companion.ai.hidden.Strata` judges
it now; the enemy is taken to foresee it. The first turn's own exposure is not counted here
(Strata counts it).

Every input is the seat's: its view's board and the placements of its belief (read from its
public record).
"""

from __future__ import annotations

from companion.rules.actions import Action
from companion.rules.engine import Engine
from companion.rules.moves import Move
from companion.rules.position import TEMPLE

from .view import SeatView


class Ambush:
    """``share(action)``: the seat's risk of losing its master at the enemy's second turn."""

    def __init__(self, view: SeatView, places: list[tuple[int, ...]], engine: Engine):
        pos = view.board()
        c = view.color
        e = 1 - c
        self.engine = engine
        self.c, self.e = c, e
        self.master = pos.red_master if c == 0 else pos.blue_master
        self.own = pos.pawns(c)
        self.pawns = pos.red | pos.blue
        self.hand = tuple(pos.hands[c])
        self.enemy_hand = tuple(pos.hands[e])
        self.side = pos.side[0]
        self.temple = TEMPLE[e]
        self.must_move = view.mode == "light"
        self.placements = [sum(1 << s for s in p) for p in places]
        self._attack: dict[tuple[int, tuple[str, ...]], int] = {}
        self._steps: dict[str, list[tuple[int, list[int]]]] = {}
        self._by_key: dict[tuple[int, str, int], float] = {}

    # -- the pieces ------------------------------------------------------------------------

    def attack(self, square: int, cards: tuple[str, ...]) -> int:
        """The squares from which an enemy Ninja steps onto ``square`` with one of ``cards``."""
        key = (square, cards)
        found = self._attack.get(key)
        if found is None:
            found = 0
            for card in cards:
                reach = self.engine.table(card)[self.e].student_mask
                found |= sum(1 << f for f in range(25) if reach[f] >> square & 1)
            self._attack[key] = found
        return found

    def steps(self, card: str) -> list[tuple[int, list[int]]]:
        """For each placement (a mask), the placements after the enemy's quiet turn with
        ``card``: a Ninja stepped onto a square without pawns, or (Way of the Shadow, or when
        none can step) none did."""
        found = self._steps.get(card)
        if found is None:
            reach = self.engine.table(card)[self.e].student_mask
            found = []
            for pm in self.placements:
                after = []
                m = pm
                while m:
                    b = m & -m
                    m ^= b
                    targets = reach[b.bit_length() - 1] & ~self.pawns & ~pm
                    while targets:
                        t = targets & -targets
                        targets ^= t
                        after.append(pm ^ b ^ t)
                if not self.must_move or not after:
                    after.append(pm)
                found.append((pm, after))
            self._steps[card] = found
        return found

    def master_squares(self, master: int, hand: tuple[str, ...], own: int) -> list[int]:
        """Where the seat's master can stand after its next turn: where it is, or a step with
        a card of ``hand`` onto a square without its own pawns."""
        out = [master]
        for card in hand:
            m = self.engine.table(card)[self.c].master_mask[master] & ~own
            while m:
                b = m & -m
                m ^= b
                sq = b.bit_length() - 1
                if sq not in out:
                    out.append(sq)
        return out

    # -- the count -------------------------------------------------------------------------

    def share(self, action: Action) -> float:
        """For a pawn move (or a pass) of the seat: the share of the belief's placements that
        take its master at the enemy's second turn and not at the first. Other actions (a
        Ninja's step, a strike, a Lantern) do not move the master: 0."""
        if not self.placements or self.master < 0 or not isinstance(action, Move):
            return 0.0
        master, landed, own = self.master, -1, self.own
        if not action.is_pass and action.from_sq is not None and action.to_sq is not None:
            landed = action.to_sq
            own = own ^ (1 << action.from_sq) ^ (1 << landed)
            if action.from_sq == master:
                master = landed
        if master == self.temple:
            return 0.0
        key = (master, action.card, landed)
        found = self._by_key.get(key)
        if found is None:
            found = self._by_key[key] = self._count(master, action.card, landed, own)
        return found

    def _count(self, master: int, card: str, landed: int, own: int) -> float:
        keep = ~(1 << landed) if landed >= 0 else -1
        first = self.attack(master, self.enemy_hand) & keep
        hand = tuple(self.side if h == card else h for h in self.hand)
        squares = self.master_squares(master, hand, own)
        if self.temple in squares:
            return 0.0          # the master enters the Temple on the seat's next turn
        lost = 0
        survivors = {pm for pm in self.placements if not pm & first}
        for k in self.enemy_hand:
            cards = tuple(card if h == k else h for h in self.enemy_hand)
            reach: dict[int, int] = {}
            after: set[int] = set()
            for pm, nexts in self.steps(k):
                if pm in survivors:
                    # A Ninja on the pawn's landing square was taken by it.
                    u = 0
                    for q in nexts:
                        q &= keep
                        after.add(q)
                        u |= q
                    reach[pm] = reach.get(pm, 0) | u
            target = self._blind_square(squares, cards, after)
            danger = self.attack(target, cards)
            lost_k = {pm for pm, u in reach.items() if u & danger}
            survivors -= lost_k
            lost += len(lost_k)
        return lost / len(self.placements)

    def _blind_square(self, squares: list[int], cards: tuple[str, ...], after: set[int]) -> int:
        """The master's square the seat picks knowing only the enemy's card: the one the
        fewest of ``after`` (its belief then) can reach with ``cards``; where it stands when
        that ties."""
        best, fewest = squares[0], len(after) + 1
        for sq in squares:
            danger = self.attack(sq, cards)
            n = sum(1 for pm in after if pm & danger)
            if n < fewest:
                best, fewest = sq, n
        return best

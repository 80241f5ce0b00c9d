"""Questions as filters. When the cheapest histories disagree, the players are asked; the hands
go on being read meanwhile, and an answer, however late, keeps the histories that agree with it.

A question is about one place in the histories, ``depth`` turns after the anchor:
- *which card* (and *whose step*, when the two seats' turns differ there): each history's turn
  at ``depth``, by its mover and card;
- otherwise (*move or takeback*, *whose step* when the same card could have gone on): each
  history's last turn by its mover and card, or ``takeback`` when a history ends before
  ``depth``'s published move.
Its options are named as the players answer them: a card name, or ``takeback``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..rules.moves import Move
from ..rules.position import COLORS, Position
from .events import Prompt
from .histories import Node

STEP, LAST = "step", "last"
TAKEBACK = "takeback"


@dataclass(frozen=True)
class Question:
    depth: int
    mode: str
    prompt: Prompt
    seats: dict[str, int]                 # option -> the seat that answers it
    squares: frozenset[int]               # the squares of the turns in question
    # Each option's histories as they were when asked: up to the turn asked about (which
    # card), or whole. An answer keeps the histories that go on from its own, however many
    # turns the hands have played since.
    prefixes: dict[str, frozenset[tuple[Move, ...]]]
    number: int = 0   # the turn asked about (at ``depth``), numbered from the mat's first

    def keeps(self, nodes: list[Node], key: str) -> list[Node]:
        mine = self.prefixes.get(key, frozenset())
        others = [p for k, ps in self.prefixes.items() if k != key for p in ps]
        return [n for n in nodes if _best(n.moves, mine) > _best(n.moves, others)]

    def turns_of(self, key: str) -> set[int]:
        """The numbers of the turns answer ``key`` says something of: the turn asked about
        (``number``), or for a card that ends a history longer than that (a reply, in a move
        or takeback or whose step question), that history's last turn."""
        if self.mode != LAST or key == TAKEBACK or not self.prefixes.get(key):
            return {self.number}
        return {self.number - self.depth + len(p) - 1 for p in self.prefixes[key]}

    def ruled_out(self, key: str) -> list[tuple[Move, ...]]:
        """The histories answer ``key`` rules out, each with every history that goes on from
        it (not those that one of ``key``'s own goes on from: a takeback's is shorter)."""
        mine = self.prefixes.get(key, frozenset())
        return sorted({p for k, ps in self.prefixes.items() if k != key for p in ps
                       if not any(q[:len(p)] == p for q in mine)}, key=len)

    def answer_key(self, seat: str, card: str | None, takeback: bool) -> str | None:
        """The option a phone answer picks, if ``seat`` may give it."""
        key = TAKEBACK if takeback else card
        return key if key is not None and key in allowed(self.prompt, seat) else None

    def button_key(self, name: str) -> str | None:
        """The option mat button ``name`` stands for: the prompt's own map (:func:`buttons`),
        which the OLED and the phones show."""
        return next((k for k, b in self.prompt.get("buttons", {}).items() if b == name), None)


Said = tuple[list[tuple[Move, ...]], list[tuple[tuple[Move, ...], str]]]


def unsaid(q: Question | None, rejected: list[tuple[Move, ...]],
           named: list[tuple[tuple[Move, ...], str]]) -> Said:
    """What the players' answers ruled out, and the cards they named, that stand while ``q``
    is open (or once it is answered with the takeback): not what was said of the turn it
    offers to take back, nor of those after it (the turn made in its place is the same
    node of the tree as an amendment of it: no-answer 26, 34)."""
    if q is None or TAKEBACK not in q.prefixes:
        return rejected, named
    return ([r for r in rejected if len(r) <= q.depth],
            [(p, c) for p, c in named if len(p) < q.depth])


def _best(moves: tuple[Move, ...], prefixes: Iterable[tuple[Move, ...]]) -> int:
    """The length of the longest of ``prefixes`` that ``moves`` goes on from (-1: none)."""
    return max((len(p) for p in prefixes if moves[:len(p)] == p), default=-1)


def _key(node: Node, depth: int, mode: str) -> str | None:
    if mode == STEP:
        return node.steps[depth].card if len(node.steps) > depth else None
    if len(node.steps) <= depth:
        return TAKEBACK
    return node.steps[-1].card


def _mover(node: Node, depth: int, mode: str) -> int:
    return node.movers[depth if mode == STEP else -1]


def _hand(node: Node, depth: int, mode: str) -> tuple[str, ...]:
    """The hand of the mover of the turn in question, before it."""
    i = depth if mode == STEP else len(node.steps) - 1
    n: Node | None = node
    for _ in range(len(node.steps) - i):
        assert n is not None
        n = n.parent
    assert n is not None
    return n.position.hands[_mover(node, depth, mode)]


def ask(nodes: list[Node], depth: int, open_moves: int, turn: int,
        takeback: str | None) -> Question | None:
    """The question that tells the histories ``nodes`` apart after their common ``depth``
    turns, or None when no answer could (the hands must). ``open_moves``: published moves
    after the anchor; ``turn``: the player to move now, who answers a takeback."""
    # Turns of one length differ by card (which card); else by who made the last (whose
    # step, move or takeback).
    for mode in (STEP, LAST) if len({len(n.steps) for n in nodes}) == 1 else (LAST, STEP):
        if mode == STEP and any(len(n.steps) <= depth for n in nodes):
            continue
        options = _options(nodes, depth, mode, open_moves, turn, takeback)
        if options is not None:
            return _question(nodes, depth, mode, turn, takeback, *options)
    return None


_Options = tuple[dict[str, list[Node]], dict[str, int], dict[int, tuple[str, ...]],
                 dict[str, set[int]]]


def _options(nodes: list[Node], depth: int, mode: str, open_moves: int, turn: int,
             takeback: str | None) -> _Options | None:
    """The histories grouped by the answer that keeps them (``mode``: by the card of the
    turn at ``depth``, or by who made the last), each answer's seat, and the seats' hands;
    None when some history fits no answer, or one answer would not tell them apart."""
    groups: dict[str, list[Node]] = {}
    seats: dict[str, int] = {}
    hands: dict[int, tuple[str, ...]] = {}
    places: dict[str, set[int]] = {}     # each card's places in its own histories' hands
    for n in nodes:
        key = _key(n, depth, mode)
        if key is None or (key == TAKEBACK and (depth >= open_moves or takeback is None)):
            return None
        seat = turn if key == TAKEBACK else _mover(n, depth, mode)
        if seats.setdefault(key, seat) != seat:
            return None
        groups.setdefault(key, []).append(n)
        if key != TAKEBACK:
            hands.setdefault(seat, _hand(n, depth, mode))
            places.setdefault(key, set()).add(_hand(n, depth, mode).index(key))
    if len(groups) < 2:
        return None
    if mode == STEP and any(len({g.steps[depth].move for g in group}) > 1
                            for group in groups.values()):
        return None   # one card, two turns: the answer would not tell them apart
    return groups, seats, hands, places


def _question(nodes: list[Node], depth: int, mode: str, turn: int, takeback: str | None,
              groups: dict[str, list[Node]], seats: dict[str, int],
              hands: dict[int, tuple[str, ...]], places: dict[str, set[int]]) -> Question:
    """The question for the answers ``groups``: asked first of the seat of the takeback, else
    of the seat whose option is the shortest history."""
    shortest = {seat: min(len(n.steps) for n in nodes if _option_seat(n, seats, depth, mode) == seat)
                for seat in set(seats.values())}
    first = seats[TAKEBACK] if TAKEBACK in seats else min(shortest, key=lambda s: shortest[s])
    hands.setdefault(turn, ())
    squares = frozenset(sq for n in nodes for r in n.steps[depth:] for sq in r.touched)
    prefixes = {key: frozenset(n.moves[:depth + 1] if mode == STEP else n.moves
                               for n in group) for key, group in groups.items()}
    prompt = _prompt(seats, first, takeback, hands)
    prompt["buttons"] = buttons(prompt, {k: p for k, p in places.items() if seats[k] == first})
    return Question(depth, mode, prompt, seats, squares, prefixes)


def _option_seat(node: Node, seats: dict[str, int], depth: int, mode: str) -> int:
    key = _key(node, depth, mode)
    return seats[key] if key is not None else -1


def _prompt(seats: dict[str, int], first: int, takeback: str | None,
            hands: dict[int, tuple[str, ...]]) -> Prompt:
    """``first``'s own cards in hand order, the takeback, then the other seat's cards."""
    def order(seat: int) -> list[str]:
        cards = [k for k, s in seats.items() if s == seat and k != TAKEBACK]
        hand = hands.get(seat, ())
        return sorted(cards, key=lambda c: hand.index(c) if c in hand else len(hand))
    prompt: Prompt = {"seat": COLORS[first], "choose": order(first)}
    if TAKEBACK in seats and takeback is not None:
        prompt["takeback"] = takeback
    others = order(1 - first)
    if others:
        prompt["reply"] = {"seat": COLORS[1 - first], "choose": others}
    return prompt


def pass_question(seat: int, hand: tuple[str, ...], cards: list[str], number: int) -> Question:
    """No legal move: which of ``cards`` ``seat`` gives up, in hand order, each on its button,
    on turn ``number``."""
    prompt: Prompt = {"seat": COLORS[seat], "choose": sorted(cards, key=hand.index)}
    prompt["buttons"] = buttons(prompt, {c: {hand.index(c)} for c in cards})
    return Question(0, "pass", prompt, {c: seat for c in cards}, frozenset(), {}, number)


def buttons(prompt: Prompt, places: dict[str, set[int]]) -> dict[str, str]:
    """The one option -> button map the recognizer, the OLED and the phones read: A or B for
    an asked card at the first or second place of the hand it was played from, in every
    history of it (``places``); none when its place differs between histories or another
    option shares it (each history's hand is its own: in one the seat holds Spider second,
    in another Monkey, wind2 117), so that card is answered on the phone; C for the
    takeback when offered, else for the other seat's one card."""
    taken = Counter(p for ps in places.values() for p in ps)
    out = {card: "AB"[p] for card, ps in places.items() for p in ps
           if len(ps) == 1 and taken[p] == 1 and p < 2}
    reply = prompt["reply"]["choose"] if "reply" in prompt else []
    if "takeback" in prompt:
        out[TAKEBACK] = "C"
    elif len(reply) == 1:
        out[reply[0]] = "C"
    return out


def allowed(prompt: Prompt, seat: str) -> list[str]:
    """What ``seat`` may answer on its phone."""
    if seat == prompt["seat"]:
        return [*prompt["choose"], *([TAKEBACK] if "takeback" in prompt else [])]
    reply = prompt.get("reply")
    if reply is not None and seat == reply["seat"]:
        return list(reply["choose"])
    return []

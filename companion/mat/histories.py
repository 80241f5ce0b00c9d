"""The histories: every legal way the game can have gone on from the anchor, the last point
the recognizer is sure of, and which of them explain a piece map of the mat.

A history is a node of the tree of legal turns from the anchor: the turns (as readings) that
lead to it, the position they reach and the pieces they took off. The tree is grown lazily
and only along turns whose piece left a square the hands really emptied since the anchor, so
a history never needs more lifts than the mat showed. A node explains a piece map when the
map's pieces are the node's and the pieces in the map's air are exactly those taken off
(by the node's turns; pieces taken off by turns that stand are no longer counted).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Generator

from ..rules.board import Board
from ..rules.engine import Engine
from ..rules.cards import CardTable
from ..rules.moves import Move
from ..rules.position import Position
from .pieces import NOW, PieceMap, Pieces
from .sides import ON_ITS_WAY, Sides, filed, sides_of
from .walks import Paths, idle_noise, paths_after, step, walked
from .readings import Reading, occupancy_of, pieces_of, shared
from .emptied import Again
from .growth import MADE, Grower
from .once import once
from .turns import Known, Lifts, Turns

# A growth's Wind Spirit cards' pawn steps: each node's, and (node, step) by the board left.
# (Filed by the board's hash, worked out once per step: see ``Grower.left``.)
Halves = tuple[list[list[tuple[int, int, Move]]], dict[int, list[tuple[int, int, Pieces]]]]

MAX_NODES = 600   # a bound on the tree grown for one explanation
SLACK = 2         # a history may need this much more noise than the likeliest map
ASIDE = 2         # a piece a history took off, standing aside on the mat for a moment
                  # (put down less than ``sides.ASIDE_S`` ago)


@dataclass(frozen=True, eq=False)
class Node:
    """A history from the anchor: its turns, the position they reach, what they took off.
    It hashes by identity (``eq=False``): the tree's caches are keyed by the node itself."""
    steps: tuple[Reading, ...]
    position: Position
    pieces: Pieces
    taken: tuple[str, ...]          # the pieces its turns took off, sorted
    movers: tuple[int, ...]         # who made each turn (0 red, 1 blue)
    parent: "Node | None" = None
    over: bool = False              # the game is won there
    leaves: frozenset[int] = frozenset()  # the squares its last turn lifted a piece off
    emptied: Counter[int] = field(default_factory=Counter)  # how often its turns lift each square
    # A Wind Spirit card's turn part-way: its pawn step is on the mat, its Spirit step is not.
    # Such a history is the last turn's hands still at work, never a turn to publish; its
    # ``parent`` is the history before that turn (its steps are the parent's).
    pending: Move | None = None
    # The squares each piece standing now went along since the anchor (its own, if it stayed),
    # each with the turn that took it there (0: it stood there at the anchor).
    paths: "Paths" = ()

    @once   # (read at every look, over up to MAX_NODES nodes: worked out once)
    def occupancy(self) -> frozenset[int]:
        return occupancy_of(self.pieces)

    @once   # (a look files every node by its board: hashed once, not at each look)
    def board_hash(self) -> int:
        return hash(self.pieces)

    @once
    def moves(self) -> tuple[Move, ...]:
        return tuple(r.move for r in self.steps if r.move is not None)


class Tree:
    """The histories from one anchor, grown lazily; positions' legal turns are cached.
    ``engine`` is the rules' move generator for the game's cards (its card tables are built
    once per game, not per tree)."""

    def __init__(self, board: Board, engine: Engine, known: "Known | None" = None):
        self.cards: CardTable = board.cards
        self._engine = engine
        # The legal turns of positions met before: trees from later anchors meet them again.
        self._moves = known if known is not None else Known()
        pos = board.position
        pieces = pieces_of(pos)
        self.root = Node((), pos, pieces, (), (), None, board.is_game_over(),
                         paths=tuple(((sq, 0, 0),) if p is not None else None
                                     for sq, p in enumerate(pieces)))
        # (Keyed by the node itself, as every cache here that outlives a call: a key holds
        # its node, so no freed node's address, reused, inherits its entry.)
        self._children: dict[Node, dict[Move, Node]] = {}
        # The last grown: its mark, lifts, nodes, and their Wind cards' pawn steps indexed
        # by the board each leaves.
        self._grown: tuple[tuple[object, ...], Lifts, list[Node], Halves] | None = None
        self._growing: tuple[tuple[object, ...], Lifts, Growth] | None = None  # ... going on
        # Each node's turns and Wind cards half made, carried over from look to look.
        self._grower = Grower(self._moves)
        self._winds: dict[tuple[str, ...], bool] = {}   # hands that hold a Wind Spirit card

    def moves_from(self, pos: Position) -> Turns:
        found = self._moves.get(pos)
        if found is None:
            found = Turns(pos, self._engine, self.cards, pos.winner() is not None)
            self._moves[pos] = found
            self._grower.work += MADE
        return found

    def readings(self, node: Node) -> list[Reading]:
        """Every turn from ``node`` as a mat (none where the player must pass)."""
        ms = self.moves_from(node.position)
        return [] if ms.must_pass else [ms.reading(m) for m in ms.moves]

    def half(self, node: Node, m: Move) -> Node:
        """The Wind Spirit card turn ``m`` from ``node`` with only its pawn step made, as a
        history of the hands still at work (whatever its Spirit step will be)."""
        f, t = m.from_sq, m.to_sq
        assert f is not None and t is not None, "a pawn step"
        pieces, paths = list(node.pieces), list(node.paths)
        gone = () if pieces[t] is None else (pieces[t] or "",)
        step(pieces, paths, f, t, len(node.steps) + 1)
        return Node(node.steps, node.position, tuple(pieces), tuple(sorted(node.taken + gone)),
                    node.movers, node, False, frozenset((f,)), node.emptied + Counter((f,)), m,
                    tuple(paths))

    def holds_wind(self, node: Node) -> bool:
        """Does the player to move at ``node`` hold a Wind Spirit card?"""
        hand = node.position.hands[node.position.turn]
        found = self._winds.get(hand)
        if found is None:
            found = self._winds[hand] = any(self.cards[c].is_wind_card for c in hand
                                            if c in self.cards)
        return found

    def child_along(self, node: Node, ms: Turns, m: Move) -> Node:
        """``node``'s child along turn ``m`` (of its turns ``ms``), made once."""
        kids = self._children.setdefault(node, {})
        child = kids.get(m)
        if child is None:
            child = kids[m] = self._child(node, ms.reading(m))
            self._grower.work += MADE
        return child

    def follow(self, moves: tuple[Move, ...]) -> Node | None:
        """The node the legal ``moves`` lead to from the root, or None."""
        node = self.root
        for m in moves:
            ms = self.moves_from(node.position)
            kids = self._children.setdefault(node, {})
            child = kids.get(m)
            if child is None:
                # (Only a turn not yet made is checked: a child is made along a legal turn,
                # and the check scans the position's turns, made Moves if they were not.)
                if m not in ms.moves:
                    return None
                child = kids[m] = self._child(node, ms.reading(m))
            node = child
        return node

    def _child(self, node: Node, r: Reading) -> Node:
        move = r.move
        assert move is not None, "a child is a turn"
        pos = self.moves_from(node.position).after(move)
        # A turn adds no piece: it took one off when fewer are left (most take nothing: no
        # Counter made, no pieces sorted).
        if r.pieces.count(None) == node.pieces.count(None):
            gone = node.taken
        else:
            taken = Counter(p for p in node.pieces if p is not None)
            taken.subtract(p for p in r.pieces if p is not None)
            gone = tuple(sorted(node.taken + tuple(taken.elements())))
        # (Only the squares the turn's hands visit change.)
        before = node.pieces
        leaves = shared(sq for sq in r.touched
                        if before[sq] is not None and before[sq] != r.pieces[sq])
        emptied = Counter(node.emptied)   # (its counts are positive: as ``+`` would add them)
        emptied.update(leaves)
        return Node(node.steps + (r,), pos, r.pieces, gone, node.movers + (node.position.turn,),
                    node, pos.winner() is not None, leaves, emptied,
                    paths=paths_after(node.pieces, node.paths, len(node.steps) + 1, move))

    def grow(self, lifted: Counter[int], depth: int, also: list[Node],
             window: Callable[[int], Counter[int]], key: object = None,
             budget: int | None = None, again: Again | None = None) -> list[Node] | None:
        """The nodes to depth ``depth`` from the root, and ``also`` and their parents with
        their children and grandchildren (histories kept alive by a standing question), at
        most MAX_NODES.
        ``lifted``: the lifts the hands made since the anchor; ``window(d)``: those a turn
        after ``d`` turns may use (made after the turn before it was shown), the same as at
        the last call if ``key`` is (then so is the tree grown: a third of the looks).
        ``budget``: the work this call may do (turns tried, nodes made: see ``Grower``);
        None if that was not enough, and the growth goes on from there at the next call
        with the same arguments (a scan's time is bounded; a call with other lifts starts
        again, keeping each node's turns found)."""
        mark = (key, tuple(sorted(lifted.items())), depth, tuple(also),
                None if again is None else (again.made, tuple(sorted(again.lifts.items()))))
        if key is not None and self._grown is not None and self._grown[0] == mark:
            return self._grown[2]
        if self._growing is None or self._growing[0] != mark or key is None:
            self.stop()
            lifts = self._grower.lifts(lifted, window, again)
            self._growing = (mark, lifts, self._grow(lifts, depth, also))
        _, lifts, steps = self._growing
        grower = self._grower
        grower.limit = math.inf if budget is None else grower.work + budget
        try:
            while grower.work < grower.limit:
                next(steps)   # (the steps yield only once the work reaches the limit)
        except StopIteration as done:
            self._growing = None
            self._grown = (mark, lifts, *done.value)
            return self._grown[2]
        return None

    def stop(self) -> None:
        """Drop a growth going on (its steps refer to the tree: a tree dropped with one
        would be freed only by the cyclic collector)."""
        if self._growing is not None:
            self._growing[2].close()
            self._growing = None

    def halves(self, nodes: list[Node], boards: "set[Pieces]",
               keep: Node | None) -> list[Node]:
        """The Wind Spirit cards half made from the ``nodes`` last grown that leave one of
        ``boards`` (only those can explain a map), and all of ``keep``'s (the game as
        published: the next player's Wind card half made), in the nodes' order."""
        assert self._grown is not None and self._grown[2] is nodes, "grown first"
        steps, index = self._grown[3]
        found = {(i, j) for b in boards for i, j, left in index.get(hash(b), ()) if left == b}
        if keep is not None:
            found.update((i, j) for i in _places(nodes, keep) for j in range(len(steps[i])))
        return [self._grower.half(self, nodes[i], steps[i][j]) for i, j in sorted(found)]

    def _halves(self, out: list[Node], lifts: Lifts) -> Generator[None, None, Halves]:
        """The grown nodes' Wind Spirit cards' pawn steps, and where each (node, step)
        leaves the board (each look then finds those that leave its maps' boards)."""
        steps = []
        index: dict[int, list[tuple[int, int, Pieces]]] = {}
        for i, n in enumerate(out):
            steps.append(self._grower.steps(self, n, lifts))
            if steps[-1]:
                for j, (board, key) in enumerate(self._grower.left(n)):
                    index.setdefault(key, []).append((i, j, board))
            self._grower.work += 3 + len(steps[-1])   # (a node's look, each step's board)
            if self._grower.work >= self._grower.limit:
                yield
        return steps, index

    def _grow(self, lifts: Lifts, depth: int, also: list[Node]) -> "Growth":
        """The growth, in steps (each a node's turns found): its value is the nodes and
        their Wind cards' pawn steps (see ``_halves``)."""
        # The histories kept go on first: the other turns from the root fill the room they
        # leave (lifted squares add up while a question stands, and the root's turns could
        # fill the bound alone, the kept readings' next turns cut: spirit-back 16).
        kept = yield from self._grow_from([self.root], also, lifts)
        # (Sets of nodes, not of ``id()``s: a node hashes by identity; no Python call a node.)
        seen = set(kept)
        out: list[Node] = [self.root]
        frontier, room = [self.root], MAX_NODES - len(kept)
        for _ in range(depth):
            if room <= 0:
                break    # (the next level would be cut)
            frontier = yield from self._next(frontier, lifts, room + 1, seen)
            new = [n for n in frontier if n not in seen]
            if len(new) > room:
                frontier = frontier[:frontier.index(new[room])]
            out += frontier
            room -= len(new)
        ids = set(out)
        out += [n for n in kept if n not in ids]
        # The histories those go on from (the hands may take back a turn beyond the depth).
        seen = set(out)
        for n in also:
            at = n.parent
            while at is not None and at not in seen:
                seen.add(at)
                out.append(at)
                at = at.parent
        halves = yield from self._halves(out, lifts)
        return out, halves

    def _next(self, frontier: list[Node], lifts: Lifts, room: int,
              seen: set[Node] | None = None) -> Generator[None, None, list[Node]]:
        """The children of ``frontier``, in order, until ``room`` of them (not in ``seen``)
        are found: those past the bound on the tree would be cut (a look grows no node it
        then drops)."""
        out: list[Node] = []
        kept = 0
        for n in frontier:
            kids = yield from self._grower.children(self, n, lifts)
            if self._grower.work >= self._grower.limit:
                yield
            out += kids
            kept += len(kids) if seen is None else len(kids) - sum(map(seen.__contains__, kids))
            if kept >= room:
                break
        return out

    def _grow_from(self, out: list[Node], also: list[Node],
                   lifts: Lifts) -> Generator[None, None, list[Node]]:
        """``out`` with ``also`` and their parents, their children and grandchildren, at
        most MAX_NODES in all."""
        seen = set(out)
        # With their parents: the other turns in place of their last (a turn published while
        # a question stood may be a Wind card's pawn step that goes on: spirit-back 12).
        parents = {n.parent: None for n in also if n.parent is not None}
        frontier = list(also) + list(parents)
        for level in range(3):
            out += [n for n in frontier if n not in seen]
            seen.update(frontier)
            if level == 2 or len(out) >= MAX_NODES:
                break    # (the next level would be cut)
            frontier = yield from self._next(frontier, lifts, MAX_NODES - len(out), seen)
        return out[:MAX_NODES]


# A growth in steps (each a node's turns found): its value, the nodes and their halves.
Growth = Generator[None, None, tuple[list[Node], Halves]]


def _places(nodes: list[Node], node: Node) -> list[int]:
    """Where ``node`` stands in ``nodes``, found in C (``index`` compares nodes by identity:
    a Python scan of the hundreds of nodes grown cost as much at every look). Counted first:
    an ``index`` that misses raises a ValueError whose message is the node's repr, the whole
    history (2 % of a replay's time)."""
    out: list[int] = []
    for _ in range(nodes.count(node)):
        out.append(nodes.index(node, out[-1] + 1 if out else 0))
    return out


@dataclass(frozen=True)
class Explanation:
    node: Node
    cost: int
    map: PieceMap
    # A piece the history took off still stands aside on the mat until then: the hand that
    # took it has not finished (the turn is not over while its victim is on the mat); or,
    # for a Wind card part-way, its Spirit set down may be on its way until then.
    aside: float | None = None


def explain(nodes: list[Node], maps: list[PieceMap], now: float = NOW,
            since: float = float("-inf"), idle: frozenset[str] = frozenset(),
            shown: float = NOW, fitting: set[int] | None = None,
            sides: Sides | None = None, back: frozenset[Node] = frozenset()
            ) -> list[Explanation]:
    """The histories among ``nodes`` that leave one of the ``maps``, each at its least noise,
    cheapest first. At ``now``, a piece set aside is one put down less than ``ASIDE_S`` ago;
    ``since``: when the mat showed the anchor (the histories' steps came after); ``idle``:
    the pieces of the player to move in the game as published, shown at ``shown`` (see
    :func:`.walks.idle_noise`). ``fitting`` collects the maps (by ``id``) some history leaves,
    at any noise. ``sides``: the maps' boards at ``now``, if worked out (``sides_of``).
    ``back``: the histories that take published turns back, whose pieces rested
    where those turns put them as their own (a Wind card taken back Spirit first, cause 10;
    see :func:`.undoing.taking_back`): no idle noise."""
    sides = sides if sides is not None else sides_of(maps, now)
    by_pieces, keys = filed(nodes, sides)
    best: dict[int, Explanation] = {}
    for m, bs, hs in zip(maps, sides, keys):
        air: Counter[str] | None = None   # (made once a node leaves the map's board: seldom)
        for (aside, pieces, until), h in zip(bs, hs):
            for n in by_pieces.get(h, ()):
                if n.pieces != pieces:
                    continue
                if air is None:
                    air = m.in_air()
                taken = Counter(n.taken)
                if aside == ON_ITS_WAY:
                    if n.pending is None:
                        continue   # only a Wind card part-way has its Spirit in the hand
                elif aside is not None:
                    if not taken[aside]:
                        continue   # only a piece the history took off can stand aside
                    taken[aside] -= 1
                if taken - air:
                    continue   # a piece the history took off is on the mat in this map
                if not walked(n.paths, m.trails, since):
                    continue   # the history moved pieces in a way the hands did not
                if fitting is not None:
                    fitting.add(id(m))
                # A piece in the air the history did not take is one the maps lost track of.
                cost = (m.cost + sum((air - taken).values()) + (ASIDE if aside else 0)
                        + (idle_noise(n.paths, m, idle, since, shown) if n not in back else 0))
                if id(n) not in best or cost < best[id(n)].cost:
                    best[id(n)] = Explanation(n, cost, m, until)
    return sorted(best.values(), key=lambda e: (e.cost, len(e.node.steps)))


def cheapest(found: list[Explanation], least_map: int) -> list[Explanation]:
    """The histories that need the least noise, if no more than ``SLACK`` above the
    likeliest map's (``least_map``): else the likeliest hands are still at work."""
    if not found or found[0].cost > least_map + SLACK:
        return []
    least = found[0].cost
    return [e for e in found if e.cost == least]

"""A node's turns under the lifts the hands made, found once and carried over as the lifts
grow: the tree of histories (histories.py) is grown again at every look, and between two
looks the hands add a lift or two, so each node checks again only the turns that use a
square counted more often now (the issue's time per call: a look costs what changed, not
the whole tree).

A turn from a node is a history when the hands emptied every square it (and the turns before
it) lift as often as they need, and its pieces left squares in its window (lifts made after
the turn before it was shown). Both only grow while the lifts grow: a turn found stays, and a
turn not found can only be found again through a square now counted more often. When a count
falls (a lift found to be a brush, the window moved on), the node's turns are found again.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Generator, TypeVar

from ..rules.moves import Move
from .emptied import AGAIN, Again, again_allows
from .turns import Counts, Known, Lifts, Turns, origins

if TYPE_CHECKING:
    from .histories import Node, Tree
    from .pieces import Pieces


MADE = 10    # the work of making a node, in turns tried (its reading, position, paths)

T = TypeVar("T")
Steps = Generator[None, None, T]   # work done in steps (see ``Tree.grow``), then its value


@dataclass
class _Turned:
    """A node's turns as found under lifts ``number`` and window ``window`` (see Counts)."""
    number: int
    window: int
    found: list[tuple[int, "Node"]]                    # (engine index, child), in order
    # A turn not found, the squares it needs: its own origins (a tuple ``origins`` made
    # anyway), or its child's (``Grower._needs``: one set per child, not one per try).
    failed: list[tuple[int, Move, Collection[int]]]
    made: "Node | None" = None   # the open moves' node the lifts again counted for (see Lifts)


class Grower:
    """Each node of a tree keeps its turns and Wind Spirit cards half made from look to
    look. ``work`` counts what the tree did: a turn tried 1, a node made ``MADE`` more. (The
    tree is given at each call, not kept: a tree and its grower in a cycle would be freed
    only by the cyclic collector, whose pauses grow with the heap.)"""

    def __init__(self, known: Known | None = None) -> None:
        self.counts = Counts()
        # Each node's turns (its position's, as the tree's ``known`` keeps them), and the nodes
        # whose player holds no Wind Spirit card: a growth asks every node's at each restart,
        # and hashing its position to look the turns up was most of the ask.
        self._known = known if known is not None else Known()
        self._turns: dict["Node", tuple[int, Turns]] = {}
        self._windless: set["Node"] = set()
        self.work = 0    # the work done: turns tried, and nodes made (MADE each)
        # The work at which the growth going on pauses (``Tree.grow`` sets it at each call):
        # its steps yield only there, not after each step (a resumption passes through every
        # generator of the growth: it cost as much as a turn tried).
        self.limit = math.inf
        # Keyed by the node itself, not its ``id()``: a node the tree does not hold (one
        # kept by a standing question) may be freed while its entry stays, and the next
        # node given its address would inherit its turns. A key holds its node; a new tree
        # comes with a new grower, so a dead tree's nodes are not kept.
        self._turned: dict["Node", _Turned] = {}
        # Each node's Wind cards' pawn steps the lifts allow (by the squares they leave),
        # and the histories of those made, each made once.
        self._steps: dict["Node", tuple[tuple[int, ...], list[tuple[int, int, Move]]]] = {}
        self._left: dict["Node", list[tuple["Pieces", int]]] = {}   # ... the board each leaves
        self._halves: dict[tuple["Node", int, int], "Node"] = {}
        self._needs: dict["Node", frozenset[int]] = {}   # a child's squares (see ``_Turned``)

    def lifts(self, lifted: Counter[int], window: Callable[[int], Counter[int]],
              again: Again | None = None) -> Lifts:
        return Lifts(lifted, window, self.counts, again)

    def children(self, tree: "Tree", node: "Node", lifts: Lifts) -> Steps[list["Node"]]:
        """The turns from ``node`` the lifts allow: each lifts pieces only off squares the
        hands emptied as often as it needs, off squares in its window. In steps, one a turn
        tried (a growth's slice stops between two: a node's turns are up to 40)."""
        ms = self.turns(tree, node)
        if ms.over or ms.must_pass or node.over:
            return []
        depth = len(node.steps)
        number, window = lifts.number, lifts.window_number(depth)
        had = self._turned.get(node)
        if had is not None and had.made is not None and had.made is not lifts.made:
            had = None   # (other open moves: the lifts again counted for others)
        if had is not None and (had.number, had.window) != (number, window):
            rose = self.counts.rises(had.number, number)
            opened = self.counts.rises(had.window, window)
            if rose is None or opened is None:
                had = None
            else:   # (a square counted more often again: the square itself, see ``Lifts``)
                rose = frozenset(sq % AGAIN for sq in rose)
                had = yield from self._more(tree, node, ms, had, rose | opened, lifts)
        if had is None:
            had = yield from self._all(tree, node, ms, lifts)
        self._turned[node] = had
        return [c for _, c in had.found]

    def _all(self, tree: "Tree", node: "Node", ms: Turns, lifts: Lifts) -> Steps[_Turned]:
        found: list[tuple[int, "Node"]] = []
        failed: list[tuple[int, Move, Collection[int]]] = []
        allowed = lifts.window(len(node.steps))
        for sq in sorted({sq for sq, n in lifts.lifted.items() if n > 0}):
            for i, m in ms.leaving(sq):
                self._try(tree, node, ms, i, m, lifts, allowed, found, failed)
                if self.work >= self.limit:
                    yield
        found.sort(key=lambda e: e[0])
        return _Turned(lifts.number, lifts.window_number(len(node.steps)), found, failed,
                       lifts.made)

    def _more(self, tree: "Tree", node: "Node", ms: Turns, had: _Turned, rose: frozenset[int],
              lifts: Lifts) -> Steps[_Turned]:
        """``had`` under lifts that only grew, on the squares ``rose``."""
        lifted, allowed = lifts.lifted, lifts.window(len(node.steps))
        before = self.counts.counts[had.number]
        found: list[tuple[int, "Node"]] = []
        failed: list[tuple[int, Move, Collection[int]]] = []
        for entry in had.failed:
            if not rose.isdisjoint(entry[2]):
                self._try(tree, node, ms, entry[0], entry[1], lifts, allowed, found, failed)
                if self.work >= self.limit:
                    yield
            else:
                failed.append(entry)
        for sq in sorted(rose):
            if before[sq] <= 0 < lifted[sq]:   # its turns were not looked at before
                for i, m in ms.leaving(sq):
                    self._try(tree, node, ms, i, m, lifts, allowed, found, failed)
                    if self.work >= self.limit:
                        yield
        if found:
            found = sorted(had.found + found, key=lambda e: e[0])
        else:
            found = had.found
        return _Turned(lifts.number, lifts.window_number(len(node.steps)), found, failed,
                       lifts.made)

    def _try(self, tree: "Tree", node: "Node", ms: Turns, i: int, m: Move, lifts: Lifts,
             allowed: Counter[int], found: list[tuple[int, "Node"]],
             failed: list[tuple[int, Move, Collection[int]]]) -> None:
        """Is turn ``m`` (index ``i``) from ``node`` a history the lifts allow? (Counted
        per history with the lifts again since the open moves were shown: emptied.py.)"""
        self.work += 1
        lifted = lifts.lifted
        starts = origins(m)
        # (``get``: a Counter's missing square is a call of its ``__missing__``.)
        if any(lifted.get(sq, 0) <= 0 for sq in starts):
            failed.append((i, m, starts))
            return
        child = tree.child_along(node, ms, m)
        if ((all(lifted.get(sq, 0) >= n for sq, n in child.emptied.items())
             or (lifts.again is not None and again_allows(child, lifted, lifts.again)))
                and all(allowed.get(sq, 0) > 0 for sq in child.leaves)):
            found.append((i, child))
        else:
            needs = self._needs.get(child)
            if needs is None:   # (a child has one parent and one turn: its starts are fixed)
                needs = self._needs[child] = frozenset(child.emptied).union(starts)
            failed.append((i, m, needs))

    def steps(self, tree: "Tree", node: "Node", lifts: Lifts) -> list[tuple[int, int, Move]]:
        """``node``'s Wind Spirit cards' pawn steps the lifts allow (its pawn lifted more
        often than the node's turns did, within its window), one per pawn step, with the
        first turn that makes it: each the start of a history of the hands still at work."""
        if node in self._windless:
            return []
        if not tree.holds_wind(node):
            self._windless.add(node)
            return []
        ms = self.turns(tree, node)
        if ms.over or ms.must_pass or node.over:
            return []
        lifted, allowed = lifts.lifted, lifts.window(len(node.steps))
        emptied = node.emptied
        key = tuple([f for f in ms.pawn_starts() if lifted.get(f, 0) > emptied.get(f, 0)
                     and allowed.get(f, 0) > 0])
        had = self._steps.get(node)
        if had is None or had[0] != key:
            had = self._steps[node] = (key, ms.pawn_steps(key))
            self._left[node] = [(b, hash(b)) for b in (after_step(node.pieces, f, t)
                                                     for f, t, _ in had[1])]
            self.work += len(had[1])
        return had[1]

    def turns(self, tree: "Tree", node: "Node") -> Turns:
        """``tree.moves_from(node.position)``, kept with the node while the tree's known
        positions keep it (so the tree does the same work: a position forgotten is found
        again, and counted, as before)."""
        had = self._turns.get(node)
        if had is not None and had[0] == self._known.cleared:
            return had[1]
        ms = tree.moves_from(node.position)
        self._turns[node] = (self._known.cleared, ms)
        return ms

    def left(self, node: "Node") -> list[tuple["Pieces", int]]:
        """The boards ``node``'s pawn steps (as ``steps`` last found them) leave, each with its
        hash (a growth files them by it: hashed once, not at every growth)."""
        return self._left[node]

    def half(self, tree: "Tree", node: "Node", step: tuple[int, int, Move]) -> "Node":
        """The history of ``node``'s Wind Spirit card with only its pawn ``step`` made (each
        made once)."""
        f, t, m = step
        half = self._halves.get((node, f, t))
        if half is None:
            half = self._halves[(node, f, t)] = tree.half(node, m)
            self.work += MADE
        return half


def after_step(pieces: "Pieces", f: int, t: int) -> "Pieces":
    """``pieces`` after a pawn step (or the Spirit's) from ``f`` to ``t`` (see walks.step)."""
    board = list(pieces)
    mover = board[f]
    board[f] = board[t] if board[t] is not None and mover == "W" else None
    board[t] = mover
    return tuple(board)

"""A history's cached turns are its own (issue 21: a game's reading must not depend on the
process's heap). The tree and its grower keep each node's children, turns and Wind cards
half made from look to look; were they filed by ``id()`` of a node that can be freed while
the tree lives, the next node given that address would inherit them. Keyed by the node
itself (nodes hash by identity), a kept entry keeps its node, so no address is reused."""

import gc
import weakref
from collections import Counter
from dataclasses import replace

from companion.mat.histories import Tree
from companion.rules.board import Board
from companion.rules.engine import Engine
from companion.rules.position import parse_position

CARDS = "Tiger,Crab Monkey,Crane Dragon"
WIND = Board(parse_position("bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"))
RED = Board(parse_position(f"bbBbb/5/5/5/rrRrr red {CARDS}"))
BLUE = Board(parse_position(f"bbBbb/5/5/5/rrRrr blue {CARDS}"))
ENGINE = Engine(RED.cards)
CANDIDATES = 20   # histories made after one is freed (CPython reuses its address at once)


def test_a_history_never_inherits_the_turns_of_one_freed_before_it():
    tree = Tree(RED, ENGINE)
    # Lifts off Blue's back row only: Red's turns need none of them, Blue's all can.
    lifted = Counter({sq: 1 for sq in range(25) if BLUE.position.piece_at(sq) in ("b", "B")})

    def window(depth: int) -> Counter[int]:
        return lifted

    # A history kept alive by a standing question (``also``), from another anchor: Red to
    # move, no turn the lifts allow. Then it is dropped, and Blue-to-move histories come.
    red, blue = Tree(RED, ENGINE).root, Tree(BLUE, ENGINE).root
    gone = replace(red)
    grown = tree.grow(lifted, 0, [gone], window)
    assert grown is not None and not [n for n in grown if n.parent is gone]
    del gone, grown
    tree.grow(lifted, 0, [], window)   # (the last growth's mark lets it go)
    fresh = Tree(RED, ENGINE).grow(lifted, 0, [blue], window)
    assert fresh is not None
    turns = [n.moves for n in fresh if n.parent is blue]
    assert turns, "Blue's turns off its back row"
    # (Made at once: the first takes the freed history's address where nothing holds it.)
    kept = [replace(blue) for _ in range(CANDIDATES)]
    for node in kept:
        grown = tree.grow(lifted, 0, [node], window)
        assert grown is not None
        assert [n.moves for n in grown if n.parent is node] == turns


def test_a_dropped_tree_frees_its_histories_and_caches_without_the_cyclic_collector():
    # (Its caches hold their nodes now: they must hold nothing that holds them back, or a
    # dead tree would wait for the collector, whose pauses grow with what is left.)
    lifted = Counter({sq: 2 for sq in range(25)})
    enabled = gc.isenabled()
    gc.disable()
    try:
        tree = Tree(WIND, Engine(WIND.cards))
        grown = tree.grow(lifted, 2, [], lambda depth: lifted)
        assert grown is not None
        halves = tree.halves(grown, {n.pieces for n in grown}, None)
        assert halves, "Wind cards half made, cached by the grower"
        made = [weakref.ref(n) for n in grown + halves]
        del tree, grown, halves
        assert not [r for r in made if r() is not None]
    finally:
        if enabled:
            gc.enable()

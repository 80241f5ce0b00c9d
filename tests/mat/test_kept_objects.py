"""What the recognizer keeps from call to call (the positions' turns and their readings,
the trees) is what the cyclic collector scans in each of its passes, inside the calls that
happen to trigger them (issue 21: the time per call counts the collector's pauses). Counted,
never timed: the objects kept."""

import companion.tracetool as tracetool
from companion.mat.growth import Grower
from companion.mat.histories import Tree
from companion.rules.board import Board
from companion.rules.engine import Engine
from companion.rules.position import parse_position
from tracegen import generate_game, variant_for

WIND = "bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"
# The Spirit beside a pawn of each side: swaps, captures and landings.
CLOSE = "bbB1b/5/1bWr1/5/rrR1r red Lion,Mantis Tiger,Crane Dragon"
BASE = "bbBb1/5/2b2/2r2/rr1Rr red Tiger,Crab Monkey,Crane Dragon"


def test_readings_share_one_empty_set():
    """Most turns capture, swap and land nowhere: their readings' empty groups, Spirit
    landings and half-made groups are one shared object, not three new ones a turn."""
    readings = []
    for start in (BASE, WIND):
        board = Board(parse_position(start))
        tree = Tree(board, Engine(board.cards))
        readings += tree.readings(tree.root)
    fields = [f for r in readings for f in (r.groups, r.midway_groups, r.landings)]
    empty = [f for f in fields if not f]
    assert len(empty) > 2 * len(readings), "most of those sets are empty"
    assert any(fields), "and some are not (a capture: c2 takes c3 with the Crab)"
    assert len({id(f) for f in empty}) == 1


def test_equal_small_sets_are_one_object():
    """The squares turns visit and the squares histories' last turns lift off are a few of
    25: equal sets are one object, however many readings and nodes keep them."""
    board = Board(parse_position(CLOSE))
    tree = Tree(board, Engine(board.cards))
    nodes = []
    for r in tree.readings(tree.root):
        child = tree.follow((r.move,))
        assert child is not None
        nodes.append(child)
        nodes += [tree.follow((r.move, g.move)) for g in tree.readings(child)[:3]]
    readings = [s for n in nodes if n is not None for s in n.steps]
    for sets in ([r.touched for r in readings], [n.leaves for n in nodes if n is not None],
                 [g for r in readings for g in r.groups]):
        assert len(sets) > len(set(sets)), "sets repeat"
        assert len({id(s) for s in sets}) == len(set(sets))


def test_a_turn_not_found_keeps_one_set_per_child_not_one_per_try(monkeypatch):
    """A node keeps the turns its lifts did not allow, with the squares each needs, to try
    them again only when those squares' lifts rise; a turn is tried again and again over a
    rest's looks. The squares are its child's, one set kept per child (and a turn's own
    squares the tuple it is read from): not a set made, and kept, at every try."""
    tries: list[int] = []
    kept: dict[int, object] = {}   # (the objects held: no id is reused)
    turns: set[tuple[int, object]] = set()
    real = Grower._try

    def counted(self, tree, node, ms, i, m, lifted, allowed, found, failed):
        before = len(failed)
        real(self, tree, node, ms, i, m, lifted, allowed, found, failed)
        if len(failed) > before:
            tries.append(1)
            turns.add((id(node), m))
            kept[id(node)] = node
            needs = failed[-1][2]
            if isinstance(needs, (set, frozenset)):
                kept[id(needs)] = needs

    monkeypatch.setattr(Grower, "_try", counted)
    game = generate_game(2, variant=variant_for("knock", 2), category="knock")
    list(tracetool.replay(game.header, game.events))
    sets = [o for o in kept.values() if isinstance(o, (set, frozenset))]
    assert len(tries) > len(turns), "turns are tried again"
    assert len(sets) <= len(turns)

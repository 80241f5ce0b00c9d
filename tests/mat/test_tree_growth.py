"""The tree of histories grows in bounded slices (issue 21: time per call). Each node keeps its
turns from look to look (companion/mat/growth.py), and the recognizer grows the tree ahead of
the next look, a slice a scan. Checked by counting work (turns tried, nodes made), never by
timing: a carried-over tree is the tree grown anew, no call grows past its budget, and the
bounded reading is the unbounded one."""

import random
from collections import Counter

import pytest

import companion.tracetool as tracetool
from companion.mat import recognizer as recognizing
from companion.mat.growth import MADE
from companion.mat.histories import MAX_NODES, Tree
from companion.rules.board import Board
from companion.rules.engine import Engine
from companion.rules.position import parse_position
from tracegen import generate_game, variant_for

WIND = "bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"
BASE = "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"


def _lifts(rng: random.Random, squares: list[int]) -> list[Counter[int]]:
    """Lift counts as hands make them: mostly growing, now and then one lift dropped (a
    brush found out)."""
    counts: Counter[int] = Counter()
    out = []
    for _ in range(14):
        if counts and rng.random() < 0.2:
            sq = rng.choice(sorted(counts))
            counts[sq] -= 1
        else:
            counts[rng.choice(squares)] += 1
        out.append(+counts)
    return out


@pytest.mark.parametrize("start", [BASE, WIND])
def test_a_tree_carried_from_look_to_look_grows_what_a_tree_grown_anew_grows(start):
    board = Board(parse_position(start))
    engine = Engine(board.cards)
    for seed in range(6):
        rng = random.Random(seed)
        kept = Tree(board, engine)
        squares = [sq for sq in range(25) if board.position.piece_at(sq) is not None]
        squares += rng.sample(range(25), 4)
        also: tuple = ()
        for i, lifted in enumerate(_lifts(rng, squares)):
            cut = rng.randrange(3)   # the window: lifts after the turn before was shown

            def window(depth: int, lifted: Counter[int] = lifted, cut: int = cut) -> Counter[int]:
                return lifted if depth < cut else +(lifted - Counter(sorted(lifted)[:1]))
            fresh = Tree(board, engine)
            grown = kept.grow(lifted, 2, [n for n in map(kept.follow, also) if n], window,
                              key=i)
            anew = fresh.grow(lifted, 2, [n for n in map(fresh.follow, also) if n], window)
            assert grown is not None and anew is not None
            assert [n.moves for n in grown] == [n.moves for n in anew]
            maps = {n.pieces for n in grown}
            assert ([h.pieces for h in kept.halves(grown, maps, None)]
                    == [h.pieces for h in fresh.halves(anew, maps, None)])
            deep = [n.moves for n in grown if len(n.moves) == 2]
            also = (rng.choice(deep),) if deep else ()


# Games whose trees are the largest of their category's first twelve (no-answer 2: a
# question left open for minutes keeps dozens of histories, several turns deep), and whether
# their reading is the unbounded one event for event (no-answer 2 is read wrong either way,
# and a lift judged a few scans later goes wrong another way).
GAMES = [("no-answer", 2, False), ("knock", 2, True), ("takeback-wind", 7, True),
         ("hurried", 0, True)]


def _worked(budget: int | None, category: str, seed: int) -> tuple[list, list[int]]:
    """The events of a generated game, and the tree's work in each call, with the slices
    of growth bounded (``budget``: the slice; None: grown whole at every look)."""
    work: list[int] = []
    base = recognizing.Recognizer

    class Counted(base):  # type: ignore[misc, valid-type]
        def _tree_work(self) -> tuple[int, int]:
            return id(self._tree), self._tree._grower.work

        def _counted(self, call, *args):
            tree, before = self._tree_work()
            out = call(*args)
            now_tree, after = self._tree_work()
            work.append(after - before if now_tree == tree else after)
            return out

        def update(self, t, occupancy):
            return self._counted(super().update, t, occupancy)

        def advance(self, t):
            return self._counted(super().advance, t)

    game = generate_game(seed, variant=variant_for(category, seed), category=category)
    old = (recognizing.SLICE, recognizing.AT_REST, tracetool.Recognizer)
    try:
        if budget is None:
            recognizing.SLICE = recognizing.AT_REST = 10 ** 9
        tracetool.Recognizer = Counted
        events = list(tracetool.replay(game.header, game.events))
    finally:
        recognizing.SLICE, recognizing.AT_REST, tracetool.Recognizer = old
    return events, work


@pytest.mark.parametrize("category,seed,same", GAMES)
def test_no_call_grows_the_tree_past_its_budget_and_the_reading_is_the_unbounded_one(
        category, seed, same):
    events, work = _worked(recognizing.SLICE, category, seed)
    whole, unbounded = _worked(None, category, seed)
    # A slice stops between two nodes: it may go over by one node's turns, each tried and
    # made (a position has at most 40 turns); a look makes the few nodes its published
    # moves and Wind cards half made need, and a publication follows the histories
    # explained into the new anchor's tree.
    bound = recognizing.AT_REST + 40 * (1 + MADE) + MADE + 100 * MADE
    assert max(work) <= bound
    assert max(unbounded) > bound, "a game whose tree needs more than a slice"
    if same:
        assert [{k: v for k, v in e.items() if k != "t"} for e in events] == \
            [{k: v for k, v in e.items() if k != "t"} for e in whole]
        assert all(abs(a["t"] - b["t"]) <= 0.1 for a, b in zip(events, whole))


# The most work one step of a growth does: a turn tried (1), its node made and the turns
# of a position met for the first time (``MADE`` each); or a node's look for Wind Spirit
# cards' pawn steps (3, and 2 a step: found, and its board; a position has at most 20).
STEP = max(1 + 2 * MADE, MADE + 3 + 2 * 20)


@pytest.mark.parametrize("start", [BASE, WIND])
def test_a_slice_stops_within_one_step_of_its_budget(start):
    """However many turns a node has (up to 40), a slice of growth stops between two turns
    tried: it goes past its budget by one step's work at most."""
    board = Board(parse_position(start))
    tree = Tree(board, Engine(board.cards))
    lifted = Counter({sq: 2 for sq in range(25)})   # every square emptied: a large tree
    over, grown = [], None
    while grown is None:
        before = tree._grower.work
        grown = tree.grow(lifted, 2, [], lambda depth: lifted, key=0, budget=recognizing.SLICE)
        over.append(tree._grower.work - before - recognizing.SLICE)
    assert len(over) > 5, "a growth of several slices"
    assert max(over) <= STEP, max(over)


@pytest.mark.parametrize("start", [BASE, WIND])
def test_a_slice_resumes_the_growth_once(start):
    """A slice resumes the growth's generators once, not once a turn tried: each resumption
    passes through every generator of the growth (as dear as a turn tried). Counted: the
    resumptions of the growth, slice by slice."""
    board = Board(parse_position(start))
    tree = Tree(board, Engine(board.cards))
    lifted = Counter({sq: 2 for sq in range(25)})
    grow = lambda: tree.grow(lifted, 2, [], lambda depth: lifted, key=0,  # noqa: E731
                             budget=recognizing.SLICE)
    assert grow() is None, "a growth of several slices"
    resumed = [0]

    def counted(steps):
        while True:
            try:
                step = next(steps)
            except StopIteration as done:
                return done.value
            resumed[0] += 1
            yield step

    assert tree._growing is not None
    mark, lifts, steps = tree._growing
    tree._growing = (mark, lifts, counted(steps))
    slices = 1
    while grow() is None:
        slices += 1
    assert slices > 5
    assert resumed[0] <= slices, (resumed[0], slices)


def test_a_lift_that_may_end_a_turn_grows_the_tree_a_slice():
    """A lift of the next player's (fast play) is judged on the tree of the mat before it:
    the lift's call grows that tree a slice, as every call, and the next scans grow the rest
    (the lift ends the turn only once it lasts ``clear``, 8 scans later). Counted: the tree's
    work in each ``_note_fast`` of fast 1 (less a lift still waiting then, judged whole), at
    most a slice and one step; it grew 602 (``AT_REST``) in one before."""
    worked: list[int] = []
    waiting = [0]
    base = recognizing.Recognizer

    class Counted(base):  # type: ignore[misc, valid-type]
        def _judge_fast(self, budget):
            before = self._tree._grower.work
            super()._judge_fast(budget)
            if budget is None:
                waiting[0] += self._tree._grower.work - before

        def _note_fast(self, t, lifted):
            tree, before = id(self._tree), self._tree._grower.work
            waiting[0] = 0
            super()._note_fast(t, lifted)
            if id(self._tree) == tree:
                worked.append(self._tree._grower.work - before - waiting[0])

    game = generate_game(1, variant=variant_for("fast", 1), category="fast")
    old = tracetool.Recognizer
    try:
        tracetool.Recognizer = Counted
        list(tracetool.replay(game.header, game.events))
    finally:
        tracetool.Recognizer = old
    assert len(worked) > 20, "a game of fast replies"
    assert max(worked) <= recognizing.SLICE + STEP, max(worked)


def test_the_histories_kept_go_on_when_the_turns_from_the_root_would_fill_the_bound():
    """Lifted squares add up while a question stands, and the turns from the root can fill
    MAX_NODES alone (spirit-back 16: 575 of 600 nodes were the root's two turns at 144.4,
    and the two histories kept, twelve turns deep, had no next turn grown). The histories
    kept are grown on first; the root's turns fill the room they leave."""
    board = Board(parse_position(BASE))
    engine = Engine(board.cards)
    lifted = Counter({sq: 2 for sq in range(25)})

    def window(depth: int) -> Counter[int]:
        return lifted
    tree = Tree(board, engine)
    assert len(tree.grow(lifted, 3, [], window)) == MAX_NODES   # the root's turns alone
    two = next(n for n in tree.grow(lifted, 2, [], window) if len(n.moves) == 2)
    kept = next(n for n in tree.grow(lifted, 0, [two], window) if len(n.moves) == 4)
    alone = tree.grow(lifted, 0, [kept], window)
    assert alone is not None and len(alone) < MAX_NODES
    going_on = [id(n) for n in alone if kept in (n, n.parent, n.parent and n.parent.parent)]
    grown = tree.grow(lifted, 3, [kept], window)
    assert grown is not None and len(grown) <= MAX_NODES + len(kept.moves)
    ids = {id(n) for n in grown}
    assert len(going_on) > 1 and all(i in ids for i in going_on)
    assert sum(len(n.moves) == 1 for n in grown) == 10   # (and the root's turns still)

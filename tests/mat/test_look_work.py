"""A look at the mat does only the work its answer needs (issue 21: time per call). Counted
(Moves made, nodes made, maps compared), never timed: judging a mat part-way makes no turn,
a node's Wind Spirit cards' pawn steps make only their own turns, and the piece maps' beam
merges equal maps as it did when it hashed every map whole."""

import random
from collections import Counter

import pytest

from companion.mat import pieces
from companion.mat.histories import Tree
from companion.mat.pieces import PieceMap, PieceMaps
from companion.mat.readings import pieces_of
from companion.mat.view import unfinished
from companion.rules.board import Board
from companion.rules.engine import Engine
from companion.rules.position import parse_position
from companion.rules.squares import parse_square

WIND = "bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"
BASE = "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"


def _games(start: str, count: int, seed: int = 0) -> list[Board]:
    """Boards of random legal games from ``start``, a few turns in."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board = Board(parse_position(start))
        for _ in range(rng.randrange(1, 10)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        out.append(board)
    return out


@pytest.mark.parametrize("start", [BASE, WIND])
def test_a_mat_part_way_is_judged_without_making_a_turn(start):
    board = Board(parse_position(start))
    tree = Tree(board, Engine(board.cards))
    root = tree.root
    turns = tree.moves_from(root.position)
    a1 = parse_square("a1")
    # Red's pawn lifted off a1 and not put down: the mat differs from the game only on a
    # square one of Red's turns visits.
    state = unfinished(tree, [root], [], root.occupancy - {a1}, Counter({a1: 1}), [])
    assert state == "red"
    assert not turns.readings and not turns._made, "no turn made a Move or read"
    assert not tree._children, "no node made"
    # A square no turn from a lifted square visits: out of sync.
    assert unfinished(tree, [root], [], root.occupancy - {a1} | {parse_square("e3")},
                      Counter({a1: 1}), []) is None


def _pawn_steps(turns, squares):
    """The Wind Spirit cards' pawn steps from ``squares``, worked out on the turns made
    Moves (the reference)."""
    found = {}
    for _, m in sorted((e for sq in squares for e in turns.leaving(sq)), key=lambda e: e[0]):
        if m.wind_card and m.spirit_from is not None and m.from_sq is not None:
            found.setdefault((m.from_sq, m.to_sq), m)
    return [(f, t, m) for (f, t), m in found.items()]


def test_wind_pawn_steps_make_only_their_own_turns():
    checked = 0
    for board in _games(WIND, 40):
        engine = Engine(board.cards)
        fresh, reference = (Tree(board, engine).moves_from(board.position) for _ in range(2))
        squares = tuple(range(25))
        steps = fresh.pawn_steps(squares)
        assert steps == _pawn_steps(reference, squares)
        assert len(fresh._made) == len(steps) <= len(reference._made)
        checked += bool(steps) and len(steps) < len(reference._made)
    assert checked >= 10, "positions where the other turns were not made"


def _old_beam(maps, expected):
    """The beam as it was: every map keyed whole, trails hashed (the reference)."""
    best = {}
    for m in maps:
        key = (m.pieces, tuple(e[:2] for e in m.air), m.trails)
        if key not in best or m.cost < best[key].cost:
            best[key] = m
    kept = sorted(best.values(), key=lambda m: (m.cost, pieces.unexpected(m.pieces, expected)))
    kept = kept[:pieces.BEAM]
    least = kept[0].cost if kept else 0
    kept = [m for m in kept if m.cost <= least + pieces.WIDTH]
    return ([PieceMap(m.pieces, m.air, m.cost - least, m.trails, m.back, m.paid) for m in kept]
            if least else kept)


@pytest.mark.parametrize("seed", range(4))
def test_the_beam_keeps_the_maps_the_whole_key_kept(seed, monkeypatch):
    """Random edges (bounce, put-backs, pieces from nowhere): each beam is the reference's."""
    beam, cut = pieces._beam, []

    def both(maps, expected):
        out = beam(maps, expected)
        assert out == _old_beam(maps, expected)
        cut.append(len(out) < len(maps))
        return out
    monkeypatch.setattr(pieces, "_beam", both)
    rng = random.Random(seed)
    board = Board(parse_position(WIND))
    maps = PieceMaps(pieces_of(board.position), 0.0, 0.08)
    occ, t = board.position.occupied(), 0.0
    for _ in range(80):
        t += rng.choice((0.01, 0.05, 0.3))
        if occ and (rng.random() < 0.5 or len(occ) > 11):
            after = occ - {rng.choice(sorted(occ))}
        else:
            after = occ | {rng.randrange(25)}
        maps.change(t, occ, after)
        occ = after
    assert sum(cut) >= 5, "edges whose maps were merged or cut"


def test_the_beam_counts_unexpected_squares_only_of_maps_it_may_keep(monkeypatch):
    """Maps noisier than WIDTH over the cheapest, or than the BEAM-th, are dropped whatever
    their squares: only the others are ranked by them (the same beam as the reference)."""
    counted = []
    unexpected = pieces.unexpected

    def counting(board, expected):
        counted.append(board)
        return unexpected(board, expected)
    board = Board(parse_position(WIND))
    start = PieceMaps(pieces_of(board.position), 0.0, 0.08)
    whole = start.maps[0]
    rng = random.Random(3)
    for costs in ([rng.randrange(40) for _ in range(120)], [rng.randrange(4) for _ in range(90)]):
        maps = [PieceMap(whole.pieces, whole.air, c, whole.trails + ((i,),))
                for i, c in enumerate(costs)]
        counted.clear()
        monkeypatch.setattr(pieces, "unexpected", counting)
        kept = pieces._beam(maps, start.expected)
        monkeypatch.setattr(pieces, "unexpected", unexpected)
        assert kept == _old_beam(maps, start.expected)
        ranked = sorted(costs)
        cut = min(ranked[0] + pieces.WIDTH, ranked[pieces.BEAM - 1])
        assert len(counted) == sum(c <= cut for c in costs) < len(costs)


def test_the_beam_merges_equal_maps_at_their_least_noise():
    board = Board(parse_position(WIND))
    start = PieceMaps(pieces_of(board.position), 0.0, 0.08)
    whole = start.maps[0]
    lifted = whole.lifted(parse_square("a1"), 1.0)
    costlier = PieceMap(lifted.pieces, lifted.air, 3, lifted.trails)
    for maps in ([costlier, lifted, whole], [lifted, costlier, whole], [whole, costlier, lifted]):
        kept = pieces._beam(maps, start.expected)
        assert kept == _old_beam(maps, start.expected)
        assert sorted(m.cost for m in kept) == [0, 0]


@pytest.mark.parametrize("start", [BASE, WIND])
def test_every_turns_board_is_read_off_the_engine_without_making_a_turn(start):
    for board in _games(start, 40, seed=1):
        tree = Tree(board, Engine(board.cards))
        fresh = tree.moves_from(board.position)
        boards = fresh.boards()
        assert not fresh._made and not fresh.readings, "no turn made a Move or read"
        read = tree.readings(tree.root)
        assert set(boards) == {r.pieces for r in read}
        assert len(boards) >= len(read)


@pytest.mark.parametrize("start", [BASE, WIND])
def test_the_turns_visiting_squares_are_those_whose_readings_touch_them(start):
    rng = random.Random(2)
    for board in _games(start, 30, seed=2):
        turns = Tree(board, Engine(board.cards)).moves_from(board.position)
        occupied = sorted(board.position.occupied())
        for _ in range(20):
            lifted = Counter(rng.sample(occupied, rng.randrange(1, 4)))
            squares = frozenset(rng.sample(range(25), rng.randrange(0, 3)))
            visits = turns.visiting(lifted, squares)
            read = any(squares <= turns.reading(m).touched
                       for sq in lifted for _, m in turns.leaving(sq))
            assert visits == read


class _CountedCards:
    """A card table that counts its look-ups by name (each folds the name's case)."""

    def __init__(self, cards):
        self._cards, self.looked = cards, 0

    def __contains__(self, name):
        self.looked += 1
        return name in self._cards

    def __getitem__(self, name):
        self.looked += 1
        return self._cards[name]


@pytest.mark.parametrize("start", [BASE, WIND])
def test_a_positions_turns_look_each_card_up_once_not_once_a_turn(start):
    """A node's look for Wind pawn steps (every growth asks each node's) and the boards a
    publication ranks maps by ask each turn whether its card is a Wind Spirit card: asked of
    the card table by name, that was most of the look's time on a large tree."""
    looked = 0
    for board in _games(start, 40, seed=2):
        tree = Tree(board, Engine(board.cards))
        tree.cards = counted = _CountedCards(tree.cards)
        turns = tree.moves_from(board.position)
        starts = turns.pawn_starts()
        turns.pawn_steps(tuple(range(25)))
        turns.pawn_steps(starts)
        turns.boards()
        hand = len(board.position.hands[board.position.turn])
        # (each Move made looks its card up once, as the engine's turns made Moves do)
        assert counted.looked <= 2 * hand + len(turns._made), "each card looked up once"
        looked += counted.looked
    assert looked > 0


@pytest.mark.parametrize("start", [BASE, WIND])
def test_following_histories_already_made_makes_no_turn(start):
    """A publication follows the open moves, and the histories explained, along nodes the
    rest's growth made: a turn a node was made along is legal, and checking it again made
    every turn of each position on the way a Move."""
    checked = 0
    for board in _games(start, 20, seed=2):
        tree = Tree(board, Engine(board.cards))
        turns = tree.moves_from(board.position)
        first = next((m for sq in range(25) for _, m in turns.leaving(sq)), None)
        if first is None:
            continue   # (the game is over)
        checked += 1
        child = tree.child_along(tree.root, turns, first)
        made = len(turns._made)
        assert made < len(turns._raw), "the position has turns not made"
        assert tree.follow((first,)) is child
        assert len(turns._made) == made
        assert tree.follow((first, first)) is None, "a turn not made is checked: its square is empty"
    assert checked >= 10


@pytest.mark.parametrize("start", [BASE, WIND])
def test_the_pieces_each_square_may_hold_are_every_boards(start):
    for board in _games(start, 20, seed=3):
        tree = Tree(board, Engine(board.cards))
        boards = [pieces_of(board.position)] + tree.moves_from(board.position).boards()
        assert pieces.expected_of(boards) == tuple(
            frozenset(b[sq] for b in boards if b[sq] is not None) for sq in range(25))

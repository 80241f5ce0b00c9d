"""The search: its Zobrist keys, its moves, and the forced results it reports, checked
against the rules' own generator and an exact full-width prover on random positions."""

import pytest

from companion.ai.search import Limits, Searcher, mate_in, search_state
from companion.ai.solve import Prover
from companion.rules.engine import Engine
from companion.rules.position import parse_position

from search_states import random_states

OPEN = ("base", "wind", "seven", "nine", "conditional", "knowledge")


@pytest.mark.parametrize("variant", OPEN)
def test_incremental_keys_match_keys_from_scratch(variant):
    for seed in range(3):
        for ref, st in random_states(variant, seed, 40):
            s = Searcher(ref.cards, ref.engine.roles)
            h = s.key(st)
            for mv in s.moves(st):
                child, ch = s.make(st, h, mv)
                assert ch == s.key(child), (variant, mv)


def test_keys_tell_apart_card_places_and_the_side_to_move():
    s = Searcher()
    a = search_state(parse_position("bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"))
    b = search_state(parse_position("bbBbb/5/5/5/rrRrr red Ox,Crab Horse,Elephant Boar"))
    c = search_state(parse_position("bbBbb/5/5/5/rrRrr blue Ox,Boar Horse,Elephant Crab"))
    swapped = search_state(parse_position("bbBbb/5/5/5/rrRrr red Boar,Ox Horse,Elephant Crab"))
    assert len({s.key(a), s.key(b), s.key(c)}) == 3
    assert s.key(a) == s.key(swapped)       # a base hand's order is not part of the game


@pytest.mark.parametrize("variant", ["base", "wind", "seven", "nine", "conditional"])
def test_make_agrees_with_the_rules_generator(variant):
    for seed in range(3):
        for ref, st in random_states(variant, seed, 40):
            s = Searcher(ref.cards, ref.engine.roles)
            engine_st = st[:8] + (st[8][0],)
            for mv in s.moves(st):
                child, _ = s.make(st, 0, mv)
                assert child[:8] == Engine.apply(engine_st, mv)[:8]


def test_forced_wins_agree_with_the_exact_prover():
    """On random positions, the search at depth 5 reports a forced win in n plies exactly
    when the full-width prover finds the shortest forced win is n (n <= 5), and a forced
    loss only when the prover shows every move loses."""
    checked = wins = 0
    for variant in ("base", "wind"):
        for seed in range(4):
            for ref, st in random_states(variant, 100 + seed, 60)[8::3]:
                engine = ref.engine
                prover = Prover(engine)
                plain = st[:8] + (st[8][0],)
                shortest = prover.shortest_win(plain, 5)
                result = Searcher(ref.cards).search(st, Limits(depth=5))
                forced = mate_in(result.score)
                if shortest is not None:
                    wins += 1
                    assert forced == shortest, (variant, seed, Engine.position(plain))
                    assert result.move in prover.winning_moves(plain, shortest)
                elif forced is not None and forced > 0:
                    pytest.fail(f"search claims a win the prover refutes: {Engine.position(plain)}")
                if forced is not None and forced < 0:
                    assert prover.loses_within(plain, -forced)
                checked += 1
    assert checked > 25 and wins > 3


def test_a_node_budget_makes_the_search_repeatable():
    pos = parse_position("bbBbb/5/2W2/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    runs = [Searcher().search(search_state(pos), Limits(nodes=4000)) for _ in range(2)]
    assert runs[0].move == runs[1].move and runs[0].nodes == runs[1].nodes
    assert 4000 <= runs[0].nodes < 4100


def test_a_pass_is_searched_like_any_move():
    # Red's master alone on e5, with Fox (all steps to its right) and Mejika (the master
    # steps forward): nothing can move, Red must pass.
    pos = parse_position("4R/5/5/5/B4 red Fox,Mejika Tiger,Crab Monkey")
    s = Searcher()
    st = search_state(pos)
    assert all(mv[1] < 0 and mv[3] < 0 for mv in s.moves(st))
    result = s.search(st, Limits(depth=3))
    assert result.move in s.moves(st)


def test_knowledge_moves_choose_the_card_taken_from_the_stack():
    pos = parse_position("bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab")
    st = search_state(pos, (("Crab", "Tiger"), ()))
    s = Searcher()
    moves = s.moves(st)
    assert {mv[6] for mv in moves} == {0, 1}
    child, _ = s.make(st, s.key(st), next(mv for mv in moves if mv[0] == 0 and mv[6] == 1))
    # Ox played from slot 0, Tiger taken into it; Ox goes to Blue's stack, Crab stays.
    assert child[7] == ("Tiger", "Boar")
    assert child[8] == (("Ox",), ("Crab",))


def test_root_scores_are_exact_within_the_margin_and_bounds_below_it():
    """A level's softmax needs exact scores only near the best move: with a margin, a move
    within it scores as with full windows, one below it gets an upper bound no lower than
    its true score."""
    compared = 0
    for variant, seed in (("base", 1), ("wind", 2), ("base", 3)):
        for ref, st in random_states(variant, seed, 30)[2::5]:
            full = dict(Searcher(ref.cards).search(st, Limits(depth=3), root_scores=True).root)
            near = dict(Searcher(ref.cards).search(st, Limits(depth=3), root_scores=True, margin=50).root)
            best = max(full.values())
            for mv, score in full.items():
                assert near[mv] == score if score >= best - 50 else near[mv] >= score
                compared += 1
    assert compared > 50


def test_quiescence_captures_match_the_full_generator():
    for variant in ("base", "wind", "seven", "nine", "conditional"):
        for seed in range(4):
            for ref, st in random_states(variant, seed, 50):
                s = Searcher(ref.cards, ref.engine.roles)
                assert s._captures(st) == s._captures_slow(st)

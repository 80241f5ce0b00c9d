"""The native search core against the Python search: the same moves, scores, depths, node
counts, principal variations and root scores on positions of random base and Wind games,
searched one after another on one searcher of each kind (so the tables and the history they
carry between moves are compared too), at node budgets and with small transposition tables
(so the table's clearing is compared too). The slow run covers 1,000 positions."""

import random
import subprocess
import threading
from pathlib import Path

import pytest

from companion.ai.agent import Player
from companion.ai.native import NativeSearcher, new_searcher
from companion.ai.native.searcher import core
from companion.ai.native.build import target
from companion.ai.search import Limits, Searcher
from companion.ai.view import SeatView
from companion.rules.ways import new_referee

import forward_core
from search_states import random_states, require_native

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def built():
    require_native()


# (root scores, margin): the levels' three ways of searching the root.
WAYS = ((False, None), (True, None), (True, 72))


def compare(variant: str, seed: int, nodes: int, tt_limit: int, every: int = 4) -> int:
    """Search every ``every``-th position of one game with both cores; returns how many."""
    states = random_states(variant, seed)[::every]
    if not states:
        return 0
    ref = states[0][0]
    py = Searcher(ref.cards, ref.engine.roles, tt_limit=tt_limit)
    native = NativeSearcher(ref.cards, ref.engine.roles, tt_limit=tt_limit, native_tt_limit=tt_limit)
    for i, (_, st) in enumerate(states):
        root_scores, margin = WAYS[(seed + i) % len(WAYS)]
        a = py.search(st, Limits(nodes=nodes), root_scores=root_scores, margin=margin)
        b = native.search(st, Limits(nodes=nodes), root_scores=root_scores, margin=margin)
        assert (b.move, b.score, b.depth, b.nodes) == (a.move, a.score, a.depth, a.nodes), (variant, seed, i)
        assert b.pv == a.pv and b.root == a.root, (variant, seed, i)
        # The same table: as many entries (a new key when full clears it, in both).
        assert native.tt_size() == len(py.tt) <= tt_limit, (variant, seed, i)
    return len(states)


@pytest.mark.parametrize("variant", ["base", "wind"])
def test_native_core_gives_the_python_search_results(variant):
    # Two games' worth of positions per variant, one table small enough to be cleared.
    assert compare(variant, 1, 4000, 100_000) + compare(variant, 2, 8000, 1500) >= 20


@pytest.mark.slow
def test_native_core_agrees_on_a_thousand_positions():
    count = 0
    seed = 100
    while count < 1000:
        for variant in ("base", "wind"):
            count += compare(variant, seed, 20_000, 50_000 if seed % 3 else 3000, every=2)
        seed += 1


@pytest.mark.parametrize("variant", ["seven", "nine", "conditional", "knowledge"])
def test_what_the_core_does_not_cover_goes_through_the_python_search(variant):
    states = random_states(variant, 3)[::6]
    ref = states[0][0]
    for _, st in states:
        a = Searcher(ref.cards, ref.engine.roles).search(st, Limits(nodes=3000))
        b = new_searcher(ref.cards, ref.engine.roles).search(st, Limits(nodes=3000))
        assert (b.move, b.score, b.nodes) == (a.move, a.score, a.nodes)


@pytest.mark.parametrize("variant", ["base", "wind"])
def test_a_game_with_either_core_is_the_same_game(variant):
    """Players at a node budget, one native and one Python per colour, against a random
    opponent: the same moves all game."""
    rng = random.Random(7)
    ref = new_referee(variant, seed=7)
    native, python = Player("strong", seed=1, nodes=3000), Player("strong", seed=1, nodes=3000, native=False)
    while ref.result is None and len(ref.log) < 40:
        seat = ref.to_act()[0]
        if seat == "red":
            view = SeatView.from_view(ref.view(seat))
            action = native.choose(view)
            assert python.choose(view) == action
            assert isinstance(native.searcher(view), NativeSearcher)
            ref.act(seat, action)
        else:
            ref.act(seat, rng.choice(ref.legal_actions(seat)))


@pytest.mark.parametrize("native", [True, False])
def test_a_stop_request_ends_an_unbounded_search(native):
    searcher = new_searcher(native=native)
    st = random_states("base", 5)[0][1]
    out = []
    thread = threading.Thread(target=lambda: out.append(searcher.search(st, Limits(depth=60))))
    thread.start()
    thread.join(0.3)                    # let it start (no timing is measured)
    assert thread.is_alive()
    searcher.request_stop()
    thread.join(60)
    assert not thread.is_alive() and out and out[0].move is not None and out[0].depth >= 1


def test_the_built_core_is_ignored_by_git():
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    proc = subprocess.run(["git", "check-ignore", "-q", str(target())], cwd=ROOT)
    assert proc.returncode == 0, f"{target()} would show in git status"


def test_the_product_core_does_not_carry_the_tables_check():
    """The full-depth check (tests/support/native/forward.c) is a test tool: it is built
    apart, and neither the core's sources nor the compiled core hold it."""
    require_native()
    assert not hasattr(core().lib, "fw_new")
    assert not list(Path(target()).parent.glob("forward.*"))
    proc = subprocess.run(["git", "check-ignore", "-q", str(forward_core.target())], cwd=ROOT)
    assert not (ROOT / ".git").exists() or proc.returncode == 0

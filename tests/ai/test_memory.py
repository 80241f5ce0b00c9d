"""Bounded memory: every table the computer grows has a bound (``companion.ai.memory``), set
per Raspberry Pi model, and never holds more than it."""


from companion.ai import memory
from companion.ai.agent import Player
from companion.ai.evaluate import Evaluator
from companion.ai.native import NativeSearcher
from companion.ai.search import Limits, Searcher, search_state
from companion.ai.view import SeatView
from companion.rules.engine import Engine
from companion.rules.position import parse_position
from companion.rules.ways import new_referee

from search_states import require_native

START = search_state(parse_position("bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"))


class Watched(Searcher):
    """A Python searcher that checks its table's size at every store."""

    most = 0

    def _store(self, h, entry):
        super()._store(h, entry)
        self.most = max(self.most, len(self.tt))


def test_the_python_table_never_holds_more_than_its_limit():
    s = Watched(tt_limit=500)
    for nodes in (3000, 20_000, 5000):
        s.search(START, Limits(nodes=nodes))
        assert 0 < len(s.tt) <= 500
    assert s.most == 500            # it filled up, and was cleared rather than grown


def test_the_native_table_never_holds_more_than_its_limit_nor_grows():
    require_native()
    s = NativeSearcher(native_tt_limit=500)
    size = s._lib.core_tt_bytes(s._ctx)
    for nodes in (3000, 20_000, 5000):
        s.search(START, Limits(nodes=nodes))
        assert 0 < s.tt_size() <= 500
    assert s._lib.core_tt_bytes(s._ctx) == size <= 1024 * 16


def test_the_evaluation_cache_never_holds_more_than_its_limit():
    ref = new_referee("wind", seed=3)
    ev = Evaluator(Engine(ref.cards, ref.engine.roles), limit=12)
    rng_moves = 0
    while ref.result is None and len(ref.log) < 80:
        st = ref.state.st
        if ref.state.phase == "move":
            ev(st[:8] + (((st[8][0],), ()),))
            assert ev.cached() <= 12
        seat = ref.to_act()[0]
        legal = ref.legal_actions(seat)
        ref.act(seat, legal[rng_moves % len(legal)])
        rng_moves += 7
    assert ev.cached() > 0


def test_the_budget_follows_the_board():
    assert memory.for_model("Raspberry Pi Zero 2 W Rev 1.0", setting="") == memory.SMALL
    assert memory.for_model("Raspberry Pi 5 Model B Rev 1.0", 4 << 30, "") == memory.LARGE
    assert memory.for_model("Raspberry Pi 5 Model B Rev 1.0", 8 << 30, "") == memory.LARGER
    assert memory.for_model(None, setting="") == memory.LARGE
    assert memory.SMALL.tt_entries < memory.LARGE.tt_entries


def test_searchers_made_after_the_budget_is_set_use_it():
    before = memory.budget()
    try:
        memory.set_budget(memory.SMALL)
        view = SeatView.from_view(new_referee("base", seed=1).view("red"))
        searcher = Player("hard").searcher(view)
        assert searcher.tt_limit == memory.SMALL.tt_entries
        assert searcher.evaluate.limit == memory.SMALL.eval_tables
        if isinstance(searcher, NativeSearcher):
            entries = searcher._lib.core_tt_bytes(searcher._ctx) // 16
            assert memory.SMALL.native_tt_entries * 2 <= entries < memory.SMALL.native_tt_entries * 4
    finally:
        memory.set_budget(before)

"""The cyclic collector's passes run between the game thread's events, not inside them
(companion/table/collector.py; docs/recognizer-hypotheses.md, session 39). Counted with
``gc.callbacks``, never timed."""

import gc
import threading

from companion.table.collector import collect_due, take_over
from companion.table.thread import GameThread

KEPT = 5000     # tracked objects an event keeps: over any young threshold


class _Passes:
    """The collector's passes, and how many of them started while ``inside`` was set."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.generations: list[int] = []
        self.during: list[int] = []

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            (self.during if self.inside.is_set() else self.generations).append(info["generation"])


def _taken_over(test):
    def run():
        passes = _Passes()
        gc.callbacks.append(passes)
        was = gc.get_threshold()
        gc.set_threshold(700, 10, 10)
        take_over()
        try:
            test(passes)
        finally:
            gc.enable()
            gc.set_threshold(*was)
            gc.callbacks.remove(passes)
    run.__name__ = test.__name__
    run.__doc__ = test.__doc__
    return run


@_taken_over
def test_the_game_thread_runs_the_pass_due_after_an_event_not_inside_it(passes):
    """An event (as a scan's recognizer call) that allocates past the young threshold: no pass
    inside it (the collector is off), and the young pass due runs after it on the game thread.
    Before, the thread never ran a pass: with the automatic collector off, none ran at all."""
    kept: list[list[int]] = []
    done = threading.Event()

    def event() -> None:
        passes.inside.set()
        kept.extend([i] for i in range(KEPT))
        passes.inside.clear()

    thread = GameThread(lambda: None, lambda: 0.05, lambda: None)
    gc.collect()
    passes.generations.clear()
    thread.start()
    try:
        thread.post(event)
        thread.post(done.set)
        assert done.wait(5)
    finally:
        thread.stop()
    assert passes.during == []
    assert passes.generations and gc.get_count()[0] < KEPT


@_taken_over
def test_collect_due_runs_the_generation_the_automatic_collector_would(passes):
    """Nothing under the young threshold; over it, a young pass, and the twelfth a
    generation-1 pass (over its threshold of 10 young passes), as the automatic collector
    counts them."""
    gc.collect()
    passes.generations.clear()
    assert collect_due() is None
    kept: list[list[int]] = []
    ran = []
    for _ in range(12):
        kept.extend([i] for i in range(800))
        ran.append(collect_due())
    assert ran == [0] * 11 + [1]
    assert passes.generations == ran

"""The debouncer: examples, then properties over random sample streams."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.debounce import Debouncer

W = 0.025


def feed(samples: list[tuple[float, frozenset[int]]], d: Debouncer | None = None) -> list[frozenset]:
    d = d or Debouncer(W)
    out = []
    for t, sample in samples:
        d = d.update(sample, t)
        out.append(d.stable)
    return out


def test_a_change_lands_after_the_window():
    d = Debouncer(W)
    d = d.update(frozenset({3}), 1.000)
    assert d.stable == frozenset() and d.next_deadline == 1.025 and not d.settled
    d = d.update(frozenset({3}), 1.020)
    assert d.stable == frozenset()
    d = d.update(frozenset({3}), 1.025)
    assert d.stable == frozenset({3}) and d.settled and d.next_deadline is None


def test_a_brush_resets_the_clock():
    d = Debouncer(W).update({3}, 0.0).update(set(), 0.010).update({3}, 0.020)
    assert d.update({3}, 0.030).stable == frozenset()  # only 10 ms since the run began
    assert d.update({3}, 0.045).stable == frozenset({3})


def test_keys_are_independent():
    d = Debouncer(W, frozenset({1})).update({2}, 0.0)
    assert d.stable == {1}
    d = d.update({2}, 0.030)
    assert d.stable == {2}


def test_a_settled_state_ignores_identical_samples():
    d = Debouncer(W, frozenset({4}))
    assert d.update({4}, 5.0) is d


# -- properties ------------------------------------------------------------------------------
KEYS = range(3)
gaps = st.floats(min_value=0.0005, max_value=0.015, allow_nan=False)
samples = st.frozensets(st.sampled_from(KEYS))
streams = st.lists(st.tuples(gaps, samples), min_size=1, max_size=80)


def timed(stream):
    t = 0.0
    out = []
    for gap, sample in stream:
        t += gap
        out.append((t, sample))
    return out


def run_start(samples, i, key, value):
    """Index of the first sample of the run of ``key`` reading ``value`` that ends at ``i``."""
    j = i
    while j > 0 and (key in samples[j - 1][1]) == value:
        j -= 1
    return j


@settings(max_examples=200, deadline=None)
@given(streams)
def test_a_key_changes_only_after_reading_the_same_for_a_whole_window(stream):
    samples = timed(stream)
    stable = feed(samples)
    previous = frozenset()
    for i, (t, _) in enumerate(samples):
        for key in stable[i] ^ previous:
            value = key in stable[i]
            assert (key in samples[i][1]) == value
            j = run_start(samples, i, key, value)
            assert t >= samples[j][0] + W
        previous = stable[i]


@settings(max_examples=200, deadline=None)
@given(streams)
def test_a_reading_held_for_a_window_is_always_reported(stream):
    samples = timed(stream)
    stable = feed(samples)
    for i, (t, sample) in enumerate(samples):
        for key in KEYS:
            value = key in sample
            j = run_start(samples, i, key, value)
            if t >= samples[j][0] + W:
                assert (key in stable[i]) == value


@settings(max_examples=200, deadline=None)
@given(st.floats(0.001, 0.0249), st.lists(st.booleans(), min_size=1, max_size=20), st.floats(0.001, 0.01))
def test_a_burst_shorter_than_the_window_never_flips(length, pattern, period):
    """Switch bounce: any pattern of readings within one burst shorter than the window."""
    t = 1.0
    d = Debouncer(W, frozenset({0}))  # a pawn at rest on square 0
    step = length / len(pattern)
    for closed in pattern:
        d = d.update(frozenset({0}) if closed else frozenset(), t)
        assert d.stable == {0}
        t += step
    d = d.update(frozenset({0}), t)
    for _ in range(10):
        t += period
        d = d.update(frozenset({0}), t)
        assert d.stable == {0}


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(0.001, 0.010), st.floats(0.0, 0.999))
def test_a_stable_change_lands_within_window_plus_one_scan(change_at, period, phase):
    """Scheduled like ScanLoop: every ``period``, plus a scan at ``next_deadline``. The first
    scan to see the change is at most one period late; the deadline scan lands it on time."""
    d = Debouncer(W)
    grid = phase * period
    t = grid
    while True:
        d = d.update(frozenset({7}) if t >= change_at else frozenset(), t)
        if d.stable:
            break
        while grid <= t:
            grid += period
        t = grid if d.next_deadline is None else min(grid, d.next_deadline)
    assert t <= change_at + W + period + 1e-9


@settings(max_examples=200, deadline=None)
@given(streams)
def test_skipping_identical_samples_until_the_deadline_changes_nothing(stream):
    """What a trace replay relies on: feed only new samples and samples at or past
    ``next_deadline``, and the stable set is the same wherever it is looked at."""
    samples = timed(stream)
    full = Debouncer(W)
    lazy = Debouncer(W)
    last_fed = None
    for t, sample in samples:
        full = full.update(sample, t)
        due = lazy.next_deadline is not None and t >= lazy.next_deadline
        if sample != last_fed or due:
            lazy = lazy.update(sample, t)
            last_fed = sample
        assert lazy.stable == full.stable

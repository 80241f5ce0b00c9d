"""The real scanner on the simulated matrix: orientation, ghosting, faults, bounce, the loop."""

from __future__ import annotations

import threading
import time

import pytest

from companion.rules.squares import parse_square
from firmware.debounce import Debouncer
from firmware.matrix import MatrixScanner, ScanLoop
from firmware.sim_mat import SimMat


def sq(*names: str) -> frozenset[int]:
    return frozenset(parse_square(n) for n in names)


@pytest.fixture
def mat(pinmap):
    mat = SimMat(pinmap)
    yield mat
    mat.close()


@pytest.fixture
def scanner(mat):
    with MatrixScanner(mat.pinmap.matrix, pin_factory=mat.factory) as scanner:
        yield scanner


def test_an_empty_mat_reads_empty(scanner):
    assert scanner.scan() == frozenset()


def test_every_square_reads_where_its_pawn_stands(mat, scanner):
    for square in range(25):
        mat.set_pawns({square})
        assert scanner.scan() == {square}
    mat.set_pawns(range(25))
    assert scanner.scan() == frozenset(range(25))


def test_orientation_follows_the_pin_map(mat, scanner):
    # a1 is the switch between the first row pin (rank 1) and the first column pin (file a).
    mat.place(parse_square("a1"))
    rows = mat.pinmap.matrix.rows
    columns = mat.pinmap.matrix.columns
    factory = mat.factory
    factory.by_bcm[rows[0]].state = False  # drive rank 1 by hand, as the scanner does
    assert factory.by_bcm[columns[0]].state is False
    assert all(factory.by_bcm[c].state for c in columns[1:])
    factory.by_bcm[rows[0]].state = True
    assert factory.by_bcm[columns[0]].state is True


RECTANGLE = sq("b2", "d2", "b4")  # three corners; the fourth is d4


def test_diodes_stop_ghosting(mat, scanner):
    mat.set_pawns(RECTANGLE)
    assert scanner.scan() == RECTANGLE


def test_without_diodes_three_corners_read_as_four(pinmap):
    mat = SimMat(pinmap, diodes=False)
    try:
        with MatrixScanner(pinmap.matrix, pin_factory=mat.factory) as scanner:
            mat.set_pawns(RECTANGLE)
            assert scanner.scan() == RECTANGLE | sq("d4")
            mat.set_pawns(sq("b2", "d2"))  # two pawns on a rank: no rectangle, no ghost
            assert scanner.scan() == sq("b2", "d2")
    finally:
        mat.close()


def test_a_dead_switch_and_a_cut_column_never_read(pinmap):
    column_c = pinmap.matrix.columns[2]
    mat = SimMat(pinmap, dead_switches=sq("a1"), cut_wires={column_c})
    try:
        with MatrixScanner(pinmap.matrix, pin_factory=mat.factory) as scanner:
            mat.set_pawns(range(25))
            assert scanner.scan() == frozenset(range(25)) - sq("a1", "c1", "c2", "c3", "c4", "c5")
    finally:
        mat.close()


# -- bounce and brushes through scanner + debouncer on a simulated clock ---------------------
def replay(mat, scanner, events, until, period=0.01, window=0.025):
    """Scan every ``period`` of simulated time, applying ``(t, action, square)`` events."""
    d = Debouncer(window)
    history = []
    pending = sorted(events)
    t = 0.0
    while t <= until:
        while pending and pending[0][0] <= t:
            _, action, square = pending.pop(0)
            (mat.place if action == "place" else mat.lift)(square)
        d = d.update(scanner.scan(), t)
        history.append((t, d.stable))
        t = round(t + period, 6)
    return history


def test_a_bouncing_placement_lands_once(mat, scanner):
    c3 = parse_square("c3")
    # The reed chatters for 8 ms (sampled at 1 ms here), then stays closed.
    events = [(0.100 + i * 0.002, "place" if i % 2 == 0 else "lift", c3) for i in range(5)]
    history = replay(mat, scanner, events, until=0.2, period=0.001)
    changes = [t for (t, s), (_, prev) in zip(history[1:], history) if s != prev]
    assert len(changes) == 1
    assert history[-1][1] == {c3}


def test_a_pawn_slid_across_squares_never_lands_on_them(mat, scanner):
    a1, b1, c1, d1 = (parse_square(n) for n in ("a1", "b1", "c1", "d1"))
    mat.place(a1)
    # Slid from a1 to d1 in 45 ms: 15 ms over each square in between.
    events = [(0.1, "lift", a1), (0.1, "place", b1), (0.115, "lift", b1), (0.115, "place", c1),
              (0.130, "lift", c1), (0.130, "place", d1)]
    d = Debouncer(0.025, frozenset({a1}))
    seen = set()
    t = 0.0
    pending = sorted(events)
    while t < 0.3:
        while pending and pending[0][0] <= t:
            _, action, square = pending.pop(0)
            (mat.place if action == "place" else mat.lift)(square)
        d = d.update(scanner.scan(), t)
        seen |= d.stable
        t = round(t + 0.002, 6)
    assert seen == {a1, d1}
    assert d.stable == {d1}


# -- the scan loop in real time --------------------------------------------------------------
def test_the_loop_reports_debounced_changes(mat, scanner):
    changes = []
    changed = threading.Event()

    def on_change(occupancy, t):
        changes.append((occupancy, t))
        changed.set()

    with ScanLoop(scanner, on_change) as loop:
        time.sleep(0.03)
        placed = time.monotonic()
        mat.place(12)
        assert changed.wait(1.0)
        assert changes[-1][0] == {12} and loop.occupancy == {12}
        # Never before the window, and within window + a period (plus scheduling slack).
        # (a scan's time is when it began, which may be just before the pawn landed)
        assert changes[-1][1] - placed >= 0.025 - 0.002
        assert changes[-1][1] - placed < 0.025 + loop.period + 0.02
        started, scans = time.monotonic(), loop.scans
        time.sleep(0.2)
        rate = (loop.scans - scans) / (time.monotonic() - started)
    assert rate >= 90  # the map asks for 100 Hz
    assert len(changes) == 1


def test_a_failing_callback_does_not_stop_the_loop(mat, scanner, caplog):
    calls = []

    def on_change(occupancy, t):
        calls.append(occupancy)
        raise RuntimeError("bug upstairs")

    with ScanLoop(scanner, on_change, scan_hz=500):
        mat.place(3)
        deadline = time.monotonic() + 1
        while len(calls) < 1 and time.monotonic() < deadline:
            time.sleep(0.005)
        mat.lift(3)
        while len(calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
    assert calls == [{3}, frozenset()]
    assert "on_change failed" in caplog.text


class ScriptedScanner:
    """Stands in for MatrixScanner: returns ``sample`` and notes when each scan ran."""

    def __init__(self, config):
        self.config = config
        self.sample = frozenset()
        self.scans: list[tuple[float, frozenset[int]]] = []

    def scan(self) -> frozenset[int]:
        self.scans.append((time.monotonic(), self.sample))
        return self.sample


def test_the_loop_scans_again_when_a_change_is_due(pinmap):
    """At 20 Hz (50 ms apart) a 25 ms window lands on a scan of its own, not the next tick."""
    scanner = ScriptedScanner(pinmap.matrix)
    landed = threading.Event()
    with ScanLoop(scanner, lambda occupancy, t: landed.set(), scan_hz=20, debounce_s=0.025):
        time.sleep(0.06)
        scanner.sample = frozenset({5})
        assert landed.wait(1.0)
    first_seen = next(t for t, s in scanner.scans if s)
    landing = next(t for t, s in scanner.scans if s and t >= first_seen + 0.025)
    assert landing - first_seen < 0.040

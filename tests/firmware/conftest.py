"""Fixtures for the hardware layer's tests: the default pin map, the simulated board, and a
check that no test leaves a thread running."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from firmware.hardware import Hardware, make_hardware
from firmware.pinmap import PinMap, load_pinmap


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 1.0
    while (leaked := [t for t in threading.enumerate() if t not in before and t.is_alive()]) \
            and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not leaked, f"threads left running: {[t.name for t in leaked]}"


@pytest.fixture(scope="session")
def pinmap() -> PinMap:
    return load_pinmap()


@pytest.fixture
def hw(pinmap: PinMap) -> Iterator[Hardware]:
    with make_hardware("sim", pinmap) as hardware:
        yield hardware

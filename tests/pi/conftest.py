"""The ``pi`` tests run only when asked for by name (``pytest -m pi``, or ``./dev pi-check``):
they need root and take tens of minutes under emulation. Any other run, ``./dev test`` and
``-m "not slow"`` included, skips them (a marker expression that names ``pi`` decides)."""

import re

import pytest


def pytest_collection_modifyitems(config, items):
    if re.search(r"\bpi\b", config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="the arm64 install check: run it with ./dev pi-check or pytest -m pi")
    for item in items:
        if "pi" in item.keywords:
            item.add_marker(skip)

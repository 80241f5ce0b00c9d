"""Waiting for a condition in tests, instead of sleeping for a guessed time."""

import time


def wait_for(predicate, timeout: float = 8.0, message=lambda: "condition not reached in time"):
    """Poll ``predicate`` until it returns something true (returned), or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(message())

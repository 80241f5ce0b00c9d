"""The publisher of streams: the newest view of each audience (each seat, and the public),
versioned, and subscriptions that wake when it changes.

Only the game thread publishes; any thread reads. A view is replaced, never changed in place,
so a reader may keep the dict it was given.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping

from .viewtypes import View


class Publisher:
    def __init__(self, audiences: Iterable[str | None]):
        self._changed = threading.Condition()
        # Until the first views are published each audience's view says only that.
        self._snapshots: dict[str | None, View] = {a: {"version": 0, "starting": True}
                                                   for a in audiences}
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def view(self, audience: str | None) -> View:
        with self._changed:
            return self._snapshots[audience]

    def publish(self, views: Mapping[str | None, View]) -> None:
        """Each audience's new view; the ones that differ from the last get the next version."""
        with self._changed:
            for audience, view in views.items():
                old = self._snapshots[audience]
                if {k: v for k, v in old.items() if k != "version"} != view:
                    self._snapshots[audience] = {**view, "version": old["version"] + 1}
            self._changed.notify_all()

    def subscribe(self, audience: str | None) -> Subscription:
        return Subscription(self, audience)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _newer(self, audience: str | None, seen: int, timeout: float,
               sub: Subscription) -> View | None:
        with self._changed:
            ready = self._changed.wait_for(
                lambda: sub.closed or self._closed or self._snapshots[audience]["version"] != seen,
                timeout)
            if not ready or sub.closed or self._closed:
                return None
            return self._snapshots[audience]

    def _wake(self) -> None:
        with self._changed:
            self._changed.notify_all()


class Subscription:
    """The views of one audience as they change: ``get()`` returns the newest one."""

    def __init__(self, publisher: Publisher, audience: str | None):
        self._publisher = publisher
        self._audience = audience
        self._seen = -1
        self.closed = False

    def get(self, timeout: float) -> View | None:
        """The newest view once it differs from the last one returned; None on timeout."""
        view = self._publisher._newer(self._audience, self._seen, timeout, self)
        if view is not None:
            self._seen = view["version"]
        return view

    def close(self) -> None:
        self.closed = True
        self._publisher._wake()

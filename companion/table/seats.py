"""The seats: one-time join codes, the phone session holding each seat, and takeovers.

Each seat has a one-time join token (what its QR code holds). A phone that redeems it gets a
session id; when another phone already holds the seat, the new one waits for the table to
allow it (button A) or refuse it (B). Redeeming and deciding run on the game thread; any
thread may ask which seat a session holds now, or how a takeover request stands.
"""

from __future__ import annotations

import base64
import secrets
import threading
import time
from dataclasses import dataclass

from ..rules.referee import SEATS
from .errors import Forbidden, NotFound

PENDING_S = 60.0      # how long a phone may wait for the table to let it take a seat
# The waiting page asks every second; a phone silent this long has gone away (closed the page,
# walked off), and the table is no longer asked about it. It is asked again if it comes back.
GONE_S = 6.0
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def mint() -> str:
    # Base32 in upper case: a QR code stores it in the compact alphanumeric mode.
    return base64.b32encode(secrets.token_bytes(10)).decode()


def token_shape(token: str) -> bool:
    # What mint makes: 16 characters of the base32 alphabet (compare_digest wants ASCII).
    return len(token) == 16 and all(ch in ALPHABET for ch in token)


@dataclass
class Takeover:
    """A phone asking for a held seat."""
    seat: str
    new: str                    # the session it gets if allowed
    until: float
    state: str = "waiting"      # waiting | allowed | refused | expired | withdrawn
    session: str | None = None
    seen: float = 0.0           # when the asking phone last asked how it stands


class Seats:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, str] = {seat: mint() for seat in SEATS}
        self._holders: dict[str, str] = {}
        self._pending: dict[str, Takeover] = {}

    def token(self, seat: str) -> str:
        with self._lock:
            return self._tokens[seat]

    def held(self) -> dict[str, bool]:
        """Which seats a phone holds, for the views."""
        with self._lock:
            return {s: s in self._holders for s in SEATS}

    def free_seat(self) -> str | None:
        with self._lock:
            return next((seat for seat in SEATS if seat not in self._holders), None)

    def seat_of(self, session: str | None) -> str | None:
        """The seat a phone's session holds now (None: none, or taken over since)."""
        with self._lock:
            return next((seat for seat, sid in self._holders.items() if sid == session), None)

    def check(self, kind: str, seat: str | None, session: str | None) -> str:
        """Game thread, with the request it guards: may ``seat`` make a ``kind`` request? A
        phone's request carries its ``session``, which must still hold the seat (a takeover
        allowed since the web thread looked refuses it). Returns the seat."""
        if seat is None:
            raise Forbidden(f"{kind!r} needs a seat")
        if session is not None and self.seat_of(session) != seat:
            raise Forbidden("this phone no longer holds the seat: it was taken over")
        return seat

    def redeem(self, token: str) -> dict[str, str]:
        """Game thread: ``{"seat", "session"}`` when the seat was free, or ``{"seat", "pending"}``
        when another phone holds it and the table must allow it."""
        seat = None
        if token_shape(token):
            seat = next((s for s, t in self._tokens.items() if secrets.compare_digest(t, token)), None)
        if seat is None:
            raise Forbidden("this join code is unknown or was used already: scan the one "
                            "the companion shows now")
        with self._lock:
            self._tokens[seat] = mint()
            session = secrets.token_urlsafe(18)
            if seat not in self._holders:
                self._holders[seat] = session
                return {"seat": seat, "session": session}
            pending_id = secrets.token_urlsafe(12)
            now = time.monotonic()
            self._pending[pending_id] = Takeover(seat, session, now + PENDING_S, seen=now)
        return {"seat": seat, "pending": pending_id}

    def pending(self, pending_id: str, withdraw: bool = False) -> dict[str, str | None]:
        """``{"state": "waiting" | "allowed" | "refused" | "expired" | "withdrawn", "seat",
        "session"}``. ``withdraw``: the asking phone gave up ("Stop asking", or its page
        closed): the table is no longer asked, at once rather than when the phone is missed
        (``GONE_S``)."""
        with self._lock:
            entry = self._pending.get(pending_id)
            if entry is None:
                raise NotFound("no such request to take a seat")
            if withdraw and entry.state == "waiting":
                entry.state = "withdrawn"
            now = time.monotonic()
            if entry.state == "waiting" and now > entry.until:
                entry.state = "expired"
            entry.seen = now
            return {"state": entry.state, "session": entry.session, "seat": entry.seat}

    def waiting(self) -> Takeover | None:
        """The takeover the table is asked about now, if any."""
        with self._lock:
            return self._waiting()

    def _waiting(self) -> Takeover | None:
        now = time.monotonic()
        return next((e for e in self._pending.values() if e.state == "waiting" and now <= e.until
                     and now - e.seen <= GONE_S), None)

    def decide(self, allow: bool) -> bool:
        """Game thread: the table's answer (A allows, B refuses) to the waiting takeover, checked
        and applied at once. False when none is waiting (the press means something else)."""
        with self._lock:
            entry = self._waiting()
            if entry is None:
                return False
            if allow:
                self._holders[entry.seat] = entry.new
                entry.state, entry.session = "allowed", entry.new
            else:
                entry.state = "refused"
        return True

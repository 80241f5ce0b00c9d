"""The seats: one-time join codes, the phone session holding each seat, and takeovers.

Each seat has a one-time join token (what its QR code holds). A phone that redeems it gets a
session id; when another phone already holds the seat, the new one waits until the seat's
holder allows or refuses it from its own phone. A seat played at the mat may also be handed
over by the table (button A allows, B refuses). A seat played from afar (remote) may not: the
person at the table is its opponent. Only once its phone has been silent for
``REMOTE_SILENT_S`` (lost, flat) does the table decide, and the phone is told why when it
comes back. A seat the computer plays has no join code at all. Redeeming and deciding run on
the game thread; any thread may ask which seat a session holds now, or how a takeover stands.
"""

from __future__ import annotations

import base64
import secrets
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules.referee import SEATS
from .errors import BadRequest, Conflict, Forbidden, NotFound

if TYPE_CHECKING:
    from .thread import GameThread

PENDING_S = 60.0      # how long a phone may wait for the table to let it take a seat
# The waiting page asks every second; a phone silent this long has gone away (closed the page,
# walked off), and the table is no longer asked about it. It is asked again if it comes back.
GONE_S = 6.0
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
# A remote seat's phone heard from within this (a request, or its open stream) still holds it
# against the table: only its holder gives it away. Silent longer, the table may.
REMOTE_SILENT_S = 120.0


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
        # Seats the computer plays: no join code, no phone, no view served to anyone.
        self._computer: frozenset[str] = frozenset()
        self._remote: frozenset[str] = frozenset()    # seats played from a phone afar
        self._seen: dict[str, float] = {}              # session -> when its phone was last heard
        self._lost: dict[str, str] = {}                # session -> why it lost its seat

    def seat_remote(self, seats: frozenset[str]) -> None:
        """Game thread: ``seats`` are played from a phone away from the table."""
        with self._lock:
            self._remote = seats

    def why_lost(self, session: str | None) -> str | None:
        """Why this phone's session no longer holds a seat, if it held one."""
        with self._lock:
            return self._lost.get(session or "")

    def seat_computer(self, seats: frozenset[str]) -> None:
        """Game thread, whenever the game may have changed: the computer plays ``seats``. A
        phone holding one loses it, a takeover waiting for one ends, and the join code
        shown before is worth nothing (a new one is made when a person may sit there again)."""
        with self._lock:
            if seats == self._computer:
                return
            for seat in seats ^ self._computer:
                self._tokens[seat] = mint()
            for seat in seats:
                self._holders.pop(seat, None)
            for entry in self._pending.values():
                if entry.seat in seats and entry.state == "waiting":
                    entry.state = "refused"
            self._computer = seats

    def joinable(self, seat: str) -> bool:
        """Whether a phone may join ``seat`` (the computer's has no join code)."""
        with self._lock:
            return seat not in self._computer

    def token(self, seat: str) -> str:
        with self._lock:
            if seat in self._computer:
                raise Forbidden(f"the computer plays {seat}: its seat has no join code")
            return self._tokens[seat]

    def held(self) -> dict[str, bool]:
        """Which seats a phone holds, for the views."""
        with self._lock:
            return {s: s in self._holders for s in SEATS}

    def free_seat(self) -> str | None:
        with self._lock:
            return next((seat for seat in SEATS if seat not in self._holders
                         and seat not in self._computer), None)

    def seat_of(self, session: str | None) -> str | None:
        """The seat a phone's session holds now (None: none, or taken over since)."""
        with self._lock:
            seat = next((seat for seat, sid in self._holders.items() if sid == session), None)
            if seat is not None and session is not None:
                self._seen[session] = time.monotonic()      # its phone is there
            return seat

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
            if seat in self._computer:      # its token was replaced: never reached, kept safe
                raise Forbidden(f"the computer plays {seat}: its seat has no join code")
            self._tokens[seat] = mint()
            session = secrets.token_urlsafe(18)
            if seat not in self._holders:
                self._holders[seat] = session
                self._seen[session] = time.monotonic()
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
            return self._waiting(by_table=True)

    def asked(self, seat: str) -> bool:
        """Whether a phone asks for ``seat`` now: its holder's page offers to give it up."""
        with self._lock:
            return any(e.seat == seat for e in self._asking())

    def _asking(self) -> list[Takeover]:
        now = time.monotonic()
        return [e for e in self._pending.values() if e.state == "waiting" and now <= e.until
                and now - e.seen <= GONE_S]

    def _waiting(self, *, by_table: bool) -> Takeover | None:
        """The takeover waiting for an answer; ``by_table``: one the table may give."""
        return next((e for e in self._asking() if not by_table or self._table_decides(e.seat)), None)

    def _table_decides(self, seat: str) -> bool:
        if seat not in self._remote:
            return True
        holder = self._holders.get(seat)
        return holder is None or time.monotonic() - self._seen.get(holder, 0.0) > REMOTE_SILENT_S

    def decide(self, allow: bool) -> bool:
        """Game thread: the table's answer (A allows, B refuses) to the waiting takeover it may
        decide, checked and applied at once. False when none is waiting (the press means
        something else)."""
        with self._lock:
            entry = self._waiting(by_table=True)
            if entry is None:
                return False
            why = (f"the table gave the {entry.seat} seat to another phone: this one was silent "
                   f"for more than {REMOTE_SILENT_S / 60:g} minutes" if entry.seat in self._remote
                   else f"another phone took the {entry.seat} seat")
            self._answer(entry, allow, why)
        return True

    def consent(self, seat: str, session: str | None, allow: bool) -> None:
        """Game thread: the seat's holder answers a phone asking for its seat from its own
        page (``session`` None: the service itself, as in tests)."""
        with self._lock:
            if session is not None and self._holders.get(seat) != session:
                raise Forbidden("this phone does not hold the seat")
            entry = next((e for e in self._asking() if e.seat == seat), None)
            if entry is None:
                raise Conflict("no phone asks for this seat now")
            self._answer(entry, allow, f"you gave the {seat} seat to another phone")

    def _answer(self, entry: Takeover, allow: bool, why: str) -> None:
        if allow:
            old = self._holders.get(entry.seat)
            if old is not None:
                self._lost[old] = why
            self._holders[entry.seat] = entry.new
            self._seen[entry.new] = time.monotonic()
            entry.state, entry.session = "allowed", entry.new
        else:
            entry.state = "refused"


class SeatDoors:
    """The seats as other threads ask about them (the web layer): join codes, redeeming one,
    a takeover's state, the seat a phone holds. Mixed into the service, which sets these."""

    _seats: Seats
    _thread: "GameThread"
    public_url: str | None

    def join_url(self, seat: str) -> str:
        """The URL a seat's QR code holds: one use, replaced once used. Shown on the OLED, and
        on the simulation page; never sent to any other page. A seat the computer plays has
        none (:class:`~.errors.Forbidden`)."""
        _check_seat(seat)
        return f"{(self.public_url or '').upper()}/J/{self._seats.token(seat)}"

    def joinable(self, seat: str) -> bool:
        """Whether ``seat`` has a join code now (not while the computer plays it)."""
        _check_seat(seat)
        return self._seats.joinable(seat)

    def redeem(self, token: str) -> dict[str, str]:
        """A phone scanned a join code. ``{"seat", "session"}`` when the seat was free, or
        ``{"seat", "pending"}`` when another phone holds it and the table must allow it."""
        if not isinstance(token, str):
            raise BadRequest("a join token is text")
        return self._thread.call(lambda: self._seats.redeem(token.strip().upper()))

    def pending(self, pending_id: str, withdraw: bool = False) -> dict[str, str | None]:
        """A takeover's state (``Seats.pending``); ``withdraw``: its phone gives up first."""
        return self._seats.pending(pending_id, withdraw)

    def seat_of(self, session: str | None) -> str | None:
        """The seat a phone's session holds now (None: none, or taken over since)."""
        return self._seats.seat_of(session)

    def why_lost(self, session: str | None) -> str | None:
        """Why a phone's session no longer holds the seat it held (told to that phone)."""
        return self._seats.why_lost(session)


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise NotFound(f"no seat {seat!r} (red or blue)")

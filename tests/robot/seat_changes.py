"""The table robot's changes of people: a phone replaced mid-game (a takeover, or a new phone
that asks and gives up), and a game abandoned for a new one (issue 23: "the robot sits
everywhere ... takeovers and abandoned games").

``SeatChanges`` is mixed into ``table_robot.Robot`` next to ``SeatPlay``; everything is done
alike in the world and its twin. Its draws come from their own generator, so that a game's
moves are those the same seed played before these changes existed.
"""

from __future__ import annotations

import json
import random

from companion.mat import oled
from companion.table.instructions import takeover_instruction

from instructions import check as check_instructions
from robot_checks import _found, world_secrets

TAKEOVER_P = 0.06           # how often, between turns, a person's phone is replaced
GIVE_UP_P = 0.35            # of those: the new phone asks, then gives up
ABANDON_P = 0.1             # how often a game is abandoned for a new one, at a turn drawn below
ABANDON_TURNS = (2, 14)     # the turns it may be abandoned at


class SeatChanges:
    takeovers_done = abandons = True

    def changes_rng(self) -> random.Random:
        if not hasattr(self, "_changes_rng"):
            self._changes_rng = random.Random(f"{self.way}-{self.seed}-{self.report.seating}-changes")
            self.abandon_at = (self._changes_rng.randrange(*ABANDON_TURNS)
                               if self._changes_rng.random() < ABANDON_P else None)
        return self._changes_rng

    # -- a phone replaced -------------------------------------------------------------------------

    def maybe_take_over(self) -> None:
        """Between turns, now and then (once a game at most): a new phone scans a person's
        seat code. The table (A) gives it a seat at the mat, the holder's phone a seat played
        from afar; the old phone then holds nothing and is told why, the new one plays on. Or
        the new phone gives up asking, and nobody is asked any more."""
        rng = self.changes_rng()
        if not self.takeovers_done or self.report.takeovers or rng.random() >= TAKEOVER_P:
            return
        view = self.world.public()
        if (view["game"]["status"] != "playing" or view["mat"]["state"] != "ok"
                or view["game"]["expected"] or view["mat"]["prompt"]):
            return
        seat = rng.choice([s for s in ("red", "blue") if self.kinds[s].kind != "computer"])
        gives_up = rng.random() < GIVE_UP_P
        for w in self.worlds():
            self.take_over(w, seat, gives_up)
        self.report.takeovers += 1
        self.report.gave_up += gives_up
        # The step before may have told the twins apart by the rules (a Lantern's answer):
        # check_twin drops the twin then, and compares them otherwise.
        self.check_twin()

    def take_over(self, w, seat: str, gives_up: bool) -> None:
        new = self.stranger_code(w, seat)
        remote = self.kinds[seat].kind == "remote"
        asked = list(oled.takeover_lines(seat)[:2])

        def asking() -> bool:
            new.json("/join/pending")          # the waiting page polls: the phone is still there
            if remote:
                return bool(self.seat_view(w, seat).get("takeover"))
            return w.public()["oled"][:2] == asked
        self.wait(asking, 5.0, f"nobody is asked about a new phone for {seat}")
        if gives_up:
            status, _ = new.request("/join/cancel", {})
            assert status == 200, status

            def still_asked() -> bool:
                view = w.public()
                return (view["oled"][:2] == asked or bool(self.seat_view(w, seat).get("takeover"))
                        or (view.get("instruction") or {}).get("title") == takeover_instruction(seat)["title"])
            self.wait(lambda: not still_asked(), 5.0,
                      f"the table kept asking about {seat}'s new phone after it gave up")
            return
        if remote:
            status, body = w.phones[seat].request("/seat/handover", {"allow": True})
            if status != 200:
                raise self.stuck(f"{seat}'s phone could not hand its seat over: {status} {body[:200]!r}")
            self.wait(lambda: new.json("/join/pending")["state"] == "allowed", 5.0,
                      f"{seat}'s seat was not handed to the new phone")
        else:
            self.press_until(w, "A", lambda: new.json("/join/pending")["state"] == "allowed",
                             f"A at the table did not hand {seat}'s seat to the new phone")
        old, w.phones[seat] = w.phones[seat], new
        status, body = old.request("/seat/view")
        if status != 403 or "seat" not in json.loads(body).get("error", ""):
            raise self.leak(f"{seat}'s old phone still holds the seat, or is not told why: {status} {body[:200]!r}")
        status, page = new.request("/seat")
        if status != 200 or f"{seat.title()}" not in page.decode():
            raise self.stuck(f"{seat}'s new phone's page: {status}, no {seat.title()!r} heading")
        if seat in w.streams:
            from table_robot import Stream
            w.streams[seat].close()
            w.streams[seat] = Stream(new, "/seat/events")

    # -- a game abandoned ---------------------------------------------------------------------------

    def maybe_abandon(self) -> bool:
        """At the turn drawn for it, a new game is dealt over this one: the old one is listed
        as abandoned, and its record replays to that. True: the game is over for the robot."""
        self.changes_rng()
        view = self.world.public()
        if (not self.abandons or self.abandon_at is None or len(view["table"]["log"]) < self.abandon_at
                or view["game"]["status"] != "playing"):
            return False
        for w in self.worlds():
            self.abandon(w)
        self.report.abandoned = 1
        self.compare_twins("after the game was abandoned")
        return True

    def finish_abandoned(self):
        """The robot's game ends with its abandon: the game dealt over it tells every screen
        what to do (set it up), and the checkers finish."""
        old, turns = self.world.abandoned
        self.report.turns, self.report.how = turns, "abandoned"
        check_instructions(self.world, probe=False, seed=f"{self.way}-{self.seed}")
        for checker in self.checkers:
            checker.finish(self)
        if self.twin is not None:
            self.twin.close()
            self.twin = None
        return self.report

    def abandon(self, w) -> None:
        old = w.game_id
        turns = len(w.public()["table"]["log"])
        secrets = world_secrets(w)
        w.deal(self.request, self.seed + 1)
        listed = next((g for g in w.table.json("/api/games") if g["id"] == old), None)
        if listed is None or (listed.get("result") or {}).get("how") != "abandoned":
            raise self.stuck(f"the abandoned game {old} is listed as {listed}")
        if listed["turns"] != turns:
            raise self.stuck(f"the abandoned game {old} is listed with {listed['turns']} turns, "
                             f"{turns} were played")
        status, body = w.table.request(f"/games/{old}/replay.json")
        if status != 200:
            raise self.stuck(f"the abandoned game {old} does not replay: {status} {body[:200]!r}")
        steps = json.loads(body)
        for path, text in ((f"/games/{old}/replay.json", body.decode()),
                           ("/api/games", json.dumps(listed)),
                           (f"/games/{old}/record.json", w.table.request(f"/games/{old}/record.json")[1].decode())):
            if found := _found(secrets, text):
                raise self.leak(f"the abandoned game's {path} names the hidden {found}")
        # Its page says why its hidden moves stay hidden (replay.js): abandoned, not "being played".
        if not steps["complete"] and (steps.get("result") or {}).get("how") != "abandoned":
            raise self.stuck(f"the abandoned game's replay does not say so: {steps.get('result')}")
        w.abandoned = (old, turns)

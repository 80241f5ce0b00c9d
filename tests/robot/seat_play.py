"""The table robot's seats beyond a player at the mat (``seat_kinds.py``), its hints, and the
people who do what is not theirs to do: a stranger scanning a seat's code, the opponent at
the table pressing A for a seat played from afar, anyone holding A in a way with secrets.

``SeatPlay`` is mixed into ``table_robot.Robot``; everything it does is done alike in the
world and its twin, so that the twin check compares what the others see after it.
"""

from __future__ import annotations

import json
import time

from companion.rules.actions import parse_action
from companion.rules.moves import Move
from companion.mat import oled
from companion.table import outputs

from seat_kinds import COMPUTER_STEP_S, HINT_P, WRONG_P, hint_on_mat

INTRUDE_P = 0.08            # how often, between turns, someone does what is not theirs to do
MAX_INTRUSIONS = 2          # a game


class SeatPlay:
    # The browser robot plays through the pages: its phones ask no hints, no stranger comes.
    hints_asked = True
    intruders = True

    # -- the worlds -------------------------------------------------------------------------

    def worlds(self):
        return [w for w in (self.world, self.twin) if w is not None]

    def both(self, do) -> None:
        for w in self.worlds():
            do(w)

    # -- a seat played from afar ----------------------------------------------------------------

    def remote_move(self, w, seat: str, text: str) -> None:
        """The remote phone sends its main-board move; someone at the table makes it on the mat
        where the table shows it."""
        view = self.seat_view(w, seat)
        status, body = w.phones[seat].request("/seat/action", {"text": text, "step": self.step_of(view)})
        if status != 200:
            raise self.stuck(f"{seat}'s remote move {text} refused: {status} {body[:200]!r}")
        if not json.loads(body).get("on_mat"):
            return                               # not a board move after all: played at once
        self.wait_expected(w, seat, text)
        self.mat_move(w, seat, text)

    def wait_expected(self, w, seat: str, text: str | None = None) -> dict:
        def shown():
            game = w.public()["game"]
            expected = game["expected"]
            return expected if expected and expected["seat"] == seat and (
                text is None or expected["text"] == text) else None
        return self.wait(shown, 10.0, f"the table never showed {seat}'s move {text} on the mat")

    # -- the computer ---------------------------------------------------------------------------

    def computer_turn(self, seat: str) -> None:
        """The computer's step, in both worlds; the same wrong move first, if any."""
        wrong = self.rng.random() if self.rng.random() < WRONG_P else None
        if self.twin is not None:
            # What the rules announce of its step (a Lantern's answer, a strike's hit) may
            # tell the worlds apart: the twin check compares it first (check_twin).
            self._twin_events_from = (len(self.world.referee().events(None)),
                                      len(self.twin.referee().events(None)))
        for w in self.worlds():
            self.computer_step(w, seat, wrong)

    def computer_step(self, w, seat: str, wrong: float | None = None) -> None:
        """Wait for the computer: a step it plays at once, or a move the mat must be made to
        show, which the hands make (now and then after a wrong one, guided back)."""
        before = self.progress_of(w.public())

        def decided():
            view = w.public()
            expected = view["game"]["expected"]
            if expected and expected["seat"] == seat and view["game"]["status"] == "playing":
                return expected
            # Played since (a step the mat does not show), or before the robot looked.
            done = self.progress_of(view) != before or seat not in view["table"]["to_act"]
            return {"played": True} if done else None
        decision = self.wait(decided, COMPUTER_STEP_S, f"the computer never played for {seat}")
        if "played" in decision:
            return
        text = decision["text"]
        if wrong is not None and self.wrong_move_for(w, seat, text, wrong):
            self.wait_expected(w, seat, text)
        self.mat_move(w, seat, text)
        if w is self.world:                       # counted once, not once a world
            self.report.mat_moves += 1
            self.report.computer_moves += 1

    def wrong_move_for(self, w, seat: str, text: str, draw: float) -> bool:
        """Hands make another move than the computer's (``draw`` picks which): the table does
        not play it, and guides the pawns back (the robot follows the marked squares), then
        shows its move again. False when the computer's seat has no other plain move."""
        legal = [a["text"] for a in w.referee().view(seat)["legal"]]
        right = text.split()[1] if len(text.split()) > 1 else ""
        # Another step on the mat (the same squares with another card is the same move there).
        others = sorted({t for t in legal if isinstance(m := parse_action(t), Move) and not m.is_pass
                         and m.spirit_from is None and m.to_sq is not None and t.split()[1] != right})
        if not others:
            return False
        wrong = others[int(draw * len(others))]
        before = w.public()["table"]["log"]
        self.emptied = {}
        card, frm_to = wrong.split()[0], wrong.split()[1]
        self.hands(w, frm_to[:2], frm_to[2:])
        self.wait(lambda: w.public()["game"]["status"] == "sync", 10.0,
                  f"the wrong move {wrong} for the computer ({text}) was not refused")
        assert w.public()["table"]["log"] == before, f"the wrong move {wrong} was played"
        if w is self.world:
            self.report.wrong_moves += 1
        self.set_mat(w)
        return True

    # -- hints ----------------------------------------------------------------------------------

    def maybe_hint(self, seat: str, text: str, from_afar: bool) -> None:
        """Before a move on the mat, now and then the mover asks for a hint: on the phone, or
        by holding A at the mat. In a way with secrets it shows on the phone alone (the mat
        and the OLED, compared between the twins with the pawn lifted, show nothing), and
        holding A spends none."""
        view = self.seat_view(self.world, seat)
        hints = view.get("hints") or {}
        if (not self.hints_asked or from_afar or hints.get("left", 0) <= 0
                or self.rng.random() >= HINT_P):
            return
        by_phone = self.rng.random() < 0.5
        hidden = view["game"]["variant"] in ("shadow", "light")
        for w in self.worlds():
            left = self.seat_view(w, seat)["hints"]["left"]
            if by_phone:
                status, body = w.phones[seat].request("/seat/hint", {"step": self.step_of(self.seat_view(w, seat))})
                if status != 200:
                    raise self.stuck(f"{seat}'s hint refused: {status} {body[:200]!r}")
            else:
                self.hold_a(w, seat)
            if by_phone or not hidden:
                try:
                    self.wait(lambda: self.seat_view(w, seat)["hints"]["on"], 30.0, "")
                except AssertionError:
                    now = self.seat_view(w, seat)["hints"]
                    if now["asking"] or now["left"] >= left:
                        raise self.stuck(f"{seat}'s hint never came ({'phone' if by_phone else 'A held'}):"
                                         f" {now}, the OLED {w.public()['oled']}") from None
                    # Asked, then dropped: the game moved on meanwhile (a read move amended).
                    self.report.notes.append(f"{seat}'s hint was dropped")
                    return
                self.report.hints += w is self.world
            else:
                time.sleep(0.3)
                w.settled()
                now = self.seat_view(w, seat)["hints"]
                if now["left"] != left or now["asking"] or now["on"]:
                    raise self.leak(f"holding A at the table spent {seat}'s hint in {view['game']['variant']}")
                self.report.refused += w is self.world
        if hidden and (by_phone):
            self.lifted_hint_check(seat, text)

    def hold_a(self, w, seat: str) -> None:
        """Hold A at the mat until the table answers it (a hint asked, or the OLED's "no
        hint"): on a loaded machine the scan may see a long press as a short one, and a
        player would hold it again."""
        said = {show.lines[0].split()[0] for show in (outputs.hint_asked_show(seat, 1),
                                                      outputs.NO_HINT_SHOW, outputs.HINT_ON_PHONE_SHOW)}
        hints = self.seat_view(w, seat)["hints"]
        # Harness: the announcements queued then (held, so that none is mistaken for a new
        # one: the queue may hold older ones still, and one like the last may follow it).
        shows = list(w.companion._display._shows)

        def answered() -> bool:
            return (self.seat_view(w, seat)["hints"] != hints
                    or any(all(show is not old for old in shows) and show.lines[0].split()[0] in said
                           for show in list(w.companion._display._shows)))
        for _ in range(5):
            w.button("A", long=True)
            try:
                self.wait(answered, 4.0, "")
                return
            except AssertionError:
                self.report.notes.append("held A again")
        raise self.stuck("holding A at the mat got no answer")

    def lifted_hint_check(self, seat: str, text: str) -> None:
        """The mover lifts the pawn of its move, hint on: the mat shows no grade, and the twins
        show the others the same things; then the pawn goes back down."""
        frm = text.split()[1][:2]
        if frm == "-" or len(frm) != 2:
            return
        for w in self.worlds():
            self.emptied = {}
            w.lift(frm)
        time.sleep(0.25)
        for w in self.worlds():
            w.settled()
            if hint_on_mat(w.companion._display._scene):
                raise self.leak(f"{seat}'s hint lights the mat in a way with secrets")
        self.compare_twins("with the hinted pawn lifted")
        for w in self.worlds():
            w.place(frm)
        time.sleep(0.2)

    # -- people doing what is not theirs to do --------------------------------------------------

    def maybe_intrude(self) -> None:
        """Between turns, now and then: a stranger scans a person's seat code and the table's
        buttons are pressed for it (a seat played from afar stays with its phone; one at the
        mat is refused at the table); or the pages of the OLED are turned, which never offer
        the computer's seat."""
        if (not self.intruders or self.report.intrusions >= MAX_INTRUSIONS
                or self.rng.random() >= INTRUDE_P):
            return
        view = self.world.public()
        if view["game"]["status"] != "playing" or view["mat"]["state"] != "ok" or view["game"]["expected"]:
            return
        people = [s for s in ("red", "blue") if self.kinds[s].kind != "computer"]
        seat = self.rng.choice(people)
        for w in self.worlds():
            if self.kinds[seat].kind == "remote":
                self.stranger_at_remote_seat(w, seat)
            else:
                self.stranger_at_mat_seat(w, seat)
            self.pages_skip_the_computer(w)
        self.report.intrusions += 1

    def stranger_code(self, w, seat: str):
        from table_robot import Client
        stranger = Client(w.server.url)
        status, _ = stranger.request("/J/" + w.companion.join_url(seat).rsplit("/J/", 1)[1])
        if status != 202:
            raise self.stuck(f"a stranger scanning {seat}'s code got {status}, not the waiting page")
        return stranger

    def stranger_at_remote_seat(self, w, seat: str) -> None:
        stranger = self.stranger_code(w, seat)
        w.button("A")                                    # the opponent, at the table
        time.sleep(0.3)
        w.settled()
        if stranger.json("/join/pending")["state"] != "waiting":
            raise self.leak(f"the table handed {seat}'s remote seat to a stranger")
        if not self.seat_view(w, seat).get("takeover"):
            raise self.stuck(f"{seat}'s phone is not asked about the stranger")
        status, _ = w.phones[seat].request("/seat/handover", {"allow": False})
        assert status == 200, status
        assert stranger.json("/join/pending")["state"] == "refused"

    def stranger_at_mat_seat(self, w, seat: str) -> None:
        stranger = self.stranger_code(w, seat)
        self.wait(lambda: w.public()["oled"][:2] == list(oled.takeover_lines(seat)[:2]), 5.0,
                  f"the table is not asked about a new phone for {seat}")
        w.button("B")                                    # the table refuses it
        self.wait(lambda: stranger.json("/join/pending")["state"] == "refused", 5.0,
                  "the table's B did not refuse the stranger")
        assert w.phones[seat].request("/seat/view")[0] == 200

    def pages_skip_the_computer(self, w) -> None:
        """Button C turns the OLED's pages round, back to the game's: none offers the
        computer's seat (the page number is read from the harness, since an announcement
        may cover a page)."""
        computer = [s for s, k in self.kinds.items() if k.kind == "computer"]
        if not computer:
            return
        seen = []
        for _ in range(4):
            page = w.companion._oled_page
            w.button("C")
            self.wait(lambda: w.companion._oled_page != page, 5.0, "button C turned no page")
            w.settled()
            seen.append((w.companion._display.shown, w.public()["oled"][:2]))
            if w.companion._oled_page == 0:
                break
        for seat in computer:
            if any(shown == seat or lines == list(oled.join_lines(seat)[:2]) for shown, lines in seen):
                raise self.leak(f"the OLED offers the computer's seat ({seat})")
            if w.companion.joinable(seat):
                raise self.leak(f"the computer's seat ({seat}) has a join code")
        if w.companion._oled_page != 0:
            raise self.stuck(f"button C never came back to the game's page: {seen}")

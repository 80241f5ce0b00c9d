"""The table robot in Chromium: the same random games, played through the pages themselves.

Both phones are seat pages in phone-sized tabs (each with its own cookie, joined by its seat's
code), the mat is the simulation page (``/sim``): pawns lifted and placed by clicking its
squares, the companion's buttons clicked under its OLED. A step is taken only through an
element of the page that matters, and that element must be enabled: a page that offers the
player nothing to do is stuck.
"""

from __future__ import annotations

import re
import time

from seat_kinds import MAT
from table_robot import HOLD_S, Robot, Stuck, World, played, step_key
from waiting import wait_for

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
CLICK_MS = 6000


class BrowserRobot(Robot):
    # The table robot's HTTP run covers those: hints, strangers, phones replaced, abandons.
    hints_asked = intruders = takeovers_done = abandons = False

    def __init__(self, world: World, way: str, seed: int, browser, seating: str = MAT):
        super().__init__(world, None, way, seed, seating)
        self.browser = browser
        self.contexts = []
        self.errors: list[str] = []
        self.sim = self._tab({"viewport": {"width": 1400, "height": 1000}})
        self.sim.goto(world.server.url + "/sim")
        self.sim.wait_for_selector("body[data-version]")
        self.phones: dict = {}

    def _tab(self, options: dict):
        context = self.browser.new_context(**options)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(CLICK_MS)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        assert not self.errors, f"errors in the pages: {self.errors}"

    # -- dealing and joining -----------------------------------------------------------------

    def deal(self, w: World) -> None:
        answer = w.table.json("/api/new-game", {**self.request, "seed": self.seed})
        w.game_id = answer["game"]
        for seat in ("red", "blue"):
            if seat not in self.phones and self.kinds[seat].kind != "computer":
                page = self._tab(PHONE)
                url = self.sim.get_attribute(f'a[data-link="{seat}"]', "href")
                page.goto(url)
                page.wait_for_url("**/seat")
                self.phones[seat] = page
        self.sim.wait_for_selector('body[data-status="sync"]')
        self.sim.get_by_role("button", name="Lay out the pawns for me").click()
        self.sim.wait_for_selector('body[data-status="playing"]')

    def seat_view(self, w: World, seat: str) -> dict:
        # What the phone's page draws: the seat's view, read by the harness.
        return w.companion.view(seat)

    # -- the phones ----------------------------------------------------------------------------

    def phone_step(self, w: World, seat: str, text: str) -> None:
        view = self.seat_view(w, seat)
        self.on_page(seat, view, text)
        before = played(view)
        try:
            wait_for(lambda: played(w.companion.view(seat)) != before, timeout=CLICK_MS / 1000)
        except AssertionError:
            raise Stuck(f"{self.way} seed {self.seed}: {seat} did {text!r} on the page and nothing "
                        f"happened: {self.phones[seat].locator('#action-error').inner_text()}") from None

    def remote_move(self, w: World, seat: str, text: str) -> None:
        """A seat played from afar: its page sends the move (its piece, its square, the
        confirm button), then someone at the table makes it where the mat shows it."""
        self.on_page(seat, self.seat_view(w, seat), text)
        self.wait_expected(w, seat, text)
        self.mat_move(w, seat, text)

    def on_page(self, seat: str, view: dict, text: str) -> None:
        """Do ``text`` on ``seat``'s page as a player does: taps on the board, then its button."""
        page = self.phones[seat]
        # The page has drawn this view (or a newer one) before the player acts on it.
        page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=view["version"])
        action = next(a for a in view["table"]["legal"] if a["text"] == text)
        kind = action.get("kind")

        def tap(square: str) -> None:
            page.locator(f'#board .square[data-square="{square}"]').click()

        def press(name: str) -> None:
            button = page.get_by_role("button", name=name, exact=True)
            if not button.is_enabled(timeout=CLICK_MS):
                raise Stuck(f"{self.way} seed {self.seed}: {seat}'s page has {name!r} disabled")
            button.click()

        try:
            if kind == "place":
                for square in action["squares"]:
                    tap(square)
                press("Hide on " + " and ".join(action["squares"]))
            elif kind in ("ninja", "strike", "move"):
                if page.locator(f'#board .square[data-square="{action["from"]}"].chosen').count() == 0:
                    tap(action["from"])
                tap(action["to"])
                card = "" if view["table"].get("card") else f"{action['card']}: "
                label = (f"{card}Strike from {action['to']}" if kind == "strike"
                         else f"{card}Ninja to {action['to']}" if kind == "ninja"
                         else f"{action['card']}: {action['from']} to {action['to']}{_spirit(text)}")
                press(label)
            elif kind == "lantern":
                line = f"rank {text[1]}" if text[1].isdigit() else f"file {text[1]}"
                press(line)
                press(f"Search {line}")
            elif kind == "pass":
                press(f"Pass, giving up {action['card']}")
            elif kind == "take":
                press(f"Take {action['card']}")
            else:
                press({"ninja": "Leave the Ninja where it is",
                       "lantern": "No Lantern this turn"}.get(view["table"].get("phase"), "Skip"))
        except Stuck:
            raise
        except Exception as exc:      # a control that never became usable
            raise Stuck(f"{self.way} seed {self.seed}: {seat}'s page at {step_key(view)} could not "
                        f"do {text!r}: {str(exc).splitlines()[0]}") from None

    def answer(self, w: World, seat: str, prompt: dict, choice: str) -> None:
        if choice in prompt["buttons"] and self.rng.random() < 0.5:
            self.sim.locator(f'.hw-button[data-button="{prompt["buttons"][choice]}"]').click()
        else:
            self.answer_on_phone(w, seat, prompt, choice)

    def answer_on_phone(self, w: World, seat: str, prompt: dict, choice: str) -> None:
        if seat not in self.phones:
            # The computer's seat has no phone: "Whose step was it?" is answered at the table,
            # where the OLED names the computer's step under C ("C: Red's Ox").
            reply = prompt.get("reply") or {}
            button = "C" if reply.get("seat") == seat else prompt["buttons"][choice]
            self.sim.locator(f'.hw-button[data-button="{button}"]').click()
            return
        page = self.phones[seat]
        page.locator("#prompt").wait_for()
        page.locator("#prompt-buttons").get_by_role(
            "button", name=re.compile(rf"^{re.escape(choice)}")).click()

    # -- the mat: clicks on the simulation page --------------------------------------------------

    def lift(self, w: World, square: str) -> None:
        self._click(w, square, lifting=True)
        self.emptied[square] = w.seen_empty(square)     # the hold counts from the mat's reading

    def place(self, w: World, square: str) -> None:
        since = self.emptied.pop(square, None)
        if since is not None:
            time.sleep(max(0.0, since + HOLD_S - time.monotonic()))
        self._click(w, square, lifting=False)

    def _click(self, w: World, square: str, lifting: bool) -> None:
        self.sim.locator(f'button.square[data-square="{square}"]').click()
        wait_for(lambda: (square in w.pawns()) != lifting, timeout=3,
                 message=lambda: f"the simulated switch on {square} did not follow the click")

    def fix_mat(self, w: World, wrong: list[str], want: set[str]) -> None:
        pawns = w.pawns()
        for square in wrong:
            if square in pawns and square not in want:
                self._click(w, square, lifting=True)
        for square in wrong:
            if square not in pawns and square in want:
                if self.sim.locator("#in-hand-pawns .pawn").count() == 0:
                    raise Stuck(f"{square} needs a pawn and the hand holds none")
                self._click(w, square, lifting=False)


def _spirit(text: str) -> str:
    """A Wind Spirit card's Spirit step, as its confirm button says it (seat.js stepLabel)."""
    steps = text.split()[2:3]
    if not steps:
        return ""
    return ", the Spirit stays" if steps[0] == "-" else f", Spirit {steps[0][:2]} to {steps[0][2:]}"

"""A question's buttons mean one card everywhere: the mat's buttons, its OLED and the phones
read the one option -> button map the question carries (``asking.buttons``).

The table robot, wind2 mat seed 117: red's Spirit rested 0.13 s and 0.12 s on its way, so one
red turn ``Spider d2d1 b1a2`` explained the mat as well as three turns ending in red's
``Monkey b1a2``, and the mat asked red: Spider or Monkey. Each is the second card of the hand
it was played from (Lion, Spider before the one turn; Lion, Monkey before the last of the
three), so button B cannot tell them apart. The phone named the buttons from the published
hand (B: Monkey), the mat took B as Spider, the OLED showed B:Spider A:Monkey (A meant
nothing): the robot pressed B for Monkey and the mat took two turns back."""

from __future__ import annotations

from companion.mat.recognizer import Recognizer
from companion.rules.squares import parse_square
from companion.table import outputs, views
from companion.table.session import new_session
from companion.table.store import GameStore

SETTLE = 0.06   # the robot's (tests/robot/table_robot.py SETTLE_S)
SCAN = 0.01

# The robot's hands in seed 117 (its trace, on the companion's clock): blue Spider e5d4 c3c2,
# red Boar d1d2, blue Monkey c2b1, then red's Spirit b1 -> b2 -> b1 -> a2 with its pawn d2d1.
HANDS = [(0.0207, "off", "e5"), (0.0607, "on", "d4"), (0.0704, "off", "c3"), (0.1004, "on", "c2"),
         (0.2304, "off", "d1"), (0.2605, "on", "d2"), (1.4304, "off", "c2"), (1.4604, "off", "b1"),
         (1.6708, "on", "b1"), (1.6805, "on", "c2"), (1.8505, "off", "d2"), (1.8844, "on", "d1"),
         (1.893, "off", "b1"), (1.9309, "on", "b2"), (2.0642, "off", "b2"), (2.1064, "on", "b1"),
         (2.2306, "off", "b1"), (2.2605, "on", "a2")]


class Table:
    """Seed 117's game at a table whose seats are all at the mat, its recognizer run on the
    trace's clock, each move or takeback it reads played as the service plays them."""

    def __init__(self, tmp_path) -> None:
        self.store = GameStore(tmp_path / "games.db")
        self.game = new_session(self.store, {"type": "new_game", "variant": "wind", "wind_cards": 2,
                                             "seed": 117}, ("base",))
        self.occ = set(self.game.table()[0])
        assert self.game.synced(frozenset(self.occ), SETTLE)
        self.rec = self.game.recognizer = Recognizer(" ".join(self.game.table()[1]),
                                                     cards=self.game.referee.cards, settle=SETTLE, t=0.0)
        self.t = 0.0

    def hands(self, steps) -> None:
        for t, what, square in steps:
            self.wait(t)
            (self.occ.discard if what == "off" else self.occ.add)(parse_square(square))
            self.play(self.rec.update(t, frozenset(self.occ)))

    def wait(self, until: float) -> None:
        while self.t + SCAN < until:
            self.t += SCAN
            self.play(self.rec.advance(self.t))

    def play(self, events) -> None:
        for e in events:
            if "move" in e:
                self.game.play(self.store, self.game.referee.to_act()[0], e["move"])
            elif "takeback" in e:
                self.game.play(self.store, None, "takeback")

    def view(self) -> dict:
        return views.view(self.game, None, occupancy=frozenset(self.occ), oled=(), seats={})

    def log(self) -> list[str]:
        return self.view()["table"]["log"]

    def phone(self) -> dict:
        """The question as the phones show it."""
        return self.view()["mat"]["prompt"]


def test_two_cards_at_one_place_in_their_hands_get_no_button(tmp_path):
    table = Table(tmp_path)
    table.hands(HANDS)
    table.wait(2.5)
    assert table.rec.prompt is not None and table.rec.prompt["seat"] == "red"
    assert table.rec.prompt["choose"] == ["Spider", "Monkey"]
    played = table.log()
    assert played[-2:] == ["Spider d2d1 b1b2", "Boar b2b1"]
    # The phone offers both cards by name, neither on a button (it showed B: Monkey).
    prompt = table.phone()
    assert prompt["choose"] == ["Spider", "Monkey"] and prompt["buttons"] == {}
    # The OLED names no button for either: it sends red to the phone.
    oled = table.rec.feedback().oled
    assert "Spider" in oled[2] and "Monkey" in oled[2] and ":" not in oled[2], oled
    assert oled[-1] == "tap the card on phone", oled
    # The mat's A and B answer nothing (B took back two turns for Spider).
    for name in ("A", "B"):
        table.play(table.rec.button(2.5, name))
    assert table.rec.prompt is not None and table.log() == played
    # Monkey answered on red's phone commits Monkey, the turns before it standing.
    table.play(table.rec.answer(2.6, "red", "Monkey"))
    table.wait(3.0)
    assert table.log() == [*played, "Monkey b1a2"]
    assert table.rec.prompt is None


def test_the_button_the_phone_shows_commits_that_card():
    # Red's a1a2 is Ox's step or Boar's: Ox is red's first card, Boar its second.
    for card, at in (("Ox", "A"), ("Boar", "B")):
        rec = Recognizer("bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab", settle=SETTLE, t=0.0)
        occ = set(rec.occupancy)
        rec.update(0.1, frozenset(occ - {parse_square("a1")}))
        rec.update(0.3, frozenset(occ - {parse_square("a1")} | {parse_square("a2")}))
        rec.advance(1.5)
        buttons = outputs.prompt_view(rec.prompt, lambda seat, option: None)["buttons"]
        assert buttons == {"Ox": "A", "Boar": "B"}
        assert rec.feedback().oled[2] == "A:Ox  B:Boar"
        assert [e["move"] for e in rec.button(1.6, buttons[card]) if "move" in e] == [f"{card} a1a2"]

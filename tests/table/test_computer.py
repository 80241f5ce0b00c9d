"""The computer at the table: whole games against a scripted human on the simulated mat,
its moves shown on the mat and committed only when the mat matches them, thinking off the
game thread, a seat played from a phone away from the table, and hints."""

from __future__ import annotations

import random
import threading
import time
from contextlib import contextmanager

import pytest

from companion.ai.hints import HintTable
from companion.ai.view import SeatView
from companion.rules.actions import parse_action
from companion.rules.moves import Move
from companion.rules.position import board_pieces
from companion.rules.squares import parse_square
from companion.rules.ways import WAYS
from companion.table import outputs
from companion.table.instructions import move_words
from companion.table.opponent import Thinking
from companion.rules.squares import square_name
from companion.table.errors import BadRequest, Conflict, Forbidden

from computer_helpers import make_on_mat, play_game, set_up
from sim_table import sim_companion
from waiting import wait_for

FAST = {"computer": Thinking(nodes=300, hint_nodes=300), "settle": 0.05}


@contextmanager
def playing_with_a_hint(tmp_path, hints):
    """A base game (seed 4, one hint a seat) laid out and playing, on a table whose hints are
    graded by ``hints`` (a stand-in for the search); yields (companion, hardware)."""
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(hints=hints)) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4, "hints": 1})
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        yield companion, hw


@pytest.fixture
def fast_table(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, **FAST) as t:
        yield t.companion, t.hardware


@pytest.mark.parametrize("variant, computer", [("base", "blue"), ("wind", "red"),
                                               ("shadow", "blue"), ("shadow", "red"),
                                               ("light", "red"), ("light", "blue"),
                                               ("seven", "blue"), ("knowledge", "red")])
def test_the_computer_plays_whole_games_against_a_human_at_the_mat(fast_table, variant, computer):
    companion, hw = fast_table
    human = "red" if computer == "blue" else "blue"
    companion.submit(None, {"type": "new_game", "variant": variant, "seed": 11,
                            "computer": {computer: "medium"}})
    set_up(companion, hw)
    result, shown = play_game(companion, hw, human, random.Random(f"{variant}{computer}"))
    # Against random moves, even at a few hundred nodes a move, the computer wins.
    assert result["winner"] == computer
    # Its moves were made on the mat by hand, as shown; in Way of the Light the Shadow
    # Master (Blue) has no pawns on the mat: all its steps are hidden, made by the table.
    # The variants the mat does not read are played on the phones: the computer's moves too,
    # and the mat is then brought in step by the lights.
    assert (shown > 0) == (WAYS[variant].mat_reads_moves and (variant != "light" or computer == "red"))
    game = companion.view(None)["game"]
    saved = next(g for g in companion.games() if g["id"] == game["id"])
    assert saved["header"]["computer"] == {computer: "medium"}


def expected_move(companion) -> Move:
    move = parse_action(wait_for(lambda: companion.view(None)["game"]["expected"])["text"])
    assert isinstance(move, Move)
    return move


def first_human_move(companion, hw, seat: str = "red") -> None:
    """``seat`` makes a move no other card reaches, on the mat."""
    log = len(companion.view(None)["table"]["log"])
    legal = companion.view(seat)["table"]["legal"]
    pairs = [(a["from"], a["to"]) for a in legal]
    action = next(a for a in legal if pairs.count((a["from"], a["to"])) == 1)
    make_on_mat(hw, companion.view(None)["table"]["position"], parse_action(action["text"]))
    wait_for(lambda: len(companion.view(None)["table"]["log"]) > log)


def test_the_computers_move_blinks_and_a_wrong_one_is_guided_back_not_played(fast_table):
    companion, hw = fast_table
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4,
                            "computer": {"blue": "medium"}})
    set_up(companion, hw)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    first_human_move(companion, hw)
    move = expected_move(companion)
    view = companion.view(None)
    # One sentence on every screen, in the glyphs the OLED has: "Make Blue's move for the
    # computer: Ox, b4 to b3".
    words = move_words("blue", view["game"]["expected"]["text"], view["table"]["position"])
    assert f"{square_name(move.from_sq)} to {square_name(move.to_sq)}" in words
    assert view["oled"][:2] == ["Make Blue's move", "for the computer:"]
    assert " ".join(view["oled"][2:]) == words
    assert view["instruction"]["title"] == "Make Blue's move"
    assert view["instruction"]["detail"].startswith(f"For the computer: {words}.")
    assert companion.view("red")["headline"]["detail"].startswith(f"For the computer: {words}.")
    # The mat tells the pawn to lift (it breathes in Blue's colour) from where it goes (blinks).
    blue = outputs.PALETTE["blue"]
    scene = outputs.expected_scene("blue", [(move.from_sq, move.to_sq)])
    assert scene[move.from_sq].kind == "pulse" and scene[move.to_sq].kind == "blink"
    assert scene[move.from_sq].rgb == scene[move.to_sq].rgb == blue
    wait_for(lambda: {parse_square(s) for s in companion.sim_state()["leds"]} <= {move.from_sq, move.to_sq}
             and companion.sim_state()["leds"])
    # Hands make another legal move for Blue: it is not played, and the mat says how to undo it.
    log = list(view["table"]["log"])
    other = next(a for a in companion.view("blue")["table"]["legal"]
                 if (parse_square(a["from"]), parse_square(a["to"])) != (move.from_sq, move.to_sq)
                 and a["from"] != a["to"] and parse_square(a["to"]) not in board_pieces(view["table"]["position"]))
    wrong = parse_action(other["text"])
    make_on_mat(hw, view["table"]["position"], wrong)
    wait_for(lambda: companion.view(None)["mat"]["state"] == "mismatch")
    mat = companion.view(None)["mat"]
    assert {parse_square(s) for s in mat["wrong"]} == {wrong.from_sq, wrong.to_sq}
    assert companion.view(None)["table"]["log"] == log               # nothing committed
    # The wrong pawn's square and the square it left light up (one blinks: seen both lit).
    wait_for(lambda: {parse_square(s) for s in companion.sim_state()["leds"]}
             == {wrong.from_sq, wrong.to_sq})
    # Put back: the move asked for shows again; made, it is played.
    hw.sim.lift(wrong.to_sq)
    hw.sim.place(wrong.from_sq)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing"
             and companion.view(None)["game"]["expected"])
    make_on_mat(hw, view["table"]["position"], move)
    wait_for(lambda: len(companion.view(None)["table"]["log"]) == len(log) + 1)
    assert companion.view(None)["game"]["expected"] is None


def test_a_wrong_move_made_for_the_computer_on_move_one_is_no_set_up(fast_table):
    """Red is the computer and moves first; hands make another move for it. The table says
    to put that pawn back (not "Set up"), and lights both the pawn and where it goes."""
    companion, hw = fast_table
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4,
                            "computer": {"red": "medium"}})
    assert companion.view(None)["table"]["to_act"] == ["red"]
    set_up(companion, hw)
    move = expected_move(companion)
    view = companion.view(None)
    pieces = board_pieces(view["table"]["position"])
    other = next(a for a in companion.view("red")["table"]["legal"]
                 if (parse_square(a["from"]), parse_square(a["to"])) != (move.from_sq, move.to_sq)
                 and parse_square(a["to"]) not in pieces)
    wrong = parse_action(other["text"])
    make_on_mat(hw, view["table"]["position"], wrong)
    wait_for(lambda: companion.view(None)["game"]["status"] == "sync")
    view = companion.view(None)
    assert view["setup"] is None and view["mat"]["state"] == "mismatch"
    assert view["instruction"]["title"] == f"Move the pawn on {other['to']} to {other['from']}"
    assert companion.view("blue")["headline"]["title"] == f"Move the pawn on {other['to']} to {other['from']}"
    wait_for(lambda: not companion.view(None)["oled"][0].startswith("Not that"))
    # The OLED says it as the pages do.
    assert companion.view(None)["oled"] == ["Put pawns back", f"Move the pawn on {other['to']}",
                                            f"to {other['from']}"]
    # Both lit: where the pawn goes, and the misplaced pawn itself, which is never dark (a
    # glance at the mat found only the square to return to).
    lit = set()
    wait_for(lambda: lit.update(companion.sim_state()["leds"]) or lit >= {other["from"], other["to"]})
    for _ in range(12):
        assert other["to"] in companion.sim_state()["leds"]
        time.sleep(0.05)
    hw.sim.lift(wrong.to_sq)
    hw.sim.place(wrong.from_sq)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing"
             and companion.view(None)["instruction"]["title"] == "Make Red's move")


class SlowPlayer:
    """A computer that thinks until told to stop, then plays its first legal board move."""

    def __init__(self):
        self.release = threading.Event()
        self.asked: list[SeatView] = []
        self.lock = threading.Lock()

    def choose(self, view: SeatView) -> str:
        with self.lock:
            self.asked.append(view)
        assert self.release.wait(30)
        return next(a for a in view.legal if not a.endswith("pass"))


def test_thinking_never_blocks_the_mat_or_the_phones_and_a_stale_decision_is_dropped(tmp_path):
    slow = SlowPlayer()
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(players=lambda *_: slow)) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4,
                                "computer": {"blue": "easy"}})
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        start = companion.view(None)["table"]["position"]
        first_human_move(companion, hw)
        wait_for(lambda: slow.asked)
        assert companion.view(None)["game"]["thinking"] is True
        # While it thinks: a phone's request is answered (refused: it is not Red's turn)...
        with pytest.raises(Conflict):
            companion.submit("red", {"type": "hint"}, timeout=2)
        # ... and the mat is read: Red takes the move back.
        red_move = parse_action(companion.view(None)["table"]["log"][0])
        hw.sim.lift(red_move.to_sq)
        hw.sim.place(red_move.from_sq)
        wait_for(lambda: companion.view(None)["table"]["log"] == [], timeout=3)
        assert companion.view(None)["table"]["position"] == start
        # The decision made for the position before the takeback arrives late: dropped.
        slow.release.set()
        first_human_move(companion, hw)
        wait_for(lambda: len(slow.asked) == 2)
        expected = wait_for(lambda: companion.view(None)["game"]["expected"])
        assert expected["text"] in slow.asked[1].legal
        assert len(companion.view(None)["table"]["log"]) == 1


def test_a_remote_seat_plays_from_its_phone_and_the_mat_shows_its_move(fast_table):
    companion, hw = fast_table
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4, "remote": ["blue"]})
    set_up(companion, hw)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    first_human_move(companion, hw)
    # Before Blue chooses: Blue's phone asks for a move there, not on the mat; the phone at the
    # table says its hands will make it.
    assert companion.view("blue")["headline"] == {
        "title": "Your turn", "detail": "Choose your move below: someone at the table makes it on the mat."}
    assert companion.view("red")["headline"]["detail"] == \
        "Blue is choosing on their phone: then make their move on the mat."
    legal = companion.view("blue")["table"]["legal"]
    action = legal[-1]
    answer = companion.submit("blue", {"type": "action", "text": action["text"]})
    assert answer == {"ok": True, "on_mat": True}
    assert len(companion.view(None)["table"]["log"]) == 1        # not played yet
    move = parse_action(action["text"])
    assert companion.view("blue")["headline"]["title"] == "Your move is on the mat"
    assert companion.view("red")["headline"]["title"] == "Make Blue's move"
    wait_for(lambda: companion.view(None)["oled"][:2] == ["Make Blue's move", "from Blue's phone:"])
    make_on_mat(hw, companion.view(None)["table"]["position"], move)
    wait_for(lambda: len(companion.view(None)["table"]["log"]) == 2)
    assert companion.view(None)["table"]["log"][1] == action["text"]
    with pytest.raises(BadRequest):
        companion.submit("red", {"type": "new_game", "variant": "base", "remote": ["green"]})


def test_set_up_options_are_checked(fast_table):
    companion, _ = fast_table
    for bad in ({"computer": {"blue": "godlike"}}, {"computer": ["blue"]},
                {"computer": {"blue": "easy"}, "remote": ["blue"]}, {"hints": -1},
                {"hints": True}, {"variant": "simultaneous", "computer": {"red": "easy"}}):
        with pytest.raises(BadRequest):
            companion.submit(None, {"type": "new_game", "variant": "base", **bad})
    assert companion.view(None)["game"] is None


def test_phones_cannot_act_for_the_computer(fast_table):
    companion, hw = fast_table
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4,
                            "computer": {"red": "easy"}})
    set_up(companion, hw)
    expected_move(companion)
    with pytest.raises(Forbidden):
        companion.submit("red", {"type": "action", "text": companion.view(None)["game"]["expected"]["text"]})
    with pytest.raises(Forbidden):
        companion.submit("red", {"type": "hint"})


def hold(companion, hw, name: str) -> None:
    """A long press, and the button let go again."""
    companion.sim_button(name, long=True)
    time.sleep(hw.sim.pinmap.buttons.long_press_s + 0.3)


def test_holding_b_at_set_up_seats_the_computer(fast_table):
    companion, hw = fast_table
    hold(companion, hw, "B")
    wait_for(lambda: companion.view(None)["game"])
    assert companion.view(None)["game"]["computer"] == {"blue": "medium"}
    # On the first page, whatever the deal (a deal of long names takes two pages).
    assert wait_for(lambda: companion.view(None)["oled"][1] == "Computer: Blue", timeout=12)
    position = companion.view(None)["table"]["position"]
    hold(companion, hw, "B")
    wait_for(lambda: companion.view(None)["game"]["computer"] == {"red": "medium"})
    assert companion.view(None)["table"]["position"] == position     # the same deal
    hold(companion, hw, "B")
    wait_for(lambda: companion.view(None)["game"]["computer"] == {})


def hues(leds: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
    """The lit squares' colours at full brightness (the strip dims them all alike)."""
    return {sq: tuple(round(c * 255 / max(rgb)) for c in rgb) for sq, rgb in leds.items() if max(rgb)}


def hint_on(companion, seat):
    return wait_for(lambda: companion.view(seat)["hints"]["on"] and companion.view(seat)["hints"])


def test_a_hint_colours_the_lifted_pawns_destinations_for_the_asking_seat_only(tmp_path):
    calls: list[SeatView] = []

    def graded(view: SeatView, nodes: int) -> dict[str, dict[str, str]]:
        calls.append(view)
        table: dict[str, dict[str, str]] = {}
        for i, a in enumerate(view.legal):
            table.setdefault(a.split()[1][:2], {})[a.split()[1][2:4]] = ("good", "risky", "losing")[i % 3]
        return table

    with playing_with_a_hint(tmp_path, graded) as (companion, hw):
        with pytest.raises(Conflict):
            companion.submit("blue", {"type": "hint"})                 # not Blue's turn
        assert companion.submit("red", {"type": "hint"}) == {"ok": True, "left": 0}
        hints = hint_on(companion, "red")
        assert calls[0].seat == "red" and len(calls) == 1
        assert "hints" not in companion.view(None) and companion.view("blue")["hints"]["grades"] is None
        frm, grades = next(iter(hints["grades"].items()))
        hw.sim.lift(parse_square(frm))
        want = {sq: outputs.HINT_COLOURS[g] for sq, g in grades.items()}
        wait_for(lambda: hues(companion.sim_state()["leds"]) == want,
                 message=lambda: f"{companion.sim_state()['leds']} != {want}")
        hw.sim.place(parse_square(frm))
        # The turn passes: the hint is gone, and Red's only hint is used.
        first_human_move(companion, hw)
        assert companion.view("red")["hints"] == {"left": 0, "on": False, "asking": False, "grades": None,
                                                  "exact": None}
        first_human_move(companion, hw, "blue")
        with pytest.raises(Conflict):
            companion.submit("red", {"type": "hint"})


class SlowTables:
    """A stand-in for the deal's endgame tables that never finishes building."""

    def __init__(self) -> None:
        self.started: list[tuple[str, ...]] = []

    def start(self, cards, table) -> bool:
        self.started.append(tuple(sorted(cards)))
        return True

    def building(self):
        return (3.0, 42) if self.started else None


@pytest.mark.parametrize("variant, built", [("base", True), ("wind", False)])
def test_the_deal_s_endgames_are_built_at_the_deal_with_their_progress_on_the_oled(tmp_path, monkeypatch,
                                                                                    variant, built):
    from companion.table import opponent
    tables = SlowTables()
    monkeypatch.setattr(opponent, "TABLES", tables)
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(nodes=300, hint_nodes=300, endgames=True)) as t:
        companion = t.companion
        companion.submit(None, {"type": "new_game", "variant": variant, "seed": 4, "hints": 1})
        wait_for(lambda: companion.view(None)["game"] is not None)
        if not built:
            time.sleep(0.5)
            assert tables.started == []
            return
        wait_for(lambda: tables.started)
        fields = companion.view(None)["table"]["position"].split()
        assert tables.started == [tuple(sorted(fields[2].split(",") + fields[3].split(",") + [fields[4]]))]
        wait_for(lambda: companion.view(None)["oled"][:2] == ["Endgames", "solving: 42%"],
                 message=lambda: companion.view(None)["oled"])


def test_a_solved_hint_says_its_outcome_on_the_phone_and_the_oled(tmp_path):
    """A hint on a position the deal's endgame table holds carries each destination's exact
    outcome: the asking seat's phone gets the words, the OLED says the fastest win."""
    def solved(view: SeatView, nodes: int) -> HintTable:
        table = HintTable()
        first = view.legal[0].split()[1][:4]
        for a in view.legal:
            frm, to = a.split()[1][:2], a.split()[1][2:4]
            table.setdefault(frm, {})[to] = "good" if frm + to == first else "losing"
            table.exact.setdefault(frm, {})[to] = "wins in 3" if frm + to == first else "loses in 2"
        return table

    with playing_with_a_hint(tmp_path, solved) as (companion, hw):
        companion.submit("red", {"type": "hint"})
        hints = hint_on(companion, "red")
        wins = [f"{frm}-{to}" for frm, row in hints["exact"].items() for to, words in row.items()
                if words == "wins in 3"]
        assert len(wins) == 1 and len(hints["exact"]) >= 1
        assert companion.view("blue")["hints"]["exact"] is None
        wait_for(lambda: companion.view(None)["oled"][:2] == ["Red hint: solved", f"{wins[0]} wins in 3"],
                 message=lambda: companion.view(None)["oled"])


def test_a_hint_by_holding_a_at_the_mat_uses_the_real_search(fast_table):
    companion, hw = fast_table
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4})
    set_up(companion, hw)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    companion.sim_button("A", long=True)
    hints = hint_on(companion, "red")
    legal = {(a["from"], a["to"]) for a in companion.view("red")["table"]["legal"]}
    graded = {(frm, to) for frm, row in hints["grades"].items() for to in row}
    assert graded == legal
    assert set(g for row in hints["grades"].values() for g in row.values()) <= set(outputs.HINT_COLOURS)
    assert companion.view("red")["hints"]["left"] == 2



def test_the_hints_used_stay_used_after_a_restart(tmp_path):
    """A power cut does not hand back a hint: the hints asked for are on disk with the game."""
    with sim_companion(tmp_path / "games.db", public_url=None, **FAST) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4, "hints": 2})
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        assert companion.submit("red", {"type": "hint"})["left"] == 1
        hint_on(companion, "red")
        pawns = set(hw.sim.pawns)
    with sim_companion(tmp_path / "games.db", public_url=None, **FAST) as t:
        companion, hw = t.companion, t.hardware
        hw.sim.set_pawns(pawns)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        assert companion.view("red")["hints"]["left"] == 1
        assert companion.submit("red", {"type": "hint"})["left"] == 0


def test_a_capture_made_for_a_remote_seat_is_said_and_lit_amber(fast_table):
    """Blue plays from afar and takes a pawn: every screen says so, and its destination
    blinks amber (take that pawn off) while the pawn to lift breathes blue."""
    companion, hw = fast_table
    rng = random.Random(5)
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4, "remote": ["blue"]})
    set_up(companion, hw)
    for _ in range(40):
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        first_human_move(companion, hw)
        position = companion.view(None)["table"]["position"]
        pieces = board_pieces(position)
        legal = [a for a in companion.view("blue")["table"]["legal"] if a.get("to")]
        captures = [a for a in legal if pieces.get(parse_square(a["to"]), "") in "rR" and
                    pieces.get(parse_square(a["to"]))]
        action = captures[0] if captures else rng.choice(legal)
        companion.submit("blue", {"type": "action", "text": action["text"]})
        if captures:
            break
        make_on_mat(hw, position, parse_action(action["text"]))
        wait_for(lambda: companion.view(None)["game"]["expected"] is None)
    assert captures, "no capture came up"
    view = companion.view(None)
    assert ", takes a" in view["instruction"]["detail"] or ", takes the master" in view["instruction"]["detail"]
    assert "takes" in " ".join(view["oled"])
    seen: dict[str, set] = {action["from"]: set(), action["to"]: set()}
    wait_for(lambda: [seen[sq].add(tuple(companion.sim_state()["leds"].get(sq, (0, 0, 0))))
                      for sq in seen] and any(c[0] > 0 and c[1] > 0 and c[2] == 0 for c in seen[action["to"]])
             and any(c[2] > 0 and c[0] == 0 for c in seen[action["from"]]))

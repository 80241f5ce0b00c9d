"""Whose step was it, when it was the move made for the computer: the table answers with the
card of the move it asked for (issue 23, found by the Chromium robot in a Wind game: the mat
asked "Blue: which card? B: Rabbit or Red: Ox, Crab" after the hands made the computer's
"Ox b1b2", and waited for Red's phone; the computer has none, and no button offers two cards).

The recognizer is a stand-in holding the question, so the question is exactly the one seen.
"""

from __future__ import annotations

from types import SimpleNamespace

from companion.mat.readings import read_move
from companion.rules.actions import parse_action
from companion.rules.board import Board
from companion.table.computer import Expected
from companion.table.opponent import Opponent


# Red to move in a Wind game, the computer's Ox b1b2 among its moves.
WIND = "bbBbb/5/2W2/5/rrRrr red Ox,Crab Rabbit,Tiger Eel"


class Asking:
    """A recognizer with a question waiting, reading the game at ``position`` with the mat
    showing ``shown`` made there; it records the answers it is given."""

    def __init__(self, prompt: dict, position: str = WIND, shown: str = "Ox b1b2"):
        self.prompt, self.answers = prompt, []
        self.board = Board(position)
        self.occupancy = read_move(self.board.position, self.board.parse(shown)).occupancy

    def answer(self, t: float, seat: str, card: str, takeback: bool = False) -> list[dict]:
        self.answers.append((seat, card))
        return [{"move": "answered", "card": card}]


def game_asking(prompt: dict, text: str = "Ox b1b2", seat: str = "red", position: str = WIND,
                shown: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(recognizer=Asking(prompt, position, shown or text), status="playing",
                           expected=Expected(seat, text, parse_action(text), "computer"))


def test_the_computers_step_is_answered_by_the_table_as_the_reply():
    game = game_asking({"seat": "blue", "choose": ["Rabbit"],
                        "reply": {"seat": "red", "choose": ["Ox", "Crab"]}})
    events: list[dict] = []
    Opponent.answer_for_expected(game, events.extend)
    assert game.recognizer.answers == [("red", "Ox")]
    assert events == [{"move": "answered", "card": "Ox"}]


def test_the_computers_card_is_answered_when_it_is_asked_which_card():
    game = game_asking({"seat": "red", "choose": ["Ox", "Crab"]})
    Opponent.answer_for_expected(game, lambda events: None)
    assert game.recognizer.answers == [("red", "Ox")]


def test_a_question_the_expected_move_does_not_answer_is_left_to_the_players():
    # Neither the asked seat nor the reply is the computer's with its card: people answer.
    for prompt in ({"seat": "blue", "choose": ["Rabbit", "Eel"]},
                   {"seat": "blue", "choose": ["Rabbit"], "reply": {"seat": "red", "choose": ["Crab"]}}):
        game = game_asking(prompt)
        Opponent.answer_for_expected(game, lambda events: None)
        assert game.recognizer.answers == [], prompt


def test_a_step_that_is_not_the_computers_move_is_left_to_the_mover():
    """The Chromium robot's wind2 game with the computer as Blue: Red played Eagle b1a2 (its
    Spirit staying), then moved the Spirit d4b4: Hawk's Spirit step, Red amending its turn to
    Hawk b1a2 d4b4, or Blue's Rabbit d4b4. The table answered Blue's Rabbit, the computer's
    card, though its move was Rabbit c4d5: the move read was refused, the mat out of sync."""
    position = "b1B1b/2bW1/2b2/r4/r1Rrr blue Ox,Hawk Dragon,Rabbit Eagle"   # after Eagle b1a2 -
    prompt = {"seat": "red", "choose": ["Hawk"], "reply": {"seat": "blue", "choose": ["Rabbit"]}}
    game = game_asking(prompt, "Rabbit c4d5", "blue", position, shown="Rabbit d4b4")
    Opponent.answer_for_expected(game, lambda events: None)
    assert game.recognizer.answers == []
    # The hands made the computer's move itself: the table says it was the computer's step.
    game = game_asking(prompt, "Rabbit c4d5", "blue", position)
    Opponent.answer_for_expected(game, lambda events: None)
    assert game.recognizer.answers == [("blue", "Rabbit")]


class Plays:
    def __init__(self, text: str):
        self.text = text

    def choose(self, view) -> str:
        return self.text


def test_the_tables_answer_is_in_the_trace(tmp_path, capsys):
    """``--record-trace`` with a computer seat: the table's answer for the computer is
    recorded as a phone's answer is, so the trace replays to the same moves (it was missing:
    the replay of a robot's failed game waited on the question and then read nothing right)."""
    import time
    from companion.rules.squares import parse_square
    from companion.table.opponent import Thinking
    from companion.tracetool import main as trace_main
    from mat_moves import LIFTED_S, set_up
    from sim_table import sim_companion
    from waiting import wait_for
    # Red (the computer) holds Ox and Boar: a1a2 is either card's, so the mat asks which.
    cards = {"red": ["Ox", "Boar"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       record_trace=tmp_path / "mat.jsonl",
                       computer=Thinking(players=lambda *_: Plays("Boar a1a2"))) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "cards": cards,
                                "computer": {"red": "easy"}})
        set_up(companion, hw)
        wait_for(lambda: companion.view(None)["game"]["expected"])
        hw.sim.lift(parse_square("a1"))
        time.sleep(LIFTED_S)
        hw.sim.place(parse_square("a2"))
        wait_for(lambda: companion.view(None)["table"]["log"] == ["Boar a1a2"])
        time.sleep(0.2)
    assert trace_main([str(tmp_path / "mat.jsonl")]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if '"move"' in line]
    assert len(printed) == 1 and '"Boar a1a2"' in printed[0], printed


def test_an_answer_given_as_the_question_is_asked_replays():
    """The table answers the computer's question the moment it is asked; the replay scans on
    its own grid, up to a scan period behind the live loop, so it asked 4 ms after the
    recorded answer and dropped it (the trace of the robot's wind0 remote game 102)."""
    from companion.tracetool import replay
    header = {"trace": 1, "position": "bbBbb/5/5/5/rrRrr red Ox,Boar Monkey,Crane Dragon",
              "variant": "base", "settle": 0.06, "scan_hz": 100.0, "debounce_ms": 25.0}
    # Live: a2 seen at 0.0451, stable 25 ms later, at rest 60 ms more: asked at 0.1301.
    events = [{"t": 0.0351, "off": "a1"}, {"t": 0.0451, "on": "a2"},
              {"t": 0.1305, "input": {"seat": "red", "card": "Boar"}}, {"t": 1.0, "end": True}]
    out = list(replay(header, events, settle=0.06, debounce_s=0.025, scan_hz=100.0))
    assert [e["move"] for e in out if "move" in e] == ["Boar a1a2"], out


def test_a_winning_move_sent_from_a_phone_away_is_played_with_its_own_card(tmp_path):
    """Blue, away from the table, sends Monkey c5d4, which takes Red's master; Elephant would
    too, so the mat asks which card. Every card asked about wins, and the table answered the
    first, Elephant: not the move asked for, refused, the mat sent out of sync at the game's
    last move (the robot's wind0 remote game 102)."""
    from companion.rules.actions import parse_action
    from mat_moves import make_on_mat, set_up
    from sim_table import sim_companion
    from waiting import wait_for
    cards = {"red": ["Tiger", "Monkey"], "blue": ["Elephant", "Eel"], "side": "Boar"}
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "cards": cards, "remote": ["blue"]})
        set_up(companion, hw)
        for n, (seat, text) in enumerate([("red", "Tiger c1c3"), ("blue", "Eel a5b4"), ("red", "Monkey c3d4"),
                                          ("blue", "Tiger b4b2"), ("red", "Boar e1e2"), ("blue", "Monkey c5d4")]):
            wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
            if seat == "blue":
                companion.submit("blue", {"type": "action", "text": text})
                wait_for(lambda: companion.view(None)["game"]["expected"])
            make_on_mat(hw, companion.view(None)["table"]["position"], parse_action(text))
            wait_for(lambda: len(companion.view(None)["table"]["log"]) == n + 1
                     or companion.view(None)["game"]["status"] == "sync",
                     message=lambda: str(companion.view(None)))
        assert companion.view(None)["table"]["log"][-1] == "Monkey c5d4"
        assert companion.view(None)["table"]["result"]["winner"] == "blue"

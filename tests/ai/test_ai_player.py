"""The computer player from a seat's view: every open mode, the levels, the commands."""

import json
import random

import pytest

from companion import cli
from companion.ai.agent import Player, UnsupportedMode, choose
from companion.ai.levels import LEVELS, Level
from companion.ai.search import WIN
from companion.ai.view import SeatView, ViewError
from companion.rules.board import Board
from companion.rules.ways import new_referee


@pytest.mark.parametrize("variant", ["base", "wind", "seven", "nine", "knowledge", "conditional"])
def test_the_computer_plays_legal_games_of_every_open_mode(variant):
    for seed in range(2):
        ref = new_referee(variant, seed=seed)
        players = {"red": Player("medium", seed=1, nodes=300), "blue": Player("easy", seed=2, nodes=300)}
        while ref.result is None and len(ref.log) < 60:
            seat = ref.to_act()[0]
            ref.act(seat, players[seat].choose(SeatView.from_view(ref.view(seat))))   # raises if illegal
        assert len(ref.log) > 0


def test_the_computer_takes_nothing_but_a_seat_view():
    ref = new_referee("base", seed=3)
    with pytest.raises(TypeError):
        choose(ref, "easy")
    with pytest.raises(TypeError):
        choose(ref.view("red"), "easy")
    with pytest.raises(ViewError):
        SeatView.from_view(ref.view(None))      # the public view is no seat's


def test_simultaneous_play_is_out_of_scope():
    ref = new_referee("simultaneous", seed=1)
    with pytest.raises(UnsupportedMode):
        choose(SeatView.from_view(ref.view("red")), "easy", nodes=100)


def test_the_same_seed_and_node_budget_give_the_same_choices():
    ref = new_referee("wind", seed=5)
    view = SeatView.from_view(ref.view(ref.to_act()[0]))
    for name in LEVELS:
        assert choose(view, name, seed=9, nodes=800) == choose(view, name, seed=9, nodes=800)


def test_a_level_never_passes_over_a_win_and_prefers_good_moves():
    lv = Level("x", 3, None, None, 50.0)
    rng = random.Random(0)
    scored = [(("a",), 10), (("b",), WIN - 3), (("c",), -40)]
    assert all(lv.pick(scored, rng) == ("b",) for _ in range(50))
    scored = [(("a",), 100), (("b",), 0), (("c",), -WIN + 2)]
    picks = [lv.pick(scored, rng) for _ in range(400)]
    assert ("c",) not in picks                       # a forced loss while others remain
    assert picks.count(("a",)) > 3 * picks.count(("b",))
    assert Level("y", 3, None, None, 0.0).pick(scored, rng) == ("a",)


def test_bestmove_prints_a_legal_move_on_its_last_line(capsys):
    position = "bbBbb/5/2W2/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"
    assert cli.main(["bestmove", position, "--nodes", "2000"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    board = Board(position)
    assert board.parse(last) in board.legal_moves


def test_bestmove_finds_a_win_in_one_and_writes_a_pass(capsys):
    # Red's master on c4 with Tiger reaches nothing useful, but Ox takes c5? Blue's master
    # stands on c5: Crab's (0, 1) from c4 captures it.
    assert cli.main(["bestmove", "2B2/2R2/5/5/5 red Crab,Tiger Ox,Horse Boar", "--level", "easy",
                     "--nodes", "500"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "Crab c4c5"
    assert cli.main(["bestmove", "4R/5/5/5/B4 red Fox,Mejika Tiger,Crab Monkey", "--nodes", "500"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] in ("Fox pass", "Mejika pass")


def test_match_prints_one_json_line_per_game(capsys):
    assert cli.main(["match", "--variant", "wind", "--games", "2", "--red", "easy", "--blue", "random",
                     "--seed", "4", "--nodes", "200"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["game"] for x in lines] == [0, 1]
    for x in lines:
        assert x["variant"] == "wind" and x["red"] == "easy" and x["blue"] == "random"
        assert x["how"] in ("stone", "stream", "unfinished") and x["plies"] > 0


@pytest.mark.parametrize("argv", [
    ["bestmove", "not a position"],
    ["bestmove", "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab", "--level", "grandmaster"],
    ["bestmove", "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab", "--time", "0"],
    ["match", "--variant", "simultaneous", "--games", "1"],
    ["match", "--variant", "chess"],
    ["match", "--red", "nobody"],
])
def test_bad_input_exits_2(argv, capsys):
    assert cli.main(argv) == 2
    assert capsys.readouterr().err.startswith("error:")


def test_hints_grade_a_lifted_pawns_destinations():
    from companion.ai.hints import hint_scores, hint_table
    from companion.rules.engine import Engine
    from companion.rules.squares import square_name
    from companion.rules.variants import ClassicReferee

    # Red's master on c4: Crab c4c5 takes Blue's master; Tiger c4c3 keeps a forced win (the
    # prover: Blue loses within 4 plies); Crab to a4 or e4 loses by force (Blue wins in 5).
    ref = ClassicReferee("2B2/2R2/5/5/5 red Crab,Tiger Ox,Horse Boar")
    hints = hint_scores(SeatView.from_view(ref.view("red")), 17, nodes=20000)
    assert hints == {"c5": "good", "c3": "good", "a4": "losing", "e4": "losing"}
    # Over random positions: a destination after which the opponent wins at once, whatever
    # card took the pawn there, is losing; every graded destination is a legal one.
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        ref = new_referee("base", seed=seed)
        while ref.result is None and len(ref.log) < 30:
            seat = ref.to_act()[0]
            view = SeatView.from_view(ref.view(seat))
            st = ref.state.st
            moves = ref.engine.moves(st)
            table = hint_table(view, nodes=1500)
            for frm in {mv[1] for mv in moves if mv[1] >= 0}:
                hints = table[square_name(frm)]
                dests = {}
                for mv in moves:
                    if mv[1] == frm:
                        child = Engine.apply(st, mv)
                        hangs = not mv[5] and any(m[5] for m in ref.engine.moves(child))
                        dests.setdefault(mv[2], []).append(hangs)
                assert set(hints) == {square_name(t) for t in dests}
                for t, hangs in dests.items():
                    if all(hangs):
                        assert hints[square_name(t)] == "losing"
                        checked += 1
            ref.act(seat, rng.choice(ref.legal_actions(seat)))
    assert checked > 5

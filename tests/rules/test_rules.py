"""One hand-made position for every rule and edge in the rulebooks."""

import pytest

from companion.rules.board import Board, Outcome
from companion.rules.errors import IllegalMoveError
from companion.rules.squares import parse_square as sq


def moves(board):
    return sorted(str(m) for m in board.legal_moves)


# -- base game ---------------------------------------------------------------------------

def test_start_position_moves_exclude_off_board_and_own_pawn_targets():
    board = Board("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    # Tiger's backward step leaves the board; Crab's sideways steps land on own pawns.
    assert moves(board) == sorted(
        [f"Tiger {f}1{f}3" for f in "abcde"] + [f"Crab {f}1{f}2" for f in "abcde"])


def test_capture_by_landing_only():
    board = Board("2B2/5/2b2/2r2/2R2 red Tiger,Ox Crab,Crane Dragon")
    # Tiger jumps the student on c3 from c2 to c4: nothing is captured on the way.
    board.push("Tiger c2c4")
    assert board.position.piece_at(sq("c3")) == "b"
    board.pop()
    board.push("Ox c2c3")
    assert board.position.piece_at(sq("c3")) == "r"
    assert bin(board.position.blue).count("1") == 1


def test_capturing_the_master_wins_by_stone():
    board = Board("5/2B2/2r2/5/2R2 red Ox,Crab Tiger,Crane Dragon")
    board.push("Ox c3c4")
    assert board.outcome() == Outcome("red", "stone")
    assert list(board.legal_moves) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        board.push("Tiger c2c4")


def test_master_on_the_opposing_temple_arch_wins_by_stream():
    board = Board("B4/1R3/5/5/5 red Monkey,Ox Crab,Crane Dragon")
    board.push("Monkey b4c5")
    assert board.outcome() == Outcome("red", "stream")


def test_blue_master_on_reds_temple_arch_wins_for_blue():
    board = Board("5/5/4R/1B3/5 blue Crab,Crane Monkey,Ox Dragon")
    board.push("Monkey b2c1")  # Blue's forward-right is Red's down-left
    assert board.outcome() == Outcome("blue", "stream")


def test_a_student_on_the_temple_arch_wins_nothing():
    board = Board("B4/1r3/5/5/2R2 red Monkey,Ox Crab,Crane Dragon")
    board.push("Monkey b4c5")
    assert board.outcome() is None and board.turn == "blue"


def test_own_master_on_own_temple_arch_wins_nothing():
    board = Board("2B2/5/5/2R2/5 red Tiger,Ox Crab,Crane Dragon")
    board.push("Tiger c2c1")
    assert board.outcome() is None


def test_card_exchange():
    board = Board("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    board.push("Tiger c1c3")
    pos = board.position
    assert pos.hands == (("Dragon", "Crab"), ("Monkey", "Crane")) and pos.side == ("Tiger",)
    board.push("Crane a5a4")
    assert board.position.hands == (("Dragon", "Crab"), ("Monkey", "Tiger"))
    assert board.position.side == ("Crane",)


def test_blue_reads_cards_from_its_own_side():
    # Tiger's forward two steps for Blue go toward rank 1.
    board = Board("bbBbb/5/5/5/rrRrr blue Monkey,Crane Tiger,Crab Dragon")
    assert "Tiger c5c3" in moves(board) and "Tiger c5c7" not in moves(board)


POSITION_WITHOUT_MOVES = "B3r/4r/4r/4r/4R red Fox,Ox Tiger,Crab Dragon"


@pytest.mark.parametrize("given_up", ["Fox", "Ox"])
def test_a_pass_gives_up_the_chosen_card(given_up):
    board = Board(POSITION_WITHOUT_MOVES)
    assert moves(board) == ["Fox pass", "Ox pass"]
    before = board.position
    board.push(f"{given_up} pass")
    after = board.position
    assert (after.red, after.blue, after.red_master) == (before.red, before.blue, before.red_master)
    kept = "Ox" if given_up == "Fox" else "Fox"
    assert set(after.hands[0]) == {kept, "Dragon"} and after.side == (given_up,)
    assert board.turn == "blue"


def test_no_pass_while_a_move_is_legal():
    board = Board("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    with pytest.raises(IllegalMoveError, match="may pass only when"):
        board.push("Tiger pass")


def test_illegal_moves_change_nothing_and_say_why():
    board = Board("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    before = board.position
    cases = {
        "Tiger c1c4": "does not move Red's master from c1 to c4",
        "Crab a1b1": "does not move",
        "Crab a1c1": "holds Red's own pawn",
        "Monkey a1b2": "not in Red's hand",
        "Tiger b2b4": "no pawn on b2",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            board.push(text)
        assert board.position == before and board.move_stack == []


# -- dual cards --------------------------------------------------------------------------

def test_dual_card_master_and_student_patterns():
    board = Board("2B2/5/5/5/r1R1r red Kumo,Ox Tiger,Crab Dragon")
    kumo = {m for m in moves(board) if m.startswith("Kumo")}
    # Students step diagonally forward; the master's two-sideways steps land on own students.
    assert kumo == {"Kumo a1b2", "Kumo e1d2"}
    alone = Board("2B2/5/5/5/2R2 red Kumo,Ox Tiger,Crab Dragon")
    # The master alone uses the master pattern only: not the students' diagonal steps.
    assert {m for m in moves(alone) if m.startswith("Kumo")} == {"Kumo c1a1", "Kumo c1e1"}


# -- Way of the Wind -----------------------------------------------------------------------

def test_a_regular_card_moves_the_spirit_oriented_for_its_player():
    board = Board("bbBbb/5/2W2/5/rrRrr red Ox,Crab Monkey,Crane Dragon")
    spirit = {m for m in moves(board) if m.split()[1].startswith("c3")}
    assert spirit == {"Ox c3c4", "Ox c3d3", "Ox c3c2", "Crab c3c4", "Crab c3a3", "Crab c3e3"}
    blue = Board("bbBbb/5/2W2/5/rrRrr blue Monkey,Crane Ox,Crab Dragon")
    assert {m for m in moves(blue) if m.startswith("Ox c3")} == {"Ox c3c2", "Ox c3b3", "Ox c3c4"}


def test_the_spirit_never_lands_on_a_master():
    board = Board("bbBbb/5/2W2/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    assert "Tiger c3c5" not in moves(board)
    with pytest.raises(IllegalMoveError, match="may not land on a master"):
        board.push("Tiger c3c5")
    own = Board("2B2/5/5/2W2/2R2 red Ox,Crab Monkey,Crane Dragon")
    assert "Ox c2c1" not in moves(own)


def test_no_pawn_lands_on_the_spirit():
    board = Board("bbBbb/5/2W2/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    with pytest.raises(IllegalMoveError, match="no pawn may land on it"):
        board.push("Tiger c1c3")


@pytest.mark.parametrize("student", ["r", "b"])
def test_the_spirit_swaps_with_a_student_of_either_colour(student):
    board = Board(f"2B2/2{student}2/2W2/5/2R2 red Ox,Crab Monkey,Crane Dragon")
    board.push("Ox c3c4")
    pos = board.position
    assert pos.piece_at(sq("c4")) == "W" and pos.piece_at(sq("c3")) == student
    assert board.outcome() is None


def test_the_spirit_wins_nothing_on_the_temple_arch():
    board = Board("B4/5/2W2/5/2R2 red Tiger,Ox Crab,Crane Dragon")
    board.push("Tiger c3c5")
    assert board.position.piece_at(sq("c5")) == "W" and board.outcome() is None


def test_a_spirit_move_swapping_onto_a_temple_arch_wins_nothing():
    # A Red student swapped onto c5 is still only a student.
    board = Board("B1r2/5/2W2/5/2R2 red Tiger,Ox Crab,Crane Dragon")
    board.push("Tiger c3c5")
    assert board.position.piece_at(sq("c3")) == "r" and board.outcome() is None


def test_wind_spirit_card_moves_a_pawn_then_the_spirit():
    board = Board("bbBbb/5/2W2/5/rrRrr red Eagle,Tiger Monkey,Crane Dragon")
    board.push("Eagle b1c2 c3a5")
    pos = board.position
    # The Spirit swapped with Blue's student on a5.
    assert pos.piece_at(sq("a5")) == "W" and pos.piece_at(sq("c3")) == "b"
    assert pos.piece_at(sq("c2")) == "r"


def test_wind_spirit_card_must_move_the_spirit_when_it_can():
    board = Board("bbBbb/5/2W2/5/rrRrr red Eagle,Tiger Monkey,Crane Dragon")
    with pytest.raises(IllegalMoveError, match="must take Eagle's bottom step"):
        board.push("Eagle b1c2 -")


def test_wind_spirit_card_whose_first_step_has_no_option():
    # Red's master alone on e1: Lion's top steps (forward-right, back-left) leave the board.
    board = Board("2B2/5/2W2/5/4R red Lion,Fox Crab,Crane Dragon")
    lion = [m for m in moves(board) if m.startswith("Lion")]
    assert lion == ["Lion - c3c4"]     # c5 holds Blue's master
    board.push("Lion - c3c4")
    assert board.position.spirit == sq("c4")


def test_wind_spirit_card_whose_second_step_has_no_option():
    # From c4, Eagle's bottom steps (two up and two sideways) leave the board.
    board = Board("bbBbb/2W2/5/5/rrRrr red Eagle,Tiger Monkey,Crane Dragon")
    eagle = [m for m in moves(board) if m.startswith("Eagle")]
    assert "Eagle b1c2 -" in eagle and all(m.endswith(" -") for m in eagle)


def test_a_wind_spirit_card_with_no_step_at_all_cannot_be_played():
    # From e1 neither Lion's nor Scorpion's top steps stay on the board, and from c5 every
    # bottom step of both leaves it too.
    stuck = Board("B1W2/5/5/5/4R red Lion,Scorpion Crab,Crane Dragon")
    assert moves(stuck) == ["Lion pass", "Scorpion pass"]
    # The Spirit on c4 could step to c5 with Lion, but Blue's master stands there.
    blocked = Board("2B2/2W2/5/5/4R red Lion,Scorpion Crab,Crane Dragon")
    assert [m for m in moves(blocked) if m.startswith("Lion")] == []
    # Move Blue's master away and the Spirit step alone makes Lion playable.
    lonely = Board("B4/2W2/5/5/4R red Lion,Fox Crab,Crane Dragon")
    assert [m for m in moves(lonely) if m.startswith("Lion")] == ["Lion - c4c5"]


def test_a_winning_top_step_ends_the_game_without_a_spirit_step():
    board = Board("1rB2/1R3/2W2/5/5 red Eagle,Tiger Monkey,Crane Dragon")
    eagle = [m for m in moves(board) if m.startswith("Eagle b4c5")]
    assert eagle == ["Eagle b4c5 -"]
    with pytest.raises(IllegalMoveError, match="wins the game"):
        board.push("Eagle b4c5 c3a5")
    board.push("Eagle b4c5 -")
    assert board.outcome() == Outcome("red", "stone")


def test_a_winning_top_step_to_the_temple_arch():
    board = Board("B4/1R3/2W2/5/5 red Eagle,Tiger Monkey,Crane Dragon")
    board.push("Eagle b4c5 -")
    assert board.outcome() == Outcome("red", "stream")


def test_a_pawn_blocked_by_the_spirit_leaves_only_the_spirit_step():
    # Lion: the student's c1 -> d2 is the Spirit's square, every other top step leaves the board.
    board = Board("B4/5/5/3W1/2r1R red Lion,Ox Crab,Crane Dragon")
    assert [m for m in moves(board) if m.startswith("Lion")] == ["Lion - d2d3", "Lion - d2d4"]


def test_a_wind_spirit_card_step_swaps_with_the_student_it_just_moved():
    # Spider: top (1,1) or (0,-1); bottom includes (0,-1). Student c1 -> d2, then the Spirit on
    # d3 steps down onto d2 and swaps with it: the student ends on d3.
    board = Board("B4/5/3W1/5/2r1R red Spider,Ox Crab,Crane Dragon")
    board.push("Spider c1d2 d3d2")
    pos = board.position
    assert pos.spirit == sq("d2") and pos.piece_at(sq("d3")) == "r"


def test_a_dual_card_moves_the_spirit_with_its_student_pattern():
    board = Board("2B2/5/2W2/5/2R2 red Kumo,Ox Crab,Crane Dragon")
    kumo_spirit = {m for m in moves(board) if m.startswith("Kumo c3")}
    assert kumo_spirit == {"Kumo c3b4", "Kumo c3d4"}  # not the master's c3a3/c3e3


def test_starting_player_follows_the_side_cards_stamp():
    assert Board("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon").turn == "red"
    from companion.rules.deal import fixed_deal
    assert fixed_deal(["Tiger", "Crab"], ["Monkey", "Crane"], "Dragon").position.turn == 0
    assert fixed_deal(["Tiger", "Crab"], ["Monkey", "Dragon"], "Crane").position.turn == 1


def test_a_side_without_a_master_has_not_lost_by_the_stone():
    # Way of the Light: the Shadow Master has no master at all, which wins Red nothing;
    # a master captured still does.
    from dataclasses import replace
    from companion.rules.position import ABSENT, parse_position
    pos = parse_position("5/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon")
    assert pos.winner() == (0, "stone")
    board = Board(replace(pos, blue_master=ABSENT))
    assert board.outcome() is None and len(board.legal_moves) == 10

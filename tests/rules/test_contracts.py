"""Position strings and move notation, exactly as docs/positions.md has them."""

import pytest

from companion.rules.errors import NotationError, PositionError
from companion.rules.moves import Move, parse_move
from companion.rules.position import parse_position
from companion.rules.squares import parse_square, square_name

START = "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"
WIND = "bbBbb/5/2W2/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"


def test_squares():
    assert [parse_square(n) for n in ("a1", "e1", "c3", "a5", "E5")] == [0, 4, 12, 20, 24]
    assert square_name(22) == "c5"
    with pytest.raises(ValueError, match="not a square"):
        parse_square("f1")


@pytest.mark.parametrize("text", [START, WIND,
                                  "1R3/5/2b2/W4/5 blue Sea-Snake,Kumo Tiger,Eagle Otter"])
def test_position_round_trip(text):
    assert str(parse_position(text)) == text


def test_start_position_pieces():
    pos = parse_position(START)
    assert pos.piece_at(2) == "R" and pos.piece_at(22) == "B" and pos.piece_at(0) == "r"
    assert pos.turn == 0 and pos.hands == (("Tiger", "Crab"), ("Monkey", "Crane"))
    assert parse_position(WIND).spirit == 12


def test_card_names_are_case_insensitive_with_dashes_for_spaces():
    pos = parse_position("bbBbb/5/5/5/rrRrr red sea-snake,TIGER Monkey,Crane Dragon")
    assert pos.hands[0] == ("Sea Snake", "Tiger")
    assert str(pos).split()[2] == "Sea-Snake,Tiger"


@pytest.mark.parametrize("text,field,reason", [
    ("bbBbb/5/5/5 red Tiger,Crab Monkey,Crane Dragon", "board", "expected 5 ranks"),
    ("bbBbb/5/5/6/rrRrr red Tiger,Crab Monkey,Crane Dragon", "board", "not a piece"),
    ("bbBbb/5/5/4/rrRrr red Tiger,Crab Monkey,Crane Dragon", "board", "has 4 squares"),
    ("bbBbbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon", "board", "more than 5"),
    ("bbBbb/5/5/5/rrRRr red Tiger,Crab Monkey,Crane Dragon", "board", "2 Red masters"),
    ("bbBbb/5/x4/5/rrRrr red Tiger,Crab Monkey,Crane Dragon", "board", "'x' is not a piece"),
    ("bbBbb/5/5/5/rrRrr green Tiger,Crab Monkey,Crane Dragon", "turn", "not 'red' or 'blue'"),
    ("bbBbb/5/5/5/rrRrr red Tiger,Crb Monkey,Crane Dragon", "red cards", "unknown card 'Crb'"),
    ("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane", "string", "expected 5 fields (board, turn, red cards, blue cards, side card), got 4"),
    ("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Tiger Dragon", "cards", "Tiger is dealt twice"),
    ("bbBbb/5/5/5/rrRrr red Tiger,Eagle Monkey,Crane Dragon", "cards", "no Wind Spirit"),
    ("bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey Dragon,Crane", "blue cards", "Red holds 2"),
    ("bbbb1/5/5/5/rrrr1 red Tiger,Crab Monkey,Crane Dragon", "board", "neither master"),
    ("bbbbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon", "board", "5 Blue students"),
])
def test_malformed_positions_name_the_field_and_reason(text, field, reason):
    with pytest.raises(PositionError) as err:
        parse_position(text)
    assert err.value.field == field and reason in err.value.reason


def test_move_notation_forms():
    assert parse_move("Tiger c1c3") == Move("Tiger", 2, 12)
    assert parse_move("Eagle - c3a5") == Move("Eagle", None, None, 12, 20, wind_card=True)
    assert parse_move("Eagle b1c2 -") == Move("Eagle", 1, 7, None, None, wind_card=True)
    assert parse_move("Tiger pass") == Move("Tiger") and Move("Tiger").is_pass
    assert parse_move("sea-snake a1a2").card == "Sea Snake"
    for text in ("Tiger c1c3", "Eagle - c3a5", "Eagle b1c2 c3a5", "Tiger pass", "Sea-Snake a1a2",
                 "Eagle b1c2 -"):
        assert str(parse_move(text)) == text


@pytest.mark.parametrize("text,reason", [
    ("", "empty"),
    ("Tigre c1c3", "unknown card 'Tigre'"),
    ("Tiger c1", "not a step like c1c3"),
    ("Tiger c1z3", "not a square"),
    ("Tiger c1c1", "does not move"),
    ("Tiger c1c3 c3c4", "expected '<Card> <from><to>'"),
    ("Tiger -", "'-' is only for Wind Spirit cards"),
    ("Eagle b1c2", "write both steps"),
    ("Eagle - -", "both steps skipped"),
])
def test_malformed_moves_say_why(text, reason):
    with pytest.raises(NotationError) as err:
        parse_move(text)
    assert reason in err.value.reason

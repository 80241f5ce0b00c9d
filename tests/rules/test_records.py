import json

import pytest

from companion.rules.board import Board
from companion.rules.cards import card_from_dict, CARDS
from companion.rules.deal import deal, fixed_deal
from companion.rules.errors import RecordError, SetupError
from companion.rules.record import GameRecord, replay


def played(record, n=12):
    board = Board(record.start, cards=record.card_table())
    for _ in range(n):
        if board.is_game_over():
            break
        board.push(next(iter(board.legal_moves)))
    record.moves = [str(m) for m in board.move_stack]
    return board


def test_save_load_round_trip(tmp_path):
    d = deal("wind", ("base", "senseis-path"), wind_cards=3, seed=11)
    record = GameRecord.from_deal(d, players={"red": "Ann", "blue": "Bo"}, date="2026-11-22")
    played(record)
    path = tmp_path / "game.json"
    record.save(path)
    again = GameRecord.load(path)
    assert again == record
    header = json.loads(path.read_text())["header"]
    assert header["seed"] == 11 and header["cards"]["side"] == d.position.side[0]


def test_replay_names_the_first_illegal_move():
    record = GameRecord.from_deal(fixed_deal(["Tiger", "Crab"], ["Monkey", "Crane"], "Dragon"))
    record.moves = ["Tiger c1c3", "Crane a5a4", "Crab c3c5", "Monkey b5a4"]
    result = replay(record)
    assert result.error.startswith("move 3 (Red) 'Crab c3c5' is illegal: Crab does not move")
    assert len(result.referee.log) == 2


def test_replay_checks_the_result_in_the_header():
    record = GameRecord.from_deal(deal(seed=3))
    board = played(record, 4)
    record.result = {"winner": "red", "how": "stone"}
    assert "the header says the result" in replay(record).error
    record.result = None
    assert replay(record).error is None and replay(record).position == board.position


def test_custom_cards_travel_with_the_record(tmp_path):
    heron = card_from_dict({"name": "Heron", "stamp": "red", "moves": [[0, 1], [0, 2]]})
    table = CARDS.with_cards([heron])
    d = fixed_deal(["Heron", "Crab"], ["Monkey", "Crane"], "Dragon", cards=table)
    record = GameRecord.from_deal(d, cards=table)
    record.moves = ["Heron c1c3"]
    record.save(tmp_path / "g.json")
    assert replay(GameRecord.load(tmp_path / "g.json")).error is None


@pytest.mark.parametrize("text,problem", [
    ("nope", "not valid JSON"),
    ('{"format": "chess"}', "not an Onitama game record"),
    ('{"format": "onitama-record", "version": 9}', "version 9 is not supported"),
    ('{"format": "onitama-record", "version": 1, "header": {}, "moves": []}', "header.variant"),
    ('{"format": "onitama-record", "version": 1, "header": {"variant": "base", "start": "x"},'
     ' "moves": []}', "header.start"),
    ('{"format": "onitama-record", "version": 1, "header": {"variant": "base", "start": "x"},'
     ' "moves": [1]}', "moves must be a list"),
])
def test_corrupt_records_are_refused(text, problem):
    with pytest.raises(RecordError, match=problem):
        GameRecord.loads(text)


def test_deal_is_repeatable_and_follows_the_wind_rulebook():
    assert deal(seed=5) == deal(seed=5)
    for k in range(6):
        pos = deal("wind", ("base",), wind_cards=k, seed=k).position
        winds = [CARDS[n].is_wind_card for n in pos.hands[0] + pos.hands[1]]
        assert sum(winds) == 2 * (k // 2)
        assert sum(CARDS[n].is_wind_card for n in pos.hands[0]) == k // 2
        assert CARDS[pos.side[0]].is_wind_card == bool(k % 2)
        assert pos.spirit == 12


def test_deal_refuses_what_cannot_be_dealt():
    with pytest.raises(SetupError, match="unknown card set"):
        deal("base", ("nope",))
    with pytest.raises(SetupError, match="0 to 5"):
        deal("wind", ("base",), wind_cards=6)
    with pytest.raises(SetupError, match="hold 2 move cards"):
        deal("base", ("wind",))
    with pytest.raises(SetupError, match="need the Way of the Wind"):
        fixed_deal(["Eagle", "Crab"], ["Monkey", "Crane"], "Dragon", variant="base")

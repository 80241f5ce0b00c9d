import json

import pytest

from companion.rules.cards import CARDS, card_from_dict, load_card_file
from companion.rules.errors import CardError, CardFileError


def names(set_name):
    return {c.name for c in CARDS if c.set == set_name}


def test_every_set_is_complete():
    assert len(names("base")) == 16 and len(names("senseis-path")) == 16
    assert names("wind") == {"Goat", "Sheep"}
    assert names("wind-spirit") == {"Bat", "Eagle", "Hawk", "Lion", "Octopus", "Rhinoceros",
                                    "Scorpion", "Spider"}
    assert {"Mejika", "Okija", "Sasori", "Kumo", "Lobster", "Steer"} <= names("promo")
    assert all(CARDS[n].is_wind_card for n in names("wind-spirit"))
    assert {c.name for c in CARDS if c.is_dual} == {"Mejika", "Okija", "Sasori", "Kumo"}


def test_transcribed_patterns_and_stamps():
    assert CARDS["Tiger"].moves == ((0, 2), (0, -1)) and CARDS["Tiger"].stamp == "blue"
    assert CARDS["Frog"].moves == ((-1, 1), (-2, 0), (1, -1)) and CARDS["Frog"].stamp == "red"
    assert CARDS["Eagle"].wind_moves == ((-2, 2), (2, 2))
    assert CARDS["Kumo"].master_moves == ((-2, 0), (2, 0))
    assert CARDS["Kumo"].student_moves == ((-1, 1), (1, 1))
    assert all(c.stamp in ("red", "blue") for c in CARDS if c.name not in ("Whale", "Cricket"))


def test_aliases():
    assert CARDS["Raccoon"].name == "Tanuki" and CARDS["rhino"].name == "Rhinoceros"
    with pytest.raises(CardError, match="unknown card"):
        CARDS["Unicorn"]


def write(tmp_path, cards):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"cards": cards}))
    return path


def test_custom_cards_load_and_join_the_table(tmp_path):
    path = write(tmp_path, [{"name": "Heron", "stamp": "red", "moves": [[0, 1], [0, 2]],
                             "capture_only": [[1, 1]]}])
    table = CARDS.with_cards(load_card_file(path))
    assert table["heron"].capture_only == ((1, 1),) and table["heron"].set == "custom"
    assert len(table) == len(CARDS) + 1


@pytest.mark.parametrize("card,problem", [
    ({"name": "A", "moves": [[5, 0]]}, "card 'A': moves: [5, 0] leaves the 5x5 board"),
    ({"name": "B", "moves": [[0, 0]]}, "card 'B': moves: [0, 0] does not move"),
    ({"name": "C", "moves": [[1]]}, "card 'C': moves: [1] is not a [dx, dy] pair"),
    ({"name": "D"}, "card 'D': moves is missing"),
    ({"name": "E", "moves": [[0, 1]], "stamp": "green"}, "card 'E': stamp must be"),
    ({"name": "F", "moves": [[0, 1]], "colour": "red"}, "card 'F': unknown field 'colour'"),
    ({"name": "G", "moves": [[0, 1], [0, 1]]}, "card 'G': moves: [0, 1] is listed twice"),
    ({"name": "H", "moves": [[0, 1]], "move_only": [[0, 1]]}, "card 'H': [0, 1] is both"),
    ({"name": "Tiger", "moves": [[0, 1]]}, "card 'Tiger': a card of that name already exists"),
    ({"moves": [[0, 1]]}, "name is missing"),
    ({"name": "I", "master_moves": [[0, 1]]}, "card 'I': student_moves is missing"),
])
def test_a_bad_card_file_names_the_card_and_the_problem(tmp_path, card, problem):
    with pytest.raises(CardError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        CARDS.with_cards(load_card_file(write(tmp_path, [card])))


def test_unreadable_card_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(CardFileError, match="not valid JSON"):
        load_card_file(bad)
    with pytest.raises(CardFileError, match="cannot read"):
        load_card_file(tmp_path / "missing.json")
    bad.write_text('{"cardz": []}')
    with pytest.raises(CardFileError, match='expected an object with a "cards" list'):
        load_card_file(bad)


def test_conditional_offsets_in_play(tmp_path):
    from companion.rules.board import Board
    table = CARDS.with_cards([card_from_dict({"name": "Heron", "stamp": "red", "moves": [[0, 1]],
                                              "move_only": [[0, 2]], "capture_only": [[1, 1]]})])
    board = Board("2B2/5/1b1b1/2r2/2R2 red Heron,Ox Tiger,Crab Dragon", cards=table)
    heron = {str(m) for m in board.legal_moves if m.card == "Heron"}
    # c2: forward c3 (plain), c4 (empty only: it is empty), d3 (capture only: a Blue student).
    assert {"Heron c2c3", "Heron c2c4", "Heron c2d3"} <= heron
    # c1: c3 is empty... but the plain step to c2 lands on its own student; d2 is empty so the
    # capture-only step is refused, c3 empty so the move-only step is allowed.
    assert "Heron c1d2" not in heron and "Heron c1c3" in heron
    from companion.rules.errors import IllegalMoveError
    with pytest.raises(IllegalMoveError, match="only to capture"):
        board.push("Heron c1d2")

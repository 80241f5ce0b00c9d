"""Property tests over random legal games of every card set, base and Way of the Wind."""

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules.board import Board
from companion.rules.cards import CARDS
from companion.rules.moves import Move, parse_move
from companion.rules.position import parse_position

import reference_rules as ref
from strategies import games

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_five_cards_always_in_play(board):
    pos = board.position
    cards = pos.cards()
    assert len(cards) == 5 and len(set(cards)) == 5
    assert len(pos.hands[0]) == len(pos.hands[1]) == 2


@SETTINGS
@given(games())
def test_no_square_holds_two_pieces(board):
    pos = board.position
    assert pos.red & pos.blue == 0
    if pos.spirit >= 0:
        assert not (pos.red | pos.blue) >> pos.spirit & 1
    for color in (0, 1):
        master = pos.master(color)
        assert master < 0 or pos.pawns(color) >> master & 1
    assert bin(pos.red).count("1") <= 5 and bin(pos.blue).count("1") <= 5


@SETTINGS
@given(games())
def test_position_string_round_trips(board):
    pos = board.position
    assert parse_position(str(pos)) == pos


@SETTINGS
@given(games())
def test_notation_round_trips(board):
    for move in board.legal_moves:
        assert parse_move(str(move)) == move


@SETTINGS
@given(games(), st.data())
def test_push_then_pop_restores_the_position_exactly(board, data):
    before = board.position
    moves = list(board.legal_moves)
    if not moves:
        return
    board.push(data.draw(st.sampled_from(moves)))
    board.pop()
    assert board.position == before
    # Undo the whole game too: every intermediate position comes back.
    start = Board(before)
    while board.move_stack:
        board.pop()
    assert board.move_stack == [] and start.position == before


@SETTINGS
@given(games())
def test_engine_agrees_with_the_reference_rules(board):
    pos = board.position
    if board.is_game_over():
        assert list(board.legal_moves) == []
        return
    engine_moves = list(board.legal_moves)
    assert ref.same_moves(engine_moves, ref.legal_moves(pos, CARDS))
    assert board.engine.count(board.engine.state(pos)) == len(engine_moves)
    for move in engine_moves:
        board.push(move)
        assert board.position == ref.play(pos, move, CARDS), str(move)
        board.pop()


@settings(SETTINGS, max_examples=40)
@given(games())
def test_every_generated_move_is_legal_and_each_illegal_one_says_why(board):
    if board.is_game_over():
        return
    legal = set(board.legal_moves)
    for move in legal:
        assert board.why_illegal(move) is None
    # Every other move of the same cards from the same squares has a reason.
    pos = board.position
    for card in pos.hands[pos.turn]:
        for frm in range(25):
            for to in range(25):
                if frm == to:
                    continue
                move = Move(card, frm, to) if not CARDS[card].is_wind_card else Move(card, frm, to, None, None, True)
                if move not in legal:
                    reason = board.why_illegal(move)
                    assert reason and reason != "not a legal move here", (str(move), reason)

"""A base game against the computer on the simulation page, with the mouse: the computer is
seated from the new-game form, its moves blink on the mat's squares, and the player makes
them with the page's hands as well as their own, to the end of the game. Then two phones: one
plays its seat from afar, the other asks for a hint."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from companion.rules.board import Board
from companion.rules.position import board_pieces
from companion.rules.deal import fixed_deal
from companion.rules.squares import square_name
from companion.table import outputs
from companion.table.service import Companion
from companion.table.opponent import Thinking
from companion.web import Server, create_app
from sim_table import sim_companion
from waiting import wait_for

from browser_fixtures import browser, page  # noqa: F401 (fixtures)
from test_sim_games import SimPage, pieces

CARDS = (["Tiger", "Crab"], ["Monkey", "Crane"], "Dragon")
PLIES = 40         # a whole game: the computer beats these moves well within it


@pytest.fixture
def site(tmp_path) -> Iterator[tuple[str, Companion]]:
    """The simulation with a small node budget for the computer (quick, repeatable)."""
    servers: list[Server] = []

    def serve(companion: Companion) -> None:
        servers.append(Server(create_app(companion), "127.0.0.1", 0).start())
        companion.public_url = servers[0].url

    with sim_companion(tmp_path / "games.db", public_url=None, before_start=serve,
                       computer=Thinking(nodes=300)) as table:
        try:
            yield servers[0].url, table.companion
        finally:
            servers[0].stop()


def test_a_base_game_against_the_computer_with_the_mouse(site, page):
    url, companion = site
    sim = SimPage(page, url)
    sim.open()
    if page.get_attribute("#new-game-box", "open") is None:
        page.locator("#new-game-box > summary").click()
    page.select_option("#ng-blue-player", "computer:easy")
    page.get_by_text("Choose the cards yourself").click()
    page.fill("#ng-red", ", ".join(CARDS[0]))
    page.fill("#ng-blue", ", ".join(CARDS[1]))
    page.fill("#ng-side", CARDS[2])
    page.get_by_role("button", name="Deal a new game").click()
    page.wait_for_selector('body[data-status="sync"]')
    assert companion.view(None)["game"]["computer"] == {"blue": "easy"}
    board = Board(fixed_deal(*CARDS, variant="base").position)
    sim.lay_out(pieces(board))
    computer_moves = 0
    for _ in range(PLIES):
        before = pieces(board)
        if board.turn == "blue":
            # The computer's move: the OLED says it in words, its squares blink in Blue.
            expected = wait_for(lambda: companion.view(None)["game"]["expected"], timeout=20)
            move = board.push(expected["text"])
            oled = companion.view(None)["oled"]
            assert oled[:2] == ["Make Blue's move", "for the computer:"]
            assert oled[2].startswith(f"{move.card}, {square_name(move.from_sq)} to ")
            sim.lit(square_name(move.from_sq))
            sim.lit(square_name(move.to_sq))
            computer_moves += 1
        else:
            moves = list(board.legal_moves)
            pairs = [(m.from_sq, m.to_sq) for m in moves]
            move = next(m for m in moves if pairs.count((m.from_sq, m.to_sq)) == 1)
            board.push(move)
        sim.play(before, pieces(board), move, won=board.outcome() is not None)
        if board.outcome() is not None:
            break
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == "blue" and computer_moves >= 3
    expect(page.locator("#log li")).to_have_count(len(board.move_stack))
    expect(page.locator("#status")).to_contain_text("Blue wins")


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def phone(browser, companion, seat: str):
    context = browser.new_context(**PHONE)
    tab = context.new_page()
    tab.set_default_timeout(8000)
    tab.goto(companion.join_url(seat))
    tab.wait_for_url("**/seat")
    return context, tab


def test_a_remote_seat_plays_from_its_phone_and_the_other_asks_for_a_hint(site, browser):
    url, companion = site
    companion.submit(None, {"type": "new_game", "variant": "base", "seed": 4,
                            "remote": ["red"], "hints": 1})
    for sq in board_pieces(companion.view(None)["table"]["position"]):
        companion.sim_place(square_name(sq))
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    assert companion.view(None)["table"]["to_act"] == ["red"]
    (red_context, red), (blue_context, blue) = phone(browser, companion, "red"), phone(browser, companion, "blue")
    try:
        # Red, away from the table, chooses a move on its phone: tap the pawn, its square, confirm.
        legal = companion.view("red")["table"]["legal"]
        pairs = [(a["from"], a["to"]) for a in legal]
        move = next(a for a in legal if pairs.count((a["from"], a["to"])) == 1)
        red.locator(f'#board .square[data-square="{move["from"]}"]').click()
        red.locator(f'#board .square[data-square="{move["to"]}"]').click()
        red.get_by_role("button", name=f"{move['from']} to {move['to']}").click()
        expect(red.locator("#headline")).to_have_text("Your move is on the mat")
        expect(red.locator("#hint-box")).to_be_hidden()          # no hints from afar
        assert companion.view(None)["game"]["expected"]["text"] == move["text"]
        # Someone at the table makes it.
        companion.sim_lift(move["from"])
        companion.sim_place(move["to"])
        wait_for(lambda: companion.view(None)["table"]["log"] == [move["text"]])
        # Blue, at the mat, asks for a hint on its phone, then lifts a pawn.
        blue.get_by_role("button", name="Ask for a hint").click()
        expect(blue.locator("#hint-line")).to_contain_text("Hint on")
        grades = companion.view("blue")["hints"]["grades"]
        frm, row = next(iter(grades.items()))
        companion.sim_lift(frm)
        wanted = {sq: outputs.HINT_COLOURS[g] for sq, g in row.items()}
        wait_for(lambda: {sq: tuple(round(c * 255 / max(rgb)) for c in rgb)
                          for sq, rgb in companion.sim_state()["leds"].items() if max(rgb)} == wanted)
    finally:
        red_context.close()
        blue_context.close()

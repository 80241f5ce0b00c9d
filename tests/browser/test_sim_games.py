"""Whole games on the simulation page, played with the mouse as a newcomer would: deal from the
form, lay the pawns out from the reserves, lift and place pawns by clicking squares, answer
the companion's card questions with its buttons, and watch the LEDs, the OLED and the result.

The games are chosen by the rules engine: the shortest line from fixed cards that shows what
each game must exercise (a capture and a card question in the base game; a Wind Spirit card
and a Spirit swap in the Wind game).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from playwright.sync_api import expect

from companion.rules.board import Board
from companion.rules.deal import fixed_deal
from companion.rules.moves import Move, format_move
from companion.rules.position import board_pieces, format_position
from companion.mat.recognizer import CLEAR_S
from companion.rules.squares import square_name

from browser_fixtures import browser, page, site  # noqa: F401 (fixtures)

# Long enough for a lifted pawn's square to be seen empty (the recognizer's CLEAR_S, plus the
# scanner's debounce and a scan): a real hand is never this quick, a test's clicks are.
HAND_S = CLEAR_S + 0.07


def pieces(board: Board) -> dict[str, str]:
    return {square_name(sq): p for sq, p in board_pieces(format_position(board.position)).items()}


def features(before: dict, after: dict, move: Move, moves: list[Move], won: bool) -> set[str]:
    found = set()
    if len(after) < len(before) and not won:
        found.add("capture")
    if any(p == "W" and after.get(sq) not in (None, "W") for sq, p in before.items()):
        found.add("swap")
    if move.wind_card and move.from_sq is not None and move.spirit_from is not None:
        found.add("wind card")
    if any(m.card != move.card and (m.from_sq, m.to_sq) == (move.from_sq, move.to_sq)
           and not m.wind_card for m in moves) and not move.wind_card and not won:
        # (A winning move that both cards make asks nothing: the game is over either way.)
        found.add("card question")
    return found


def shortest_game(start, need: set[str], min_plies: int, max_plies: int = 7) -> list[Move]:
    """The first line, by iterative deepening over the legal moves, that ends in a win after
    at least ``min_plies`` and shows every feature in ``need``."""
    board = Board(start)

    def search(depth: int, seen: frozenset, plies: int) -> list[Move] | None:
        if board.outcome() is not None:
            return [] if plies >= min_plies and need <= seen else None
        if depth == 0:
            return None
        before, moves = pieces(board), list(board.legal_moves)
        for move in moves:
            board.push(move)
            found = features(before, pieces(board), move, moves, board.outcome() is not None)
            line = search(depth - 1, seen | found, plies + 1)
            board.pop()
            if line is not None:
                return [move, *line]
        return None

    for depth in range(min_plies, max_plies + 1):
        line = search(depth, frozenset(), 0)
        if line is not None:
            return line
    raise AssertionError(f"no game of at most {max_plies} plies shows {need}")


class SimPage:
    """The simulation page, worked through its own controls."""

    def __init__(self, page, url: str):
        self.page = page
        self.url = url

    def open(self) -> None:
        self.page.goto(self.url + "/sim")
        self.page.wait_for_selector("body[data-version]")

    def square(self, name: str):
        return self.page.locator(f'button.square[data-square="{name}"]')

    def lit(self, name: str) -> None:
        """Waits until the square's LED shows a colour on the page."""
        self.page.wait_for_selector(f'button.square[data-square="{name}"]:not([data-led=""])')

    def watch_green(self) -> None:
        """From now on, the page notes every square its LED shows green on (the flash of a
        committed move; the lifted pawn's destinations are cyan, magenta or white)."""
        self.page.evaluate("""() => {
          if (window.greenWatch) window.greenWatch.disconnect();
          window.greenSince = new Set();
          const note = (b) => { if (/^0,[1-9][0-9]*,0$/.test(b.dataset.led || '')) window.greenSince.add(b.dataset.square); };
          window.greenWatch = new MutationObserver((ms) => ms.forEach((m) => note(m.target)));
          document.querySelectorAll('button.square').forEach((b) => {
            note(b);    // a flash already on: the commit can land between the last click and this
            window.greenWatch.observe(b, { attributes: true, attributeFilter: ['data-led'] });
          });
        }""")

    def oled_key(self) -> str | None:
        return self.page.get_attribute("#oled", "data-key")

    def wait_oled_change(self, old: str | None) -> None:
        self.page.wait_for_function("old => document.querySelector('#oled').dataset.key !== old", arg=old)

    def log_length(self) -> int:
        return self.page.locator("#log li").count()

    def deal(self, variant: str, red: list[str], blue: list[str], side: str) -> None:
        page = self.page
        if page.get_attribute("#new-game-box", "open") is None:
            page.locator("#new-game-box > summary").click()
        page.select_option("#ng-variant", variant)
        page.get_by_text("Choose the cards yourself").click()
        page.fill("#ng-red", ", ".join(red))
        page.fill("#ng-blue", ", ".join(blue))
        page.fill("#ng-side", side)
        page.get_by_role("button", name="Deal a new game").click()
        page.wait_for_selector('body[data-status="sync"]')
        setup = page.locator("#setup").inner_text()
        assert f"Red takes {red[0]} and {red[1]}" in setup and f"{side} goes beside the mat" in setup

    def lay_out(self, start: dict[str, str]) -> None:
        """Takes each pawn the set-up shows from its reserve and stands it on its square."""
        for square, kind in start.items():
            # The companion lights every square still waiting for its pawn.
            self.lit(square)
            tray = "blue" if kind in "Bb" else "red"
            self.page.locator(f'#reserve-{tray} button.pawn[data-kind="{kind}"]').first.click()
            self.square(square).click()
        self.page.wait_for_selector('body[data-status="playing"]')

    def hand_pawn(self, kind: str):
        return self.page.locator(f'#in-hand-pawns button.pawn[data-kind="{kind}"]').first

    def play(self, before: dict[str, str], after: dict[str, str], move: Move, won: bool) -> bool:
        """Moves the pawns on the page from ``before`` to ``after`` and waits for the companion
        to take the turn, answering its card question if it asks one (then returns True)."""
        page = self.page
        turns = self.log_length()
        oled = self.oled_key()
        lifted = [sq for sq, p in before.items() if after.get(sq) != p]
        placed = [sq for sq, p in after.items() if before.get(sq) != p]
        start = square_name(move.from_sq) if move.from_sq is not None else None
        if start in lifted:
            lifted.remove(start)
            lifted.insert(0, start)
        for i, sq in enumerate(lifted):
            self.square(sq).click()
            if i == 0 and before[sq] != "W" and move.to_sq is not None:
                # A lifted pawn shows where it may go: the move's square among them.
                self.lit(square_name(move.to_sq))
        for kind in (Counter(before.values()) - Counter(after.values())).elements():
            self.hand_pawn(kind).click()
            page.locator(f'#reserve-{"blue" if kind in "Bb" else "red"} .tray-drop').click()
        if set(lifted) & set(placed):
            time.sleep(HAND_S)
        for sq in placed:
            self.hand_pawn(after[sq]).click()
            self.square(sq).click()
        self.watch_green()
        page.wait_for_function(
            "n => document.querySelectorAll('#log li').length > n"
            " || !document.querySelector('#prompt').hidden", arg=turns)
        asked = self.log_length() == turns
        if asked:
            # Each answer is written under its button on the page.
            page.locator(".hw-button", has=page.locator(".hw-caption", has_text=move.card)).click()
            page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=turns)
        # The list says it in players' words; the notation is the entry's title.
        expect(page.locator("#log li").last).to_have_attribute("title", format_move(move))
        if won:
            page.wait_for_selector("#status:has-text('wins')")
        elif move.to_sq is not None:
            # The committed move flashes green on its square (seen by the page at any time
            # since the hand let go: the flash is over in 0.6 s, maybe before the log shows).
            self.page.wait_for_function("sq => !!window.greenSince && window.greenSince.has(sq)",
                                        arg=square_name(move.to_sq))
        self.wait_oled_change(oled)
        return asked


def play_game(page, url: str, variant: str, cards: tuple, need: set[str], *,
              noisy: bool) -> tuple[list[Move], str, int]:
    """Deals, lays out and plays the game to its end; returns the moves, the final status
    line and how many card questions the companion asked."""
    deal = fixed_deal(*cards, variant=variant)
    line = shortest_game(deal.position, need, min_plies=4)
    sim = SimPage(page, url)
    sim.open()
    if noisy:
        page.get_by_label("Noisy hands").check()
    board = Board(deal.position)
    sim.deal(variant, *cards)
    sim.lay_out(pieces(board))
    questions = 0
    for move in line:
        before = pieces(board)
        board.push(move)
        questions += sim.play(before, pieces(board), move, won=board.outcome() is not None)
    outcome = board.outcome()
    by = {"stone": "capturing the master", "stream": "reaching the Temple Arch"}[outcome.how]
    status = f"{outcome.winner.title()} wins by {by}"
    expect(page.locator("#status")).to_have_text(status)
    return line, status, questions


def check_table_page(page, url: str, line: list[Move], status: str, tmp_path: Path) -> None:
    """The public page tells the same story, and the saved record downloads."""
    page.goto(url + "/")
    page.wait_for_selector(f"#status:has-text('{status}')")
    # The moves in players' words ("Red: Crab, a1 → a2"), their notation in each one's title.
    assert page.locator("#log li").evaluate_all("els => els.map((e) => e.title)") == \
        [format_move(m) for m in line]
    assert all(text.startswith(("Red: ", "Blue: ")) for text in page.locator("#log li").all_inner_texts())
    with page.expect_download() as info:
        page.get_by_role("link", name="Download record").first.click()
    path = tmp_path / "record.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["moves"] == [format_move(m) for m in line]


def test_a_full_base_game_with_the_mouse(site, page, tmp_path):
    url, _ = site
    cards = (["Tiger", "Crab"], ["Monkey", "Crane"], "Dragon")
    line, status, questions = play_game(page, url, "base", cards, {"capture", "card question"},
                                        noisy=False)
    assert questions >= 1
    check_table_page(page, url, line, status, tmp_path)


def test_a_full_wind_game_with_noisy_hands(site, page, tmp_path):
    url, _ = site
    cards = (["Eagle", "Crab"], ["Monkey", "Crane"], "Boar")
    line, status, _ = play_game(page, url, "wind", cards, {"swap", "wind card"}, noisy=True)
    check_table_page(page, url, line, status, tmp_path)


def test_a_game_dealt_from_the_table_page_and_laid_out_by_the_helper(site, page):
    url, companion = site
    page.goto(url + "/")
    page.select_option("#ng-variant", "wind")
    page.select_option("#ng-wind", "3")
    page.get_by_role("button", name="Deal a new game").click()
    page.wait_for_selector("#status:has-text('Set up: Way of the Wind')")
    expect(page.locator("#setup")).to_contain_text("Red takes")

    sim = SimPage(page, url)
    sim.open()
    page.get_by_role("button", name="Lay out the pawns for me").click()
    page.wait_for_selector('body[data-status="playing"]')
    expect(page.locator("#mat .pawn")).to_have_count(11)
    game = companion.view(None)["game"]["id"]

    # A new deal while a game is being played asks first; saying no keeps the game.
    page.goto(url + "/")
    page.get_by_role("button", name="Deal a new game").click()
    page.get_by_role("button", name="Keep playing").click()
    page.wait_for_selector("#status:has-text('to move')")
    assert companion.view(None)["game"]["id"] == game
    page.get_by_role("button", name="Deal a new game").click()
    page.get_by_role("button", name="Abandon it and deal").click()
    page.wait_for_selector("#status:has-text('Set up: Onitama')")
    assert companion.view(None)["game"]["id"] == game + 1

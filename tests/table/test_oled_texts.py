"""Every text the table puts on the OLED fits it: a title of at most 21 characters and at most
four lines of 21 under it (firmware/screens.py cuts anything longer with '…'). The texts are
made for every seat, phase, result, announcement and card (the longest names included)."""

from __future__ import annotations

import itertools

import pytest

from firmware import screens

from companion.mat.recognizer import Recognizer
from companion.rules.cards import CARDS
from companion.rules.describe import why_not
from companion.rules.referee import Event, Result
from companion.rules.squares import square_name
from companion.mat import oled
from companion.table import outputs
from companion.table.outputs import endgames_show, solved_hint_show
from companion.table.instructions import ExpectedWords, move_words

LONGEST = sorted((c.name.replace(" ", "-") for c in CARDS), key=len)[-4:]


def pages():
    yield oled.idle_lines(None)
    yield oled.idle_lines("http://192.168.100.200:8080")
    for winner, how in itertools.product(("red", "blue", None), ("stone", "stream", "ninjas", "draw")):
        yield oled.finished_lines(Result(winner, how))
    for hand in (2, 3, 4):
        red, blue = LONGEST[:hand] if hand <= 4 else LONGEST, list(reversed(LONGEST))[:hand]
        for first in ("red", "blue"):
            for side in (LONGEST[-1], f"{LONGEST[-1]},{LONGEST[-2]}"):
                fields = ["5/5/5/5/5", first, ",".join(red), ",".join(blue), side]
                yield from outputs.paged(oled.setup_lines(fields))
                yield from outputs.paged(oled.setup_lines(fields, {"red": "hard", "blue": "hard"}))
                for computer in ({}, {"blue": "medium"}, {"red": "medium"}):
                    yield from outputs.paged(oled.setup_lines(fields, computer, cycle=True))
    yield oled.mismatch_lines(10, 10)
    yield oled.mismatch_lines(10, 10, ("a2", "a1"))
    yield oled.mismatch_lines(1, 1, ("a2", "a1"))
    yield oled.CONFIRM_NEW_GAME
    for phase in ("setup", "ninja", "lantern", "commit", "move", "take"):
        for to_act in (["red"], ["blue"], ["red", "blue"]):
            yield oled.phone_turn_lines(phase, to_act)
            yield oled.phone_turn_lines(phase, to_act, ninjas=2)
    for seat in ("red", "blue"):
        yield oled.takeover_lines(seat)
        yield oled.join_lines(seat)
    yield outputs.refused_show("Neither Rooster nor Elephant moves a student there").lines
    yield from stray_lines()
    yield from expected_pages()
    spirit_cards = sorted((c.name for c in CARDS if c.is_wind_card), key=len)[-2:]
    for cards in ((spirit_cards[-1],), tuple(spirit_cards)):
        for mover, then in (("red", "Blue"), ("blue", "Red")):
            yield oled.spirit_step_lines(mover, cards, (f"{then} to move", f"A:{LONGEST[-1]}  B:{LONGEST[-2]}"))
            yield oled.spirit_step_lines(mover, cards, (f"{then} to move", "A:Ox  B:Boar"))
    yield outputs.with_next(outputs.takeback_show(f"{LONGEST[-1]}, e1 to d2, takes the master").lines,
                            ("Blue to move", "A:Tiger  B:Crab"))
    for by, sq in (("red", "e5"), ("blue", "a1")):
        for event in (Event("strike", "", True, data={"by": by, "square": sq, "hit": True}),
                      Event("ninja_capture", "", True, data={"by": by, "square": sq, "captured": "student"}),
                      Event("ninja_capture", "", True, data={"by": by, "square": sq, "captured": "master"}),
                      Event("ninja_captured", "", True, data={"by": "pawn", "owner": by, "square": sq}),
                      Event("lantern", "", True, data={"by": by, "line": "rank 3"}),
                      Event("lantern_answer", "", True, data={"by": by, "line": "file c", "answer": False})):
            for show in outputs.announcements([event]):
                yield show.lines


def expected_pages():
    """A move made on the mat for the computer or a seat on a phone, asked and refused: the
    longest card names, a capture, a Wind Spirit card's two steps with a swap."""
    position = "bb2b/2B2/1rW2/5/rrR1r {} {} {} Ox"
    for seat, by in itertools.product(("red", "blue"), ("computer", "remote")):
        hand = ",".join(LONGEST[:2]) if seat == "red" else ",".join(LONGEST[2:])
        pos = position.format(seat, hand if seat == "red" else "Ox,Boar", hand if seat == "blue" else "Ox,Boar")
        texts = [f"{LONGEST[-1]} c2c4", f"{LONGEST[-1]} b3c4", "Wind-Spirit-card b3c4 c3a4"] if seat == "red" \
            else [f"{LONGEST[-1]} c4b3", "Wind-Spirit-card c4b3 c3e1"]
        for text in texts:
            words = ExpectedWords(seat, by, move_words(seat, text, pos))
            yield from outputs.paged(oled.expected_lines(words.head, words.whom, words.move))
            yield from outputs.paged(outputs.wrong_move_show(words).lines)
        yield oled.thinking_lines(seat)
        yield oled.waiting_remote_lines(seat)
        for left in (0, 1, 99):
            yield outputs.hint_asked_show(seat, left).lines
    yield outputs.NO_HINT_SHOW.lines
    yield endgames_show(100).lines
    for seat, words in itertools.product(("red", "blue"), ("e5-e4 wins in 127", "e5-e4 loses in 127", "no forced win")):
        yield solved_hint_show(seat, words).lines


def stray_lines():
    """A pawn moved where no turn allows: every kind of reason ``why_not`` gives, once each,
    for either player to move (the longest card names in hand)."""
    said = set()
    for turn in ("red", "blue"):
        pos = f"bbBbb/5/2W2/5/rrRrr {turn} {','.join(LONGEST[:2])} {','.join(LONGEST[2:])} Ox"
        for frm, to in itertools.permutations(map(square_name, range(25)), 2):
            refusal = why_not(pos, frm, to)
            kind = refusal and refusal.short.removesuffix(frm)     # "No pawn on a2": one kind
            if kind is not None and kind not in said:
                said.add(kind)
                yield oled.stray_lines(refusal.short, frm, to)
    assert len(said) == 5       # no pawn, Red's turn, Blue's turn, own pawn, no card


@pytest.mark.parametrize("lines", list(pages()), ids=lambda lines: " / ".join(lines)[:40])
def test_every_screen_text_fits_the_oled(lines):
    assert 1 <= len(lines) <= 5, lines
    for line in lines:
        assert len(line) <= screens.COLUMNS, f"{line!r} is cut on the OLED"
        missing = [ch for ch in line if not has_glyph(ch)]
        assert not missing, f"{line!r}: the OLED's font has no {missing} (drawn as '?')"


def has_glyph(ch: str) -> bool:
    """The OLED's bitmap font draws ``ch`` (a space, or a character with lit pixels)."""
    if ch == " ":
        return True
    try:
        ch.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return screens.font().getmask(ch).getbbox() is not None


def test_the_glyph_check_knows_what_the_font_lacks():
    assert has_glyph("a") and has_glyph("é") and not has_glyph("\u2192") and not has_glyph("\x85")


def test_the_shadow_master_is_asked_for_both_ninjas():
    assert oled.phone_turn_lines("setup", ["blue"], ninjas=2)[1] == "your Ninjas on"
    assert oled.phone_turn_lines("setup", ["red", "blue"])[1] == "your Ninja on"


def test_a_ninja_capture_is_not_called_a_strike():
    event = Event("ninja_capture", "", True, data={"by": "blue", "square": "c2", "captured": "student"})
    lines = outputs.announcements([event])[0].lines
    assert lines == ("Ninja capture", "Blue's Ninja took the", "student on c2:", "Red, lift it off")


def test_an_announcement_ends_with_what_comes_next():
    """A Lantern's sweep holds the OLED while Blue is to move: the robot's checker found the
    screen naming neither (``Lantern / Red searches / rank 3``)."""
    show = outputs.announcements([Event("lantern", "", True, data={"by": "red", "line": "rank 3"})])[0]
    assert outputs.with_next(show.lines, ("Blue to move", "A:Tiger  B:Crab")) == (
        "Lantern", "Red searches", "rank 3", "Blue to move")
    full = ("Ninja capture", "a", "b", "c", "d")
    assert outputs.with_next(full, ("Blue to move",)) == full        # no room: left as it is


def test_the_words_module_knows_the_screen_the_driver_draws():
    # companion.mat.oled is the one place the texts learn the screen's size from; the driver
    # derives it from the panel and the font.
    assert oled.COLUMNS == screens.COLUMNS == screens.WIDTH // screens.CHAR_W
    assert oled.LINES == screens.HEIGHT // screens.LINE_H


def test_every_result_has_its_words_in_one_table():
    from companion.rules.results import HOW
    for how in ("stone", "stream", "ninjas", "draw", "abandoned"):
        assert HOW[how].title and HOW[how].by
    assert oled.finished_lines(Result("red", "stream")) == ("Red wins", "Way of the Stream", oled.NEW_GAME)

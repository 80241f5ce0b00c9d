"""What each audience sees, and what the OLED and the LEDs show for the game, computed from
one game's session and the mat's occupancy. Pure functions: the game thread calls them and
publishes the results; the wording lives in :mod:`companion.table.outputs`. Everything public
(the OLED, the LEDs, the public view) is computed from the game's public side
(:class:`~.publicgame.PublicGame`); a seat's view adds its own :class:`~.publicgame.SeatPart`.
"""

from __future__ import annotations

from functools import partial

from ..mat.recognizer import Recognizer, pair_up
from ..mat.scene import lifting_own
from ..rules.cards import CARDS
from ..rules.describe import Refusal, turn_words, why_not
from ..rules.referee import SEATS
from ..rules.results import result_words
from ..rules.squares import square_name
from ..rules.ways import WAYS
from ..mat import oled
from ..mat.oled import hold_b
from . import outputs
from .computer import Expected, mat_steps
from .headlines import headline, sync_words
from .instructions import (ExpectedWords, expected_words, move_words, said,
                           takeover_instruction, turn_instruction)
from .network import Hotspot, wifi_qr_payload
from .publicgame import PublicGame, SeatPart
from .session import GameSession
from .spiritstep import spirit_instruction, spirit_lines, spirit_step
from .tables import waiting_lines
from .viewtypes import GameView, HintsView, MatView, Said, SetupView, View


def seat_part(game: GameSession | None, seat: str, *, notice: str | None = None,
              asked: bool = False) -> SeatPart:
    """What ``seat``'s view adds to the public one: only the referee's view of that seat, its
    own hints (nobody else's view says whether it asked, nor what it was told), ``notice``: a
    word for it alone (why the referee refused its move on the mat), and ``asked``: another
    phone asks for this seat (its holder may give it up)."""
    if game is None:
        return SeatPart(seat, {}, None, notice, asked)
    hint = game.hint
    hints: HintsView = {"left": game.hints_left(seat), "on": hint is not None and hint[0] == seat,
             "asking": hint is None and game.hint_asked == (game.version, seat),
             "grades": hint[1] if hint is not None and hint[0] == seat else None,
             # A solved position's outcomes in words ("wins in 2"), {from: {to: words}}.
             "exact": getattr(hint[1], "exact", None) or None if hint is not None and hint[0] == seat else None}
    return SeatPart(seat, game.referee.view(seat), hints, notice, asked)


def view(game: PublicGame | None, part: SeatPart | None, *, occupancy: frozenset[int],
         oled: outputs.Lines, seats: dict[str, bool], takeover: str | None = None) -> View:
    """The public's view (``part`` None), or a seat's: the public one with the seat's own
    ``part`` in it. Built from the game's public side alone (:class:`PublicGame`).
    ``takeover``: the seat a new phone asks for, while the OLED asks the table."""
    seat = None if part is None else part.seat
    out: View = {"game": None, "setup": None, "table": None, "mat": None,
                           "oled": list(oled), "ways": list(WAYS), "variants": list(WAYS),
                           "sets": dict(CARDS.sets),
                           "seats": seats}
    if part is not None and part.asked:
        out["takeover"] = True
    if seat is None and takeover is not None:
        out["instruction"] = takeover_instruction(takeover)
    if game is None:
        if seat is not None:
            out["headline"] = headline(out, seat)
        return out
    out["game"] = game_part(game)
    if part is not None:
        out["hints"] = part.hints
    table = game.referee.view() if part is None else part.table
    out["table"] = table
    out["result_words"] = result_words(table.get("result"))
    if game.setting_up:
        out["setup"] = setup_part(game)
    out["mat"] = _mat(game, occupancy)
    out["unsaved"] = game.unsaved
    if seat is None and "instruction" not in out:
        out["instruction"] = public_instruction(game, out)
    if seat is None and game.setting_up and game.referee.mode == "base":
        # What a long press of B does now, for the simulation page's caption under B (the
        # OLED says it on one of its pages).
        out["buttons"] = {"B": f"hold: {hold_b(game.seating.computer)}"}
    if part is not None:
        if part.notice:
            out["notice"] = part.notice
        out["headline"] = headline(out, part.seat)
    return out


def game_part(game: PublicGame) -> GameView:
    ref, seating, expected = game.referee, game.seating, game.expected
    return {"id": game.id, "way": ref.mode, "variant": ref.mode, "sets": game.sets,
            "status": game.status, "computer": dict(seating.computer),
            "remote": list(seating.remote), "table": list(seating.table),
            "hints": seating.hints,
            "thinking": game.thinking == game.version and expected is None
            and any(s in seating.computer for s in ref.to_act()),
            "handed_back": game.handed_back[0] if game.handed_back is not None
            and game.handed_back[1] == game.version else None,
            "expected": None if expected is None else
            {"seat": expected.seat, "by": expected.by, "text": expected.text,
             "words": said_expected(game, expected).move}}


def setup_part(game: PublicGame) -> SetupView:
    fields = game.table()[1]
    return {"board": " ".join(fields), "red": fields[2].split(","), "blue": fields[3].split(","),
            "side": fields[4], "first": fields[1], "ninjas": game.way.ninjas}


def _turn_of(rec: Recognizer, seat: str, option: str) -> int | None:
    """The turn a phone answer names (``Recognizer.turn_of``); option: a card or "takeback"."""
    if option == "takeback":
        return rec.turn_of(seat, takeback=True)
    return rec.turn_of(seat, option)


def _mat(game: PublicGame, occupancy: frozenset[int]) -> MatView:
    rec = game.recognizer
    prompt = rec.prompt if rec is not None else None
    if game.status == "sync":
        missing, extra = game.sync_diff(occupancy)
        state = "setup" if game.setting_up else "mismatch"
        wrong, pairs = missing | extra, pair_up(extra, missing)
    else:
        wrong = frozenset(game.wrong)
        pairs = rec.feedback().pairs if rec is not None else ()
        state = "prompt" if prompt else "mismatch" if wrong else "ok"
        if state == "ok" and rec is not None and occupancy != rec.board.position.occupied():
            # A pawn is in a hand (or just put down): the move is being made.
            state = "moving"
    out: MatView = {"state": state,
           "prompt": None if prompt is None or rec is None else
                     outputs.prompt_view(prompt, partial(_turn_of, rec)),
           "wrong": sorted(square_name(s) for s in wrong),
           "pairs": [[square_name(a), square_name(b)] for a, b in pairs]}
    stray = stray_refusal(game, rec) if state == "mismatch" else None
    if stray is not None:
        out["reason"] = stray[0].long
    spirit = spirit_step(game) if state == "ok" else None
    if spirit is not None:
        out["spirit"] = spirit
    return out


def stray_refusal(game: PublicGame, rec: Recognizer | None) -> tuple[Refusal, str, str] | None:
    """The rule broken by the one pawn the mat out of sync shows moved, and its squares (from,
    to); None when the mat shows anything else, or a card allows that step. Read from the
    public position alone: the mat shows every pawn, and no hidden Ninja may be a reason."""
    step = rec.feedback().stray if rec is not None else None
    if step is None:
        return None
    frm, to = (square_name(sq) for sq in step)
    refusal = why_not(" ".join(game.table()[1]), frm, to, game.referee.cards)
    return None if refusal is None else (refusal, frm, to)


def oled_lines(game: PublicGame | None, *, occupancy: frozenset[int], public_url: str | None,
               confirming: bool) -> outputs.Lines:
    """What the OLED says about the game, when no announcement or join code is shown; first
    of all that the last action could not be saved, until one is."""
    lines = _game_lines(game, occupancy=occupancy, public_url=public_url, confirming=confirming)
    if game is not None and game.unsaved is not None:
        return oled.unsaved_lines(game.unsaved, lines)
    return lines


def _game_lines(game: PublicGame | None, *, occupancy: frozenset[int], public_url: str | None,
                confirming: bool) -> outputs.Lines:
    if game is None:
        return oled.idle_lines(public_url)
    ref = game.referee
    if game.status == "finished":
        assert ref.result is not None
        return oled.finished_lines(ref.result)
    if game.status == "sync":
        if game.setting_up:
            return oled.setup_lines(game.table()[1], game.seating.computer,
                                       cycle=game.referee.mode == "base")
        missing, extra = game.sync_diff(occupancy)
        pairs = pair_up(extra, missing)
        first = (square_name(pairs[0][0]), square_name(pairs[0][1])) if pairs else None
        return oled.mismatch_lines(len(missing), len(extra), first)
    if confirming:
        return oled.CONFIRM_NEW_GAME
    rec = game.recognizer
    if rec is not None:
        if rec.prompt is None and not game.wrong and not rec.feedback().pairs:
            lines = _away_lines(game)
            if lines is not None:
                return lines
        stray = stray_refusal(game, rec) if game.wrong else None
        if stray is not None:
            return oled.stray_lines(stray[0].short, stray[1], stray[2])
        feedback = rec.feedback()
        return spirit_lines(game, feedback) or _amended_in_words(game, tuple(feedback.oled))
    return oled.phone_turn_lines(ref.view(None).get("phase", "move"), ref.to_act(),
                                    ninjas=2 if ref.mode == "light" else 1)


def _amended_in_words(game: PublicGame, lines: outputs.Lines) -> outputs.Lines:
    """The recognizer announces an amended turn in notation (``Red amended:``, ``Eagle c1d2
    c2a4``): the OLED says the turn as every screen says a move, in players' words (the move
    list's), then whose move it is (the hand's line left out when they would not fit)."""
    if len(lines) < 2 or not lines[0].endswith(" amended:"):
        return lines
    if lines[1] == game.unannounced:
        return lines[2:]        # the move made for someone, step by step: nothing was amended
    moves = game.referee.view(None).get("moves") or []
    if moves and moves[-1]["text"].startswith(lines[1]):
        words = moves[-1]["words"]
    else:
        # Not the last turn of the list (a Wind Spirit card still going on): its squares,
        # without the pieces' names the position before it would give.
        words = turn_words(lines[0].split()[0].lower(), lines[1], {})
    return _one_screen(lines[0], oled.phrases(said(words)), lines[2:])


def _one_screen(title: str, words: list[str], rest: outputs.Lines) -> outputs.Lines:
    """``title``, the move's ``words`` and ``rest`` (whose move it is, then their hand) on one
    screen as it is drawn: a second page would not say whose move it is. The hand's line is
    left out first (a hand of long names wraps), then the move's last phrases (a Wind Spirit
    card's capture and swap: the move list says them in full)."""
    def fits(lines: outputs.Lines) -> bool:
        return len(outputs.paged(lines)) == 1
    for n in range(len(rest), 0, -1):
        if fits((title, *words, *rest[:n])):
            return (title, *words, *rest[:n])
    body = list(words)
    while body and not fits((title, *body, *rest[:1])):
        body.pop()
    if body:
        body[-1] = body[-1].rstrip(",")
    return (title, *body, *rest[:1])


def _away_lines(game: PublicGame) -> outputs.Lines | None:
    """The mover is not at the mat: the move it asks for, or that it is still choosing."""
    expected = game.expected
    if expected is not None:
        words = said_expected(game, expected)
        return oled.expected_lines(words.head, words.whom, words.move)
    to_act = game.referee.to_act()
    seating = game.seating
    for seat in to_act:
        if seat in seating.computer:
            return oled.thinking_lines(seat)
        if seat in seating.remote:
            return oled.waiting_remote_lines(seat)
        if seat in seating.table:
            return waiting_lines(seat)
    return None


def public_instruction(game: PublicGame, view: View) -> Said | None:
    """What the people at the table must do, for the table and simulation pages, when it is
    more than "X to play": a move to make for someone, or the mat to set right."""
    if game.expected is not None and game.status == "playing":
        return said_expected(game, game.expected).public()
    if game.status == "sync" and not game.setting_up:
        title, detail = sync_words(view, None)
        return {"title": title, "detail": detail}
    rec = game.recognizer
    if game.status == "playing" and not (rec is not None and rec.prompt):
        said = turn_instruction(game.referee.to_act(), game.mat_turn(),
                                (view.get("table") or {}).get("phase") or "move",
                                computer=game.seating.computer, remote=game.seating.remote,
                                table=game.seating.table)
        return spirit_instruction(game, said)
    return None


def takeback_show(game: PublicGame, text: str) -> outputs.Show:
    """The move ``text`` was just taken back: its mover is to play again, from the position
    it was made in."""
    seat = game.referee.to_act()[0]
    return outputs.takeback_show(move_words(seat, text, " ".join(game.table()[1])))


def said_expected(game: PublicGame, expected: Expected) -> ExpectedWords:
    """The expected move's instruction, in the words every screen uses."""
    return expected_words(expected, " ".join(game.table()[1]))


def _captures(game: PublicGame, expected: Expected) -> list[int]:
    """The expected move's destination, when a pawn of the other seat stands there."""
    pieces, to = game.table()[0], expected.move.to_sq
    mine = "Rr" if expected.seat == "red" else "Bb"
    there = pieces.get(to) if to is not None else None
    return [to] if to is not None and there is not None and there not in mine and there != "W" else []


def asking(game: PublicGame | None) -> bool:
    """Whether the mat asks a question on the buttons now (which card, a take-back). A and B
    answer it, and only it: a takeover request waits, off the OLED, until it is answered, so a
    press always answers what the OLED shows."""
    return game is not None and game.recognizer is not None and game.recognizer.prompt is not None


def wifi_qr(wifi: Hotspot | None) -> tuple[str, str] | None:
    """The table's own Wi-Fi as ``(network name, WIFI: payload)``, for the OLED and the pages;
    None when the Pi joins an existing network."""
    return None if wifi is None else (wifi.ssid, wifi_qr_payload(wifi.ssid, wifi.password))


def oled_pages(wifi: bool, computer: frozenset[str] = frozenset()) -> tuple[str | None, ...]:
    """What button C pages through: the game (None), then, on the table's own Wi-Fi, its QR
    code (a phone must be on the network before a join code can open), then the code of each
    seat a person may take (not the ``computer``'s)."""
    return (None, *(("wifi",) if wifi else ()), *(s for s in SEATS if s not in computer))


def join_seat(game: PublicGame | None, page: int, free_seat: str | None, *,
              wifi: bool = False, joined: bool = True,
              computer: frozenset[str] = frozenset()) -> str | None:
    """The QR code the OLED shows: ``"wifi"``, a seat's join code, or None (the game). The
    page chosen with C; or, while a game with secrets waits for phones, the Wi-Fi code until a
    first phone holds a seat (``joined``), then the first seat without one."""
    if page:
        pages = oled_pages(wifi, computer)
        return pages[page] if page < len(pages) else None
    # Only while nothing on the mat needs saying: set-up, a prompt or a mismatch come first.
    if (game is not None and game.status == "playing" and game.way.hidden
            and (game.recognizer is None or (game.recognizer.prompt is None and not game.wrong))):
        return "wifi" if wifi and not joined and free_seat is not None else free_seat
    return None


def next_page(page: int, shown: str | None, *, wifi: bool,
              computer: frozenset[str] = frozenset()) -> int:
    """The page button C turns to. From the Wi-Fi code shown while phones join, on to the
    first seat's join code (the order stays Wi-Fi, Red, Blue); otherwise the next page, round."""
    pages = oled_pages(wifi, computer)
    if page == 0 and shown == "wifi" and len(pages) > 2:
        return pages.index("wifi") + 1
    return (page + 1) % len(pages)


def hand_on_mat(game: PublicGame | None) -> bool:
    """Is the player to move holding a piece of theirs off the mat (its destinations lit)?"""
    rec = game.recognizer if game is not None and game.status == "playing" else None
    if rec is None:
        return False
    pos = rec.board.position
    return lifting_own(pos, pos.occupied() - rec.occupancy)


def led_scene(game: PublicGame | None, occupancy: frozenset[int]) -> outputs.Scene:
    if game is None:
        return {}
    if game.status == "finished":
        assert game.referee.result is not None
        # Not game.table(): the Shadow Master's win leaves no master on the board at all.
        board = str(game.referee.view(None)["position"]).split()[0]
        return outputs.winner_scene(board, game.referee.result)
    if game.status == "sync":
        missing, extra = game.sync_diff(occupancy)
        return outputs.sync_scene(game.table()[0], missing, extra)
    rec = game.recognizer
    if rec is None:
        return {}
    feedback = rec.feedback()
    scene = outputs.reading_scene(feedback)
    if rec.prompt is not None or game.wrong or feedback.pairs:
        return scene           # a question or a mat out of step comes first
    expected = game.expected
    if expected is not None:
        # Over it, the last move's flash while it lasts.
        flash = {sq: e for sq, e in scene.items() if feedback.scene.get(sq, None) is not None
                 and feedback.scene[sq].effect == "flash"}
        # A step already made (held: its other step is to come) is no longer lit.
        made = mat_steps(game.held) if game.held is not None else ()
        return {**outputs.expected_scene(expected.seat, expected.steps(), _captures(game, expected), made),
                **flash}
    # In a way with secrets a hint is graded from the asking seat's view (its own Ninja): the
    # mat never shows it (``mat_hint`` is None there), its phone does.
    hint = game.mat_hint
    lifted = rec.board.position.occupied() - rec.occupancy
    if hint is not None and hint[0] in game.referee.to_act() and len(lifted) == 1:
        # Only the asking seat's own lifted piece, on its own turn.
        grades = hint[1].get(square_name(next(iter(lifted))))
        if grades:
            return outputs.hint_scene(scene, grades)
    return scene

"""What the table shows: announcements, the OLED's pages and every LED scene, as pure functions.

Nothing here keeps state or touches hardware: each function takes what the game thread knows
(views, events, counts) and returns a scene for the LED animator (square -> cue, in the LED
grammar of :mod:`companion.mat.feedback`), or an announcement (:class:`Show`: OLED lines and squares for a few seconds), or fits a text onto
the OLED's pages. The words themselves are all in :mod:`companion.mat.oled`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..mat import oled
from ..mat.feedback import HINT_COLOURS, PALETTE, Cue, blink, cues, pulse, steady, sweep
from ..mat.scene import Feedback
from ..rules.referee import Event, Result
from ..rules.squares import parse_square
from .instructions import ExpectedWords
from .viewtypes import PromptView

SHOW_S = 4.0          # how long an announcement holds the OLED and its squares
SWEEP_S = 2.0         # a Lantern's sweep along its line, before the answer shows

Lines = oled.Lines
Scene = dict[int, Cue]


@dataclass
class Show:
    """An announcement: OLED lines and lit squares for ``seconds``, over the normal view.
    ``turn``: news of the turn in progress (a hint, a move taken back), which ends with it:
    once the game moves on (a new version), it is old news, not shown."""
    seconds: float
    lines: Lines
    scene: Mapping[int, Cue]
    until: float = 0.0
    turn: bool = False
    version: object = None      # the game's version it was announced in (Display)


# -- the OLED ----------------------------------------------------------------------------

# -- fitting the screen --------------------------------------------------------------------

PAGE_S = 3.0          # a text longer than the screen shows a page this long, then the next


def _wrapped(line: str) -> list[str]:
    """A line of more than the screen's columns, broken between words (indented after)."""
    if len(line) <= oled.COLUMNS:
        return [line]
    out, current = [], ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current.strip() else f"{current}{word}"
        if len(candidate) <= oled.COLUMNS or not current.strip():
            current = candidate
        else:
            out.append(current)
            current = "  " + word
    out.append(current)
    return [oled.cut(part) for part in out]


def paged(lines: Lines) -> list[Lines]:
    """``lines`` (a title, then the text) as screens that fit: long lines broken between
    words, and more than four lines spread over pages, each titled ``p1/2``, ``p2/2``."""
    title, body = lines[0], [part for line in lines[1:] for part in _wrapped(line)]
    if len(body) <= oled.BODY_LINES:
        return [(title, *body)]
    chunks = [body[i:i + oled.BODY_LINES] for i in range(0, len(body), oled.BODY_LINES)]
    # "page 1/2" would not fit; "p1/2" does not read as a count of anything ("Hint for Red 1/2").
    return [(oled.cut(f"{title} p{n}/{len(chunks)}"), *chunk)
            for n, chunk in enumerate(chunks, 1)]


def page_now(lines: Lines, now: float) -> Lines:
    """The page of ``lines`` to show at time ``now``."""
    pages = paged(lines) if lines else [lines]
    return pages[int(now / PAGE_S) % len(pages)]


def no_new_game_show(why: str) -> Show:
    """A new game the disk refused (``why``: ``storage full``): the game on the mat goes on."""
    return Show(SHOW_S, oled.no_new_game_lines(why), {})


def handed_back_show(seat: str) -> Show:
    """The computer could not choose a move for ``seat``: a person plays it from now on."""
    return Show(SHOW_S * 2, oled.handed_back_lines(seat), {})


def wrong_move_show(words: ExpectedWords) -> Show:
    """The mat showed another move than the one asked for: it is not played."""
    return Show(SHOW_S, oled.wrong_move_lines(words.whom, words.move), {}, turn=True)


def hint_asked_show(seat: str, left: int) -> Show:
    return Show(SHOW_S, oled.hint_asked_lines(seat, left), {}, turn=True)


def endgames_show(percent: int) -> Show:
    """Shown for two seconds every five while the deal's endgames take more than two."""
    return Show(2.0, oled.endgames_lines(percent), {})


def solved_hint_show(seat: str, words: str) -> Show:
    return Show(SHOW_S, oled.solved_hint_lines(seat, words), {}, turn=True)


NO_HINT_SHOW = Show(SHOW_S, oled.NO_HINT, {}, turn=True)
HINT_ON_PHONE_SHOW = Show(SHOW_S, oled.HINT_ON_PHONE, {}, turn=True)


def set_aside_show(game_id: int) -> Show:
    return Show(3 * SHOW_S, oled.set_aside_lines(game_id), {})


def refused_show(reason: str) -> Show:
    """The mat shows a move the referee refuses (a rule the mat cannot know)."""
    return Show(SHOW_S, (oled.NOT_ALLOWED, *_wrapped(reason)[:oled.BODY_LINES]), {})


# -- announcements -----------------------------------------------------------------------

def with_next(lines: Lines, game: Lines) -> Lines:
    """An announcement holds the OLED for seconds while the game goes on: its last line says
    what comes next (``Blue to move``, the first line of what the OLED says after it), when
    that fits the screen and the announcement does not already end in an instruction."""
    nxt = game[0] if game else ""
    if not nxt or nxt in lines or len(lines) >= 1 + oled.BODY_LINES or len(nxt) > oled.COLUMNS:
        return lines
    return (*lines, nxt)


def line_squares(line: str) -> list[int]:
    """``"rank 3"`` or ``"file c"`` (a Lantern's line) -> its squares, in sweep order."""
    kind, name = line.split()
    if kind == "rank":
        return [(int(name) - 1) * 5 + f for f in range(5)]
    return [r * 5 + "abcde".index(name) for r in range(5)]


def announcements(events: Iterable[Event]) -> list[Show]:
    """The public events of a turn, as shows on the OLED and the mat, one after another."""
    return [show for event in events if event.public
            for show in [_announcement(event.kind, event.data)] if show is not None]


def _announcement(kind: str, data: Mapping[str, Any]) -> Show | None:
    if kind == "strike":
        return Show(SHOW_S, oled.strike_lines(data["hit"], data["by"], data["square"]),
                    {parse_square(data["square"]): blink(PALETTE[data["by"]])})
    if kind == "ninja_capture":
        return Show(SHOW_S, oled.ninja_capture_lines(data["by"], data["captured"], data["square"]),
                    {parse_square(data["square"]): blink(PALETTE["amber"], "error")})
    if kind == "ninja_captured":
        return Show(SHOW_S, oled.ninja_captured_lines(data["owner"], data["square"]),
                    {parse_square(data["square"]): pulse(PALETTE["green"])})
    if kind == "lantern":
        return Show(SWEEP_S, oled.lantern_lines(data["by"], data["line"]),
                    sweep(line_squares(data["line"]), PALETTE["white"]))
    if kind == "lantern_answer":
        colour = PALETTE["green"] if data["answer"] else PALETTE["red"]
        return Show(SHOW_S, oled.lantern_answer_lines(data["answer"], data["line"]),
                    {sq: steady(colour, "hint") for sq in line_squares(data["line"])})
    return None


# -- the LEDs ----------------------------------------------------------------------------

def sync_scene(pieces: Mapping[int, str], missing: Iterable[int], extra: Iterable[int]) -> Scene:
    """Setting up, or putting the mat back in step: where pawns go, and where none should be.
    As for a move made for someone: a pawn to lift breathes (amber, never dark, so a glance
    always finds it), a square to fill blinks in its pawn's colour."""
    scene: Scene = {}
    for sq in missing:
        piece = pieces[sq]
        colour = "red" if piece in "Rr" else "blue" if piece in "Bb" else "white"
        scene[sq] = blink(PALETTE[colour])
    for sq in extra:
        scene[sq] = pulse(PALETTE["amber"])
    return scene


def winner_scene(board: str, result: Result) -> Scene:
    """The game is over: the winner's master pulses in the winner's colour
    (``docs/recognizer.md``); a draw, or a winner with no master on the mat (the Shadow
    Master), shows nothing. ``board`` is the position string's board field."""
    if result.winner is None:
        return {}
    master = "R" if result.winner == "red" else "B"
    for rank, row in zip(range(4, -1, -1), board.split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            if ch == master:
                return {rank * 5 + file: pulse(PALETTE[result.winner])}
            file += 1
    return {}


def takeback_show(words: str) -> Show:
    """The mat took the last move back (its pawns returned): said on the OLED in players'
    words (``Elephant, b1 to c2``), not notation."""
    return Show(SHOW_S, oled.takeback_lines(words), {}, turn=True)   # then "Red to move" (with_next)


def reading_scene(feedback: Feedback) -> Scene:
    """While the recognizer reads a move: its cues."""
    return cues(feedback)


def expected_scene(seat: str, steps: Iterable[tuple[int, int]],
                   captures: Iterable[int] = (), made: Iterable[tuple[int, int]] = ()) -> Scene:
    """A move to make on the mat for someone (docs/recognizer.md): the piece to lift breathes
    (pulse) and where it goes blinks, the pawn's step in the seat's colour, a Spirit's step in
    white; a destination that ``captures`` blinks amber (take that pawn off). Steps ``made``
    already are not lit."""
    scene: Scene = {}
    taken, done = set(captures), set(made)
    for i, (frm, to) in enumerate(steps):
        if (frm, to) in done:
            continue
        rgb = PALETTE[seat] if i == 0 else PALETTE["white"]
        scene[frm] = pulse(rgb)
        scene[to] = blink(PALETTE["amber"] if to in taken else rgb)
    return scene


def hint_scene(scene: Scene, grades: Mapping[str, str]) -> Scene:
    """The lifted pawn's destinations (``{square name: grade}``) coloured by their grade."""
    return {**scene, **{parse_square(sq): steady(HINT_COLOURS[grade])
                        for sq, grade in grades.items()}}


def with_show(scene: Scene, show: Show | None) -> tuple[tuple[int, Cue], ...]:
    """The scene with an announcement's squares over it, in a comparable form."""
    return tuple(sorted({**scene, **(show.scene if show is not None else {})}.items()))


# -- the phones' question ------------------------------------------------------------------

def prompt_view(prompt: Mapping[str, Any],
                turn_of: Callable[[str, str], int | None]) -> PromptView:
    """The recognizer's question for a seat, its cards' buttons A and B as the question's own
    map names them (the mat's buttons and OLED read the same map): a card without one is
    answered on the phone. ``turn_of(seat, option)``: the turn an answer names (option: a
    card or "takeback")."""
    keys = prompt.get("buttons", {})
    buttons = {card: keys[card] for card in prompt["choose"] if card in keys}
    options = [*prompt["choose"], *(["takeback"] if "takeback" in prompt else [])]
    out: PromptView = {"seat": prompt["seat"], "choose": list(prompt["choose"]), "buttons": buttons,
           "turns": _turns(prompt["seat"], options, turn_of),
           "question": f"{prompt['seat'].title()}: which card? " +
                       "  ".join(f"{buttons[c]}: {c}" if c in buttons else c for c in prompt["choose"])}
    if "takeback" in prompt:
        out["takeback"] = prompt["takeback"]
        out["question"] += "  C: take back"
    reply = prompt.get("reply")
    if reply is not None:
        # "Whose step was it?": the other player may answer that the step was theirs (button
        # C at the mat when they have one card to name, or their phone).
        out["reply"] = {"seat": reply["seat"], "choose": list(reply["choose"]),
                        "buttons": _reply_buttons(prompt),
                        "turns": _turns(reply["seat"], reply["choose"], turn_of)}
        out["question"] += f"  or {reply['seat'].title()}: " + ", ".join(reply["choose"])
    return out


def _turns(seat: str, options: Iterable[str],
           turn_of: Callable[[str, str], int | None]) -> dict[str, int]:
    return {o: turn for o in options if (turn := turn_of(seat, o)) is not None}


def _reply_buttons(prompt: Mapping[str, Any]) -> dict[str, str]:
    """Button C names the reply card, when there is one and no takeback is offered (the
    question's map)."""
    keys = prompt.get("buttons", {})
    return {card: keys[card] for card in prompt["reply"]["choose"] if card in keys}

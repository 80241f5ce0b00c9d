"""Every text the OLED shows, in one place, and the screen's size in characters.

The OLED is 128x64 pixels drawn in a 6x11 font: 21 columns and 5 lines (``firmware/screens.py``
draws them; tests/table/test_oled_texts.py checks that it agrees). To change what the table
says on its screen, change it here: the mat's own texts (a mat out of step, the card question,
the end of a game, play and an amended move) and the service's (idle, set-up, the computer,
hints, announcements, joining). Each function takes plain data and returns the lines; fitting a
long text onto pages of the screen is the service's (``companion.table.outputs``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..rules.position import COLORS, Position
from ..rules.referee import Result
from ..rules.results import how

COLUMNS = 21          # characters a line
LINES = 5             # lines a screen
BODY_LINES = LINES - 1  # under a title

Lines = tuple[str, ...]

NEW_GAME = "Hold C: new game"
NOT_ALLOWED = "Not allowed"
STARTING: Lines = ("Onitama", "Starting...")
CONFIRM_NEW_GAME: Lines = ("New game?", "Hold C again to", "abandon this one")
NO_HINT: Lines = ("No hint", "none left, or not", "your move on the mat")
# Hold A in a way with secrets: a hint is the asking seat's own, shown on its phone alone.
HINT_ON_PHONE: Lines = ("No hint here", "ask for one on", "your phone")


def cut(line: str) -> str:
    """``line`` as one line of the screen: spaces run together, and past the screen's width cut
    with an ellipsis (as the driver draws it)."""
    line = " ".join(line.split())
    return line if len(line) <= COLUMNS else line[:COLUMNS - 1].rstrip() + "\u2026"


def phrases(text: str) -> list[str]:
    """``Ox, b4 to b3, takes a student`` in lines broken only between its phrases (a square
    never parts from its "to"), as many phrases a line as fit."""
    out: list[str] = []
    for part in text.split(", "):
        if out and len(f"{out[-1]} {part},") <= COLUMNS:
            out[-1] = f"{out[-1]} {part},"
        else:
            out.append(f"{part},")
    out[-1] = out[-1].removesuffix(",")
    return out


# A card the mat's buttons cannot name (two options' cards at one place in their hands).
PHONE_CARD = "tap the card on phone"

# -- the mat (companion.mat.scene, the recognizer) -------------------------------------------

def out_of_sync_lines(hint: str) -> Lines:
    """The recognizer's mat out of step; ``hint`` from :func:`out_of_sync_hint`."""
    return ("Mat out of sync", hint, "or make a legal move")


def out_of_sync_hint(pair: tuple[str, str] | None, extra: str | None) -> str:
    """The first thing to set right: a pawn to move (``pair``: from, to), one to take off."""
    if pair is not None:
        return f"move {pair[0]} to {pair[1]}"
    if extra is not None:
        return f"take off the pawn on {extra}"
    return "fix the blinking squares"


def question_lines(prompt: Mapping[str, Any], must_pass: bool) -> Lines:
    """A question waiting (which card, whose step, a pass): the buttons named as the
    prompt's ``buttons`` map says (the phones read the same map); a card with no button of
    its own is named bare, to be answered on the phone."""
    asked = prompt["seat"].title()
    keys = prompt.get("buttons", {})
    choices = "  ".join(f"{keys[c]}:{c}" if c in keys else c for c in prompt["choose"])
    reply = prompt.get("reply")
    if must_pass:
        first, second = f"{asked} cannot move:", "give up a card"
    elif reply:
        first, second = "Whose step was it?", f"{asked}: your card?"
    else:
        first, second = f"{asked}: which card?", "did you play?"
    if "takeback" in prompt:
        last = "C: take back"
    elif reply and len(reply["choose"]) == 1:
        last = f"C: {reply['seat'].title()}'s {reply['choose'][0]}"
    else:
        last = "or answer on phone"
    if any(c not in keys for c in prompt["choose"]):
        return (first, second, choices, *([last] if last.startswith("C:") else []), PHONE_CARD)
    return (first, second, choices, last)


def outcome_lines(winner: str, how_name: str) -> Lines:
    return (f"{winner.title()} wins", how(how_name).title)


def amended_lines(who: str, move: str) -> Lines:
    """An amended turn, announced over play for a few seconds."""
    return (f"{who} amended:", move)


def play_lines(pos: Position, announce: Lines | None, waiting: str | None) -> Lines:
    """Play going on: whose turn and their cards, after an amendment's announcement, or
    the seat the mat waits on to finish a turn."""
    who = COLORS[pos.turn].title()
    hand = pos.hands[pos.turn]
    oled = (f"{who} to move", "  ".join(f"{'AB'[i]}:{c}" for i, c in enumerate(hand)))
    if announce is not None:
        return announce + oled
    if waiting is not None:
        return (f"{waiting.title()}: waiting for", "the rest of the turn")
    return oled


def spirit_step_lines(mover: str, cards: Iterable[str], then: Lines) -> Lines:
    """The pawn step just made is a regular card's whole turn and a Wind Spirit card's first
    step (the recognizer's ``spirit_may_follow``): the turn is not said to be over while its
    Spirit step may follow (``then``: the play lines, whose move it is after it and their
    cards, the last line left out when it would not fit)."""
    named = f"the Spirit ({' or '.join(cards)});"
    lines = (f"{mover.title()}: Spirit step?", f"{mover.title()} may still move",
             named if len(named) <= COLUMNS else "the Spirit;", f"else {then[0]}", *then[1:])
    return tuple(line for line in lines[:LINES] if len(line) <= COLUMNS)


# -- the table (companion.table) ------------------------------------------------------------

def idle_lines(public_url: str | None) -> Lines:
    # The address without its scheme: "192.168.100.200:8080" fits a line, with http:// not.
    address = (public_url or "").split("://", 1)[-1]
    return ("Onitama", NEW_GAME, *(() if not address else (address,)))


def finished_lines(result: Result) -> Lines:
    if result.winner is None:
        return ("Draw", NEW_GAME)
    return (*outcome_lines(result.winner, result.how), NEW_GAME)


def hold_b(computer: Mapping[str, str] | None) -> str:
    """What holding B does at a base game's set-up (``opponent.computer_cycle``): the computer
    plays Blue, then Red, then nobody."""
    seats = tuple(sorted(computer or ()))
    return {(): "vs computer", ("blue",): "computer Red"}.get(seats, "no computer")


def setup_lines(fields: list[str], computer: Mapping[str, str] | None = None,
                cycle: bool = False) -> Lines:
    """The deal to lay out, from the public position string's five fields, after the seats
    the computer plays, if any (hold B to change them in a base game's set-up). They are not
    in the title: a deal that takes two pages adds "p1/2" to it, and the seat was cut off.
    ``cycle``: a base game, where holding B seats the computer (said under the seats)."""
    seats = [f"Computer: {', '.join(seat.title() for seat in sorted(computer))}"] if computer else []
    hold = [f"Hold B: {hold_b(computer)}"] if cycle else []
    return ("Set up", *seats, *hold, f"Red: {fields[2].replace(',', ', ')}",
            f"Blue: {fields[3].replace(',', ', ')}", f"Side: {fields[4]}", f"{fields[1].title()} starts")


def mismatch_lines(missing: int, extra: int, pair: tuple[str, str] | None = None) -> Lines:
    """The mat out of step with the game: the first pawn to move, in the pages' words
    (``Move the pawn on a2 to a1``), else the counts."""
    if pair is not None:
        more = missing + extra - 2
        return ("Put pawns back", f"Move the pawn on {pair[0]}", f"to {pair[1]}",
                *((f"then {more} more square{'s' * (more != 1)}",) if more > 0 else ()))
    return ("Put pawns back", f"{missing} missing, {extra} extra", "Lit: where they go")


def unsaved_lines(message: str, lines: Lines) -> Lines:
    """``Cannot save: storage full`` over what the table shows (putting the pawn back, then
    the game as it was), until an action is saved again."""
    head, _, why = message.partition(": ")
    return (f"{head}:", why, *lines[:3])


def no_new_game_lines(why: str) -> Lines:
    """A new game the disk refused (``why``: ``storage full``): the game on the mat goes on."""
    return ("No new game:", "cannot save,", why)


def phone_turn_lines(phase: str, to_act: Iterable[str], ninjas: int = 1) -> Lines:
    """A step the phones play (a Ninja, a Lantern, a commitment, a move made off the mat);
    ``ninjas``: how many each seat hides at set-up (the Shadow Master of Way of the Light: 2)."""
    seats = list(to_act)
    who = "Both" if len(seats) > 1 else " and ".join(s.title() for s in seats)
    return {"setup": (f"{who}: place", f"your Ninja{'s' * (ninjas > 1)} on", "your phone"),
            "ninja": (f"{who}: move your", "Ninja or skip,", "on your phone"),
            "lantern": (f"{who}: a Lantern", "or skip,", "on your phone"),
            "commit": (f"{who}: choose", "your move on", "your phone")}.get(
                phase, (f"{who} to play", "on the phone"))


def takeover_lines(seat: str) -> Lines:
    return ("New phone for", f"the {seat.title()} seat", "A: allow  B: refuse")


def join_lines(seat: str) -> Lines:
    """The join page's text (on the Pi's web picture, and under the QR code's caption)."""
    return (f"{seat.title()} seat", "Scan to join", "C: next page")


def wifi_lines(ssid: str) -> Lines:
    """The Wi-Fi page's text (the picture others than the table get, and the pages' status)."""
    return ("Wi-Fi", ssid, "Scan to join", "C: next page")


def join_caption(seat: str) -> str:
    return f"{seat.title()} seat: scan to join"


def wifi_caption(ssid: str) -> str:
    """Beside the QR code a line holds 10 characters: a longer name breaks after its hyphens
    (``Onitama-`` / ``TEST``), not mid-word (``Onitama-TE`` / ``ST``)."""
    name = ssid.replace("-", "- ") if len(ssid) > 10 else ssid
    return f"Scan to join Wi-Fi {name}"


def expected_lines(head: str, whom: str, move: str) -> Lines:
    """A move the mat is asked to make for the computer or for a player on a phone: the
    sentence every screen says (``companion.table.instructions``), cut for the OLED."""
    return (head, f"{whom}:", *phrases(move))


def wrong_move_lines(whom: str, move: str) -> Lines:
    """The mat showed another move than the one asked for: it is not played."""
    return ("Not that move", "Put it back, then", f"{whom}:", *phrases(move))


def handed_back_lines(seat: str) -> Lines:
    """The computer could not choose a move for ``seat``: a person plays it from now on."""
    return ("Computer stuck", f"No move for {seat.title()}:", f"{seat.title()} is played", "by hand now")


def thinking_lines(seat: str) -> Lines:
    return ("Computer thinking", f"for {seat.title()}...")


def waiting_remote_lines(seat: str) -> Lines:
    return (f"{seat.title()} plays", "on their phone", "waiting for the move")


def hint_asked_lines(seat: str, left: int) -> Lines:
    """One screen, broken between phrases: the count of hints left is in the title, apart
    from any page counter."""
    return (f"{seat.title()} hint, {left} left", "Lift a pawn, then:",
            "green = good move", "yellow = risky", "red = losing")


def endgames_lines(percent: int) -> Lines:
    """The deal's exact endgames being solved (companion.ai.dealtables), past two seconds."""
    return ("Endgames", f"solving: {percent}%", "play on meanwhile")


def solved_hint_lines(seat: str, words: str) -> Lines:
    """A hint on a solved position: its exact outcome (``b1-b2 wins in 3``)."""
    return (f"{seat.title()} hint: solved", words)


def set_aside_lines(game_id: int) -> Lines:
    """At start: the unfinished game's record cannot be read or replayed (see /games)."""
    return (f"Game {game_id} set aside:", "it cannot be", "resumed (see the", "list of games)")


def stray_lines(short: str, frm: str, to: str) -> Lines:
    """A pawn moved from ``frm`` to ``to`` where no turn allows: the rule it breaks, in short
    (``companion.rules.describe.why_not``), and the way back."""
    return (NOT_ALLOWED, short, f"move {to} back to {frm}", "or make a legal move")


def takeback_lines(words: str) -> Lines:
    """The mat took the last move back (its pawns returned): said in players' words
    (``Elephant, b1 to c2``), not notation."""
    return ("Move taken back", *phrases(words))


# -- announcements of the referee's public events --------------------------------------------

def strike_lines(hit: bool, by: str, square: str) -> Lines:
    return ("Strike: a hit!" if hit else "Strike: a miss", f"{by.title()}'s Ninja at {square}",
            "seen till their turn")


def ninja_capture_lines(by: str, captured: str, square: str) -> Lines:
    loser = "Blue" if by == "red" else "Red"
    # Not "strikes": a Strike is another step, one that takes nothing from the mat.
    return ("Ninja capture", f"{by.title()}'s Ninja took the", f"{captured} on {square}:",
            f"{loser}, lift it off")


def ninja_captured_lines(owner: str, square: str) -> Lines:
    return ("Ninja captured!", f"{owner.title()}'s Ninja", f"was on {square}")


def lantern_lines(by: str, line: str) -> Lines:
    return ("Lantern", f"{by.title()} searches", line)


def lantern_answer_lines(answer: bool, line: str) -> Lines:
    return (f"Lantern: {'yes' if answer else 'no'}", line)

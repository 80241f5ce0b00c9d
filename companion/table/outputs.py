"""What the table shows: every OLED text and every LED scene, as pure functions.

Nothing here keeps state or touches hardware: each function takes what the game thread knows
(views, events, counts) and returns lines for the OLED or a scene for the LED animator
(square -> effect). To change a wording, change it here. (The recognizer's own prompts, such
as "which card?", come with its feedback from ``companion.mat.feedback``.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from firmware.animation import Blink, Effect, Pulse, Steady, Urgency, sweep

from ..mat.feedback import PALETTE, Cue, cues
from ..mat.recognizer import Feedback
from ..rules.referee import Event, Result
from ..rules.squares import parse_square

SHOW_S = 4.0          # how long an announcement holds the OLED and its squares
SWEEP_S = 2.0         # a Lantern's sweep along its line, before the answer shows

Lines = tuple[str, ...]
Scene = dict[int, Effect]

STARTING: Lines = ("Onitama", "Starting...")


@dataclass
class Show:
    """An announcement: OLED lines and lit squares for ``seconds``, over the normal view."""
    seconds: float
    lines: Lines
    scene: Mapping[int, Effect]
    until: float = 0.0


# -- the OLED ----------------------------------------------------------------------------

def idle_lines(public_url: str | None) -> Lines:
    return ("Onitama", "Hold C: new game", *(() if not public_url else (public_url,)))


def finished_lines(result: Result) -> Lines:
    head = "Draw" if result.winner is None else f"{result.winner.title()} wins ({result.how})"
    return (head, "Hold C: new game")


def setup_lines(fields: list[str]) -> Lines:
    """The deal to lay out, from the public position string's five fields."""
    return ("Set up", f"Red: {fields[2].replace(',', ', ')}", f"Blue: {fields[3].replace(',', ', ')}",
            f"Side: {fields[4]}", f"{fields[1].title()} starts")


def mismatch_lines(missing: int, extra: int) -> Lines:
    return ("Put pawns back", f"{missing} missing, {extra} extra", "Lit squares: where they go")


def unsaved_lines(message: str, lines: Lines) -> Lines:
    """``Cannot save: storage full`` over what the table shows (putting the pawn back, then
    the game as it was), until an action is saved again."""
    head, _, why = message.partition(": ")
    return (f"{head}:", why, *lines[:3])


CONFIRM_NEW_GAME: Lines = ("New game?", "Hold C again to", "abandon this one")


def phone_turn_lines(phase: str, to_act: Iterable[str]) -> Lines:
    """A step the phones play (a Ninja, a Lantern, a commitment, a move made off the mat)."""
    who = " and ".join(s.title() for s in to_act)
    return {"setup": (f"{who}: place", "your Ninja on", "your phone"),
            "ninja": (f"{who}: move your", "Ninja or skip,", "on your phone"),
            "lantern": (f"{who}: a Lantern", "or skip,", "on your phone"),
            "commit": (f"{who}: choose", "your move on", "your phone")}.get(
                phase, (f"{who} to play", "on the phone"))


def takeover_lines(seat: str) -> Lines:
    return ("New phone for", f"the {seat} seat", "A: allow  B: refuse")


def join_lines(seat: str) -> Lines:
    """The join page's text (on the Pi's web picture, and under the QR code's caption)."""
    return (f"{seat.title()} seat", "Scan to join", "C: next page")


def wifi_lines(ssid: str) -> Lines:
    """The Wi-Fi page's text (the picture others than the table get, and the pages' status)."""
    return ("Wi-Fi", ssid, "Scan to join", "C: next page")


def join_caption(seat: str) -> str:
    return f"{seat.title()} seat: scan to join"


def set_aside_show(game_id: int) -> Show:
    """At start: the unfinished game's record cannot be read or replayed (see /games)."""
    return Show(3 * SHOW_S, (f"Game {game_id} set aside:", "it cannot be", "resumed (see the",
                             "list of games)"), {})


def refused_show(reason: str) -> Show:
    """The mat shows a move the referee refuses (a rule the mat cannot know)."""
    return Show(SHOW_S, ("Not allowed", reason), {})


# -- announcements -----------------------------------------------------------------------

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
        return Show(SHOW_S, ("Strike: a hit!" if data["hit"] else "Strike: a miss",
                             f"{data['by'].title()}'s Ninja at {data['square']}",
                             "shown until their next turn"),
                    {parse_square(data["square"]): Blink(PALETTE[data["by"]], Urgency.NORMAL)})
    if kind == "ninja_capture":
        loser = "Blue" if data["by"] == "red" else "Red"
        return Show(SHOW_S, (f"{data['by'].title()}'s Ninja strikes", f"{loser}: remove your",
                             f"{data['captured']} on {data['square']}",
                             f"The Ninja stands on {data['square']}"),
                    {parse_square(data["square"]): Blink(PALETTE["amber"], Urgency.ERROR)})
    if kind == "ninja_captured":
        return Show(SHOW_S, ("Ninja captured!", f"{data['owner'].title()}'s Ninja",
                             f"was on {data['square']}"),
                    {parse_square(data["square"]): Pulse(PALETTE["green"])})
    if kind == "lantern":
        return Show(SWEEP_S, ("Lantern", f"{data['by'].title()} searches", data["line"]),
                    sweep(line_squares(data["line"]), PALETTE["white"]))
    if kind == "lantern_answer":
        colour = PALETTE["green"] if data["answer"] else PALETTE["red"]
        return Show(SHOW_S, (f"Lantern: {'yes' if data['answer'] else 'no'}", data["line"]),
                    {sq: Steady(colour, Urgency.HINT) for sq in line_squares(data["line"])})
    return None


# -- the LEDs ----------------------------------------------------------------------------

def effect(cue: Cue) -> Effect:
    """A recognizer cue (``companion.mat.feedback``) as the animator's effect."""
    urgency = Urgency[cue.urgency.upper()]
    if cue.kind == "blink":
        return Blink(cue.rgb, urgency, cue.phase)
    if cue.kind == "pulse":
        return Pulse(cue.rgb, urgency)
    return Steady(cue.rgb, urgency)


def sync_scene(pieces: Mapping[int, str], missing: Iterable[int], extra: Iterable[int]) -> Scene:
    """Setting up, or putting the mat back in step: where pawns go, and where none should be."""
    scene: Scene = {}
    for sq in missing:
        piece = pieces[sq]
        colour = "red" if piece in "Rr" else "blue" if piece in "Bb" else "white"
        scene[sq] = Pulse(PALETTE[colour])
    for sq in extra:
        scene[sq] = Blink(PALETTE["amber"], Urgency.ERROR)
    return scene


def reading_scene(feedback: Feedback) -> Scene:
    """While the recognizer reads a move: its cues."""
    return {sq: effect(cue) for sq, cue in cues(feedback).items()}


def with_show(scene: Scene, show: Show | None) -> tuple[tuple[int, Effect], ...]:
    """The scene with an announcement's squares over it, in a comparable form."""
    return tuple(sorted({**scene, **(show.scene if show is not None else {})}.items()))


# -- the phones' question ------------------------------------------------------------------

def prompt_view(prompt: Mapping[str, Any], hand: list[str]) -> dict[str, Any]:
    """The recognizer's question for a seat. Buttons A and B stand for the prompted player's
    first and second card in hand (``hand``: its names as in the position string)."""
    buttons = {card: "AB"[hand.index(card.replace(" ", "-"))] for card in prompt["choose"]
               if card.replace(" ", "-") in hand[:2]}
    out = {"seat": prompt["seat"], "choose": list(prompt["choose"]), "buttons": buttons,
           "question": f"{prompt['seat'].title()}: which card? " +
                       "  ".join(f"{b}: {c}" for c, b in buttons.items())}
    if "takeback" in prompt:
        out["takeback"] = prompt["takeback"]
        out["question"] += "  C: take back"
    return out

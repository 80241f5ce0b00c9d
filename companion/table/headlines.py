"""What a player's phone says at the top: what to do now, in a few words.

A pure function of the seat's own view (the companion's view for that seat: ``game``,
``setup``, ``table``, ``mat``), so it can never say more than the seat may know. What just
happened to the seat comes first when it changes what the player must do ("Remove your student
from d2", "Your Ninja was struck", "Blue's Lantern found your Ninja (rank 3)").
"""

from __future__ import annotations

import re
from typing import Any

from ..rules.position import board_pieces
from ..rules.results import how as result_how
from ..rules.squares import square_name
from ..rules.ways import WAYS
from .instructions import ExpectedWords
from .spiritstep import waiting_on_spirit
from .viewtypes import GameView, MatView, RefereeView, Said, View

DOING = {"move": "is making their move", "ninja": "may move their Ninja",
         "lantern": "may light a Lantern", "setup": "is hiding their Ninja",
         "commit": "is choosing their move", "take": "is taking a card"}
PIECE = {"R": "master", "r": "student", "B": "master", "b": "student", "W": "Wind Spirit"}


def _other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def _mat_reads_moves(variant: str) -> bool:
    """The registry says where this way's moves are made (a new way is one entry there)."""
    way = WAYS.get(variant)
    return way is not None and way.mat_reads_moves


def _has_pawns(position: str, seat: str) -> bool:
    return any(p in ("Rr" if seat == "red" else "Bb") for p in board_pieces(position).values())


def news(view: View, seat: str) -> str | None:
    """What the other player's last turn did to this seat's pieces, if anything."""
    table = view.get("table") or {}
    moves = table.get("moves") or []
    if not moves or moves[-1]["seat"] != _other(seat):
        return None
    by, text = _other(seat).title(), moves[-1]["text"]
    if re.search(r"S\?[a-e][1-5]\+", text):
        return "Your Ninja was struck"
    if " xN" in text:
        return "Your Ninja was captured"
    if m := re.search(r"L([1-5a-e])\+", text):
        line = f"rank {m[1]}" if m[1].isdigit() else f"file {m[1]}"
        return f"{by}'s Lantern found your Ninja ({line})"
    return None


def sync_words(view: View, seat: str | None) -> tuple[str, str]:
    """The mat is out of step with the game: the first thing to set right (``seat``: whose
    phone says it; None: the public pages)."""
    table, mat = view.get("table") or {}, view.get("mat")
    want = board_pieces(table["position"])
    taken = _taken_by_a_ninja(table.get("moves") or [], mat, want, seat)
    if taken is not None:
        return taken
    pairs = (mat.get("pairs") if mat else None) or []
    if pairs:
        frm, to = pairs[0]
        return f"Move the pawn on {frm} to {to}", "The mat does not match the game yet."
    wrong = (mat.get("wrong") if mat else None) or []
    extra = [s for s in wrong if not any(square_name(sq) == s for sq in want)]
    if extra:
        return f"Take the pawn off {extra[0]}", "The mat does not match the game yet."
    if wrong:
        return f"Put {_what(want.get(_index(wrong[0]), ''))} on {wrong[0]}", "The mat does not match the game yet."
    return "Put the pawns back", "Stand them as the game has them: the lit squares show where."


def _taken_by_a_ninja(moves: list[dict[str, Any]], mat: MatView | None, want: dict[int, str],
                      seat: str | None) -> tuple[str, str] | None:
    """A Ninja took a pawn from a phone in the last turn: its owner lifts it off the mat."""
    last = moves[-1]["text"] if moves else ""
    for square in re.findall(r"N\??(?:[a-e][1-5])?([a-e][1-5])", last):
        if mat and square in mat.get("wrong", []) and not any(square_name(sq) == square for sq in want):
            owner = _other(moves[-1]["seat"]) if moves[-1]["seat"] else None
            piece = "master" if f"takes the master on {square}" in moves[-1]["words"] else "student"
            if owner == seat:
                return f"Remove your {piece} from {square}", "A Ninja took it: lift it off the mat."
            if owner:
                return f"{owner.title()} removes their {piece} from {square}", "A Ninja took it."
    return None


def _what(piece: str) -> str:
    """A piece letter of a position string, in words."""
    if piece == "W":
        return "the Wind Spirit"
    if piece not in PIECE:
        return "a pawn"
    return f"the {'Red' if piece in 'Rr' else 'Blue'} {PIECE[piece]}"


def _index(name: str) -> int:
    return "abcde".index(name[0]) + (int(name[1]) - 1) * 5


NO_GAME: Said = {"title": "No game yet", "detail": "Deal one on the table page, or hold C on the companion."}
# A step of the seat's own turn that says the same whatever the board: phase -> (title, detail).
STEP_WORDS = {
    "ninja": ("Your Ninja", "Move it with the card you played, strike, or leave it."),
    "lantern": ("A Lantern?", "Search a rank or a file for the enemy Ninja, or go without."),
    "commit": ("Choose your move", "Both players choose in secret; the mat shows both at once."),
    "take": ("Take a card", "Choose the card that replaces the one you played."),
}


def headline(view: View, seat: str) -> Said:
    """``{"title", "detail"}`` for ``seat``'s phone, from that seat's view: the first of the
    situations below that applies, else whose turn it is."""
    game = view.get("game")
    if not game:
        return NO_GAME
    table = view.get("table") or {}
    for situation in (_result, _setting_up, _out_of_step, _notice, _question, _expected, _spirit_step):
        said = situation(view, table, seat)
        if said is not None:
            return said
    return _turn(view, game, table, seat)


def _result(view: View, table: RefereeView, seat: str) -> Said | None:
    r = table.get("result")
    if not r:
        return None
    if r.get("how") == "abandoned":
        return {"title": "The game was ended", "detail": "Deal a new one to play again."}
    if not r.get("winner"):
        return {"title": "A draw", "detail": "Nobody wins this one."}
    how = result_how(r["how"]).by
    if r["winner"] == seat:
        return {"title": "You win!", "detail": f"By {how}."}
    return {"title": f"{r['winner'].title()} wins", "detail": f"By {how}."}


def _setting_up(view: View, table: RefereeView, seat: str) -> Said | None:
    setup = view.get("setup")
    if not setup or seat in table.get("to_act", []):
        return None
    light = table.get("light")
    ninjas = ""
    if setup.get("ninjas"):
        ninjas = (f" Only the Shadow Master ({_other(light).title()}) has Ninjas." if light
                  else " Each player hides a Ninja on their phone.")
    mine = setup["red"] if seat == "red" else setup["blue"]
    return {"title": "Set up the mat",
            "detail": f"You take {' and '.join(mine)}; {setup['side']} goes beside the mat. "
                      f"{setup['first'].title()} starts.{ninjas}"}


def _out_of_step(view: View, table: RefereeView, seat: str) -> Said | None:
    game = view.get("game")
    if not game or game.get("status") != "sync" or view.get("setup"):
        return None
    title, detail = sync_words(view, seat)
    return {"title": title, "detail": detail}


def _notice(view: View, table: RefereeView, seat: str) -> Said | None:
    notice = view.get("notice")
    return {"title": "Not allowed", "detail": notice[0].upper() + notice[1:] + "."} if notice else None


def _question(view: View, table: RefereeView, seat: str) -> Said | None:
    mat = view.get("mat")
    prompt = mat.get("prompt") if mat else None
    if not prompt:
        return None
    reply = prompt.get("reply")
    if reply and seat in (prompt["seat"], reply["seat"]):
        # The Spirit's step could be either player's: both seats are asked.
        other = _other(seat).title()
        return {"title": "Whose step was it?", "detail": f"If you moved the Spirit, name your "
                f"card below; if {other} did, {other} answers."}
    if prompt.get("seat") == seat:
        return {"title": "Which card?", "detail": "The mat cannot tell which card you used: answer below."}
    return None


def _expected(view: View, table: RefereeView, seat: str) -> Said | None:
    game = view.get("game")
    expected = game.get("expected") if game else None
    if expected and expected.get("words"):
        # A move made on the mat for the computer or a seat away from the table.
        return ExpectedWords(expected["seat"], expected["by"], expected["words"]).for_seat(seat)
    return None


def _spirit_step(view: View, table: RefereeView, seat: str) -> Said | None:
    """The seat's last move, read as a regular card's, may still go on with a Wind Spirit
    card's Spirit step (the OLED's "Red: Spirit step?"): its mover is told so, not that the
    turn is over, and the other seat that its move waits on that step."""
    mat = view.get("mat")
    spirit = mat.get("spirit") if mat else None
    if spirit is None:
        return None
    if spirit["seat"] != seat:
        # The next player waits for it too: their turn starts only if it does not come.
        return waiting_on_spirit(spirit, "it is your move.")
    cards = " or ".join(spirit["cards"])
    others = [s.title() for s in table.get("to_act", []) if s != seat]
    then = f"if not, {others[0]} moves next." if others else "if not, your turn is over."
    return {"title": "Spirit step?",
            "detail": f"You may still move the Spirit ({cards}) on the mat; {then}"}


def _turn(view: View, game: GameView, table: RefereeView, seat: str) -> Said:
    # News leads only into the turn it changes: once the seat has taken a step of it (its
    # move; now its Ninja or a Lantern), the step in hand is what to say.
    said = news(view, seat) if (table.get("phase") or "move") == "move" else None
    to_act = table.get("to_act", [])
    if seat in to_act:
        title, detail = _todo(game, table, seat)
        detail += _hint_words(view, game)
        if said:
            # "A Lantern?" reads on as a question; a plain title leads into its detail.
            detail = (f"{title} {detail}" if title[-1] in "?!" else f"{title}: {detail[0].lower()}{detail[1:]}")
            return {"title": said, "detail": detail}
        return {"title": title, "detail": detail}
    others = [s for s in to_act if s != seat]
    if said:
        return {"title": said, "detail": f"{others[0].title()} is playing." if others else ""}
    if not others:
        return {"title": "Waiting", "detail": "Your choice is in: waiting for the other player."}
    phase = table.get("phase") or "move"
    return {"title": f"{others[0].title()}'s turn", "detail": _doing(game, others[0], phase)}


def _hint_words(view: View, game: GameView) -> str:
    """How to read the seat's hint, while it is on: after what to do, since the hint's own
    line is below the fold of a phone (390x844). The mat shows the grades, or in a way with
    secrets this seat's phone alone."""
    hints = view.get("hints")
    if hints is None or not hints.get("on"):
        return ""
    way = WAYS.get(game["variant"])
    where = "tap a pawn on this board" if way is not None and way.hidden else "lift a pawn"
    return f" Hint on: {where}; green is good, yellow risky, red losing."


def _todo(game: GameView, table: RefereeView, seat: str) -> tuple[str, str]:
    """What the seat to act does now: (title, detail)."""
    phase = table.get("phase") or "move"
    if phase in STEP_WORDS:
        return STEP_WORDS[phase]
    if phase == "setup":
        legal = table.get("legal") or []
        n = len(legal[0]["squares"]) if legal and legal[0].get("squares") else 1
        return (("Hide your Ninjas", "Tap two lit squares, then confirm. Nobody else sees them.") if n > 1
                else ("Hide your Ninja", "Tap a lit square, then confirm. Nobody else sees it."))
    if game.get("handed_back") == seat:
        return ("The computer cannot move", "It found no move for you here: choose this move "
                "yourself, and the next ones.")
    on_mat = _has_pawns(table["position"], seat)
    if seat in game.get("remote", ()) and on_mat:
        return ("Your turn", "Choose your move below: someone at the table makes it on the mat.")
    if _mat_reads_moves(game["variant"]) and on_mat:
        return ("Your turn", "Make your move on the mat.")
    if table.get("light") and not on_mat:
        return ("Your turn", "Tap a Ninja, then where it goes.")
    return ("Your turn", "Choose your move below.")


def _doing(game: GameView, other: str, phase: str) -> str:
    """What the other seat is doing: a computer's or a remote seat's move comes to the mat."""
    name = other.title()
    if game.get("handed_back") == other:
        return f"The computer found no move for {name}: a person plays {name} now."
    if other in (game.get("computer") or {}):
        return f"The computer is choosing {name}'s move: then make it on the mat."
    if other in (game.get("remote") or ()) and phase == "move":
        return f"{name} is choosing on their phone: then make their move on the mat."
    if phase == "setup" and game.get("variant") == "light":
        return f"{name} is hiding their Ninjas."      # the Shadow Master of the Way of the Light
    return f"{name} {DOING.get(phase, 'is playing')}."


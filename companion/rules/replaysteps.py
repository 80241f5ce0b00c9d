"""A saved game as steps to look through: the board and cards before and after every turn, and
the turn in players' words (the replay page draws them).

It reads only the record it is given: the companion serves the public record while a game is
played and the full one, every seat's secrets revealed, once it is over. A hidden step (a
Ninja's quiet move, where each Ninja stood) is therefore shown only once the game is over;
until then a game with hidden moves offers its public turns and no boards.
"""

from __future__ import annotations

import json
from typing import Any

from . import sealed
from .describe import turn_words
from .errors import OnitamaError, RecordError
from .jsondata import JsonObject
from .record import GameRecord, replay
from .shadow import ShadowReferee
from .squares import square_name
from .ways import WAYS, way

def replay_steps(record: JsonObject) -> JsonObject:
    """``{"mode", "start", "result", "complete", "steps": [{"n", "seat", "text", "words",
    "position", "ninjas"}]}``: ``position`` is the position after the step (``start`` before
    the first); ``ninjas`` where every Ninja stands after it, in a finished game with them.
    ``complete`` is False for a game with hidden moves still being played (public turns only).
    Raises :class:`RecordError` for a record that does not replay."""
    if record.get("format") == "onitama-record":
        return _classic(record)
    if record.get("format") != sealed.FORMAT:
        raise RecordError("not a game record")
    header = record["header"]
    mode = header.get("mode")
    if record.get("kind") == "public" and mode in WAYS and way(mode).hidden:
        return {"mode": mode, "start": header["start"], "result": header.get("result"),
                "complete": False,
                "steps": [{"n": n, "seat": None, "text": text, "words": text, "position": None,
                           "ninjas": None} for n, text in enumerate(record["turns"], 1)]}
    full = {**record, "kind": "full", "setup": record.get("setup", {})}
    if record.get("kind") == "public":
        # An open game still being played: its public turns are the whole truth.
        full["header"] = {**header, "result": None}
    ref = sealed.replay(full)
    positions = ref.turn_positions() + [str(ref.view(None)["position"])]
    history = _ninja_history(ref)
    steps = []
    for n, turn in enumerate(ref.log, 1):
        steps.append({"n": n, "seat": turn.seat, "text": turn.full,
                      "words": turn_words(turn.seat, turn.full, positions[n - 1]),
                      "position": positions[n], "ninjas": history[n] if history else None})
    return {"mode": mode, "start": header["start"], "result": header.get("result"),
            "complete": True, "ninjas": history[0] if history else None, "steps": steps}


def _ninja_history(ref: Any) -> list[dict[str, list[str]]] | None:
    """Where every Ninja stood after each turn (index 0: after the set-up)."""
    if not isinstance(ref, ShadowReferee):
        return None
    states = [st for st, _ in ref._history] + [ref.state]
    after: dict[int, dict[str, list[str]]] = {}
    for st in states:
        if st.phase == "setup":
            continue
        # The state at the start of turn n holds the Ninjas as turn n-1 left them.
        after.setdefault(len(st.log), {colour: [square_name(s) for s in squares]
                                       for colour, squares in zip(("red", "blue"), st.ninjas)})
    return [after.get(n, {}) for n in range(len(ref.log) + 1)]


def _classic(record: JsonObject) -> JsonObject:
    try:
        game = GameRecord.loads(json.dumps(record))
    except OnitamaError as exc:
        raise RecordError(str(exc)) from None
    checked = replay(game)
    if checked.error is not None:
        raise RecordError(checked.error)
    ref = checked.referee
    positions = ref.turn_positions() + [str(ref.view(None)["position"])]
    steps = [{"n": n, "seat": turn.seat, "text": turn.full,
              "words": turn_words(turn.seat, turn.full, positions[n - 1]),
              "position": positions[n], "ninjas": None} for n, turn in enumerate(ref.log, 1)]
    return {"mode": game.variant, "start": game.start, "result": game.result, "complete": True,
            "ninjas": None, "steps": steps}

"""The replay page: a saved game stepped through, with the board and the cards.

It reads the record the companion already serves (``Companion.record``): the public record
while the game is played, the full one once it is over. So a hidden step shows only once the
game has ended, like the Ninjas when the screens come down.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template
from flask.typing import ResponseReturnValue

from companion.rules.errors import RecordError
from companion.rules.replaysteps import replay_steps
from companion.rules.results import result_words

from .inputs import BadInput
from .public import companion, page_context

replay = Blueprint("replay", __name__)


@replay.get("/games/<int:game_id>/replay")
def replay_page(game_id: int) -> ResponseReturnValue:
    companion().record(game_id)          # NotFound -> 404 (app.py)
    return render_template("replay.html", game_id=game_id, **page_context())


@replay.get("/games/<int:game_id>/replay.json")
def replay_json(game_id: int) -> ResponseReturnValue:
    try:
        steps = replay_steps(companion().record(game_id))
    except RecordError as exc:
        raise BadInput(f"game {game_id} does not replay: {exc}", 409) from None
    return jsonify(id=game_id, result_words=result_words(steps["result"]), **steps)

"""A game won on the mat, and its win taken back when the winner's hands amend the winning turn.

The recognizer keeps the turn that wins open while its mover may still amend it, as any turn
(docs/recognizer.md): the game is over, its result shown and saved, and the recognizer reads on
until the loser starts (its ``amendable`` ends). An amendment then takes the winning turn back
through the same path as any amendment (a ``takeback`` played, then the turn), and the game goes
on: the referee's undo restores the state before the win, result and all."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from .store import GameStore, StoreUnavailable

if TYPE_CHECKING:
    from .session import GameSession

log = logging.getLogger(__name__)


def settle_result(game: GameSession, store: GameStore) -> None:
    """After an action: a game won is finished (saved so), its recognizer kept while the winning
    turn may be amended; a win taken back makes the game go on (saved unfinished again)."""
    ref = game.referee
    try:
        if ref.result is not None:
            game.status = "finished"
            if not reads_on(game):
                game.recognizer = None
            store.finish(game.id, ref.result.as_dict())
        elif game.status == "finished":
            game.status = "playing"
            store.reopen(game.id)
    except StoreUnavailable as exc:
        # The action is saved: the result follows from the actions on a restart.
        log.error("%s", exc)


def reads_on(game: GameSession) -> bool:
    """Does the recognizer read on after the win: the winning turn is its own reading, open to
    its mover's amendment? Not in a game across tables (the other table has the move), nor in
    a way with a seat's secrets: its end shows them to all (Light & Shadow's views give every
    Ninja once the game is over), and a game that went on after would have lost them."""
    rec = game.recognizer
    return (rec is not None and rec.amendable and not game.seating.table
            and not game.way.hidden and game.reads_game())


def stand_win(game: GameSession) -> None:
    """The winner's amend window has closed (the loser started): the win stands, and the mat
    is read no more."""
    if game.status == "finished" and game.recognizer is not None and not game.recognizer.amendable:
        game.recognizer = None

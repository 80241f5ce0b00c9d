"""Issue 22, row 5: no log line names a hidden square or a hidden action, whoever made it.

The log is public (the simulation prints it on the table's terminal, and ``report`` puts it
in its zip): the computer's dropped decision, a refusal of a hidden step, a bug raised while
playing one, and a saved hidden game that does not replay are logged without the action."""

from __future__ import annotations

import logging
import threading

import pytest

from companion.ai.view import SeatView
from companion.rules.errors import IllegalActionError
from companion.table.opponent import Thinking
from companion.table.replay import ReplayError, rebuild
from companion.table.thread import GameThread

from sim_table import sim_companion
from test_shadow_table import SHADOW_START
from waiting import wait_for


class HeldPlayer:
    """The computer: it thinks until released, then places its Ninja on the last square offered."""

    def __init__(self):
        self.release = threading.Event()
        self.asked: list[SeatView] = []

    def choose(self, view: SeatView) -> str:
        self.asked.append(view)
        assert self.release.wait(30)
        return view.legal[-1]


def test_a_stale_decision_of_the_computer_is_logged_without_its_hidden_step(tmp_path, caplog):
    player = HeldPlayer()
    caplog.set_level(logging.DEBUG)
    with sim_companion(tmp_path / "games.db", public_url=None, settle=0.05,
                       computer=Thinking(players=lambda *_: player)) as t:
        companion, hw = t.companion, t.hardware
        companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 11,
                                "computer": {"blue": "easy"}})
        hw.sim.set_pawns(SHADOW_START)
        wait_for(lambda: player.asked)
        chosen = player.asked[0].legal[-1]
        # Red places its Ninja while the computer thinks: the decision is for a game gone by.
        companion.submit("red", {"type": "action", "text": "Nb1"})
        player.release.set()
        wait_for(lambda: "stale decision" in caplog.text)
        assert chosen.startswith("N") and chosen not in caplog.text
        assert chosen[1:3] not in caplog.text


def run_on_thread(work) -> None:
    thread = GameThread(lambda: None, lambda: 0.05, lambda: None)
    thread.start()
    try:
        thread.post(work)
        thread.call(lambda: None)
    finally:
        thread.stop()


@pytest.mark.parametrize("error", [
    IllegalActionError("Nb5c4", "your Ninja stands on c4", public_reason=None),
    RuntimeError("while playing 'Nb5c4'"),
])
def test_the_game_thread_logs_a_failure_without_the_action_it_names(caplog, error):
    def fail():
        raise error
    caplog.set_level(logging.DEBUG)
    run_on_thread(fail)
    assert "game thread" in caplog.text
    assert "b5" not in caplog.text and "c4" not in caplog.text


def test_a_hidden_game_that_does_not_replay_is_named_without_its_hidden_action():
    header = {"variant": "shadow", "seed": 11, "sets": ["base"]}
    with pytest.raises(ReplayError) as caught:
        rebuild(header, [("red", "Nb1"), ("blue", "Nd5"), ("red", "Nb1c4")])
    assert "action 2 does not replay" in str(caught.value)
    assert "b1" not in str(caught.value) and "c4" not in str(caught.value)

"""The table robot's secret scan can fail: a hidden Ninja's square in a log line, or a
secret in a report zip, fails the game (a ``Leak``)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from companion.rules.ways import new_referee

from robot_checks import SecretScan, world_secrets
from table_robot import Leak


class FakeRobot:
    def __init__(self, ref):
        self._world = SimpleNamespace(referee=lambda: ref)
        self.report = SimpleNamespace(twin_checks=0, reports=0)

    def worlds(self):
        return [self._world]

    def leak(self, what: str) -> Leak:
        return Leak(what)


def shadow_after_set_up():
    ref = new_referee("shadow", seed=11, sets=("base",))
    ref.act("red", "Nb1")
    ref.act("blue", "Nd5")
    return ref


def test_the_hidden_ninjas_are_the_secrets():
    ref = shadow_after_set_up()
    assert world_secrets(SimpleNamespace(referee=lambda: ref)) == {"Nb1", "Nd5"}


def test_a_log_line_naming_a_hidden_ninja_fails_the_robot():
    robot = FakeRobot(shadow_after_set_up())
    scan = SecretScan(report_at=99)
    try:
        logging.getLogger("companion.table.opponent").info("a stale decision for blue was dropped")
        scan.step(robot)                                  # nothing hidden in it
        logging.getLogger("companion.table.opponent").info("a stale decision 'Nd5' was dropped")
        with pytest.raises(Leak, match="Nd5"):
            scan.step(robot)
    finally:
        scan.close()

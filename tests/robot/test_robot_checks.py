"""The table robot's checks can fail: a hidden Ninja's square in a log line, or a secret in a
report zip, fails the game (a ``Leak``); a light that no legal continuation needs, and that
stays lit, fails it too (``instructions.Unclear``)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from companion.rules.ways import new_referee

from companion.table import outputs
from companion.mat.feedback import steady

import instructions
from robot_checks import SecretScan, world_secrets
from table_robot import Leak, Robot, World


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


def test_a_light_nobody_needs_fails_the_instruction_checker(tmp_path):
    """A square lit steady on a base game's first turn, that no move of Red's uses (held
    there by an announcement that does not name it): a stale light, the checker's to find,
    though it looks twice (a frame may lag its view)."""
    world = World(tmp_path)
    try:
        robot = Robot(world, None, "base", 1)
        robot.deal(world)
        robot.set_mat(world)
        instructions.check(world, probe=False, seed="x")           # at rest: nothing stray
        show = outputs.Show(600.0, ("Look",), {12: steady((255, 0, 200))})    # c3: no move's
        world.companion._thread.call(lambda: world.companion._display.announce([show]))
        with pytest.raises(instructions.Unclear, match=r"lit \['c3'\]"):
            instructions.check(world, probe=False, seed="x")
    finally:
        world.close()

"""The end-of-game audit of hidden Ninjas across tables (companion/link/audit.py): whole
random games of Way of the Shadow and Way of the Light played through the referee, each
seat's set-up and turns committed and opened as a table would; an honest game passes, and
each kind of lie names the table that told it."""

from __future__ import annotations

import random
import re

import pytest

from companion.link.audit import SETUP, Opened, audit, commitment, new_salt
from companion.rules.sealed import public_record, sealed_record
from companion.rules.ways import new_referee

GAME = "auditgame123"


def random_game(mode: str, seed: int):
    ref = new_referee(mode, seed=seed, sets=("base",))
    rng = random.Random(seed)
    while ref.result is None:
        seat = ref.to_act()[0]
        ref.act(seat, rng.choice(list(ref.legal_actions(seat))))
    return ref


def texts(ref, seat: str) -> dict[str, str]:
    """What ``seat``'s table commits to: its set-up and the full text of each of its turns."""
    out = {str(i): t.full for i, t in enumerate(ref.log) if t.seat == seat}
    setup = sealed_record(ref, seat)["setup"]
    return {**out, SETUP: setup} if setup else out


def opened(seat: str, committed: dict[str, str], told: dict[str, str] | None = None) -> Opened:
    """A seat's commitments to ``committed`` and its openings of ``told`` (default: the same)."""
    salts = {ply: new_salt() for ply in committed}
    told = committed if told is None else told
    return Opened(seat, {p: commitment(GAME, seat, p, t, salts[p]) for p, t in committed.items()},
                  {p: (t, salts.get(p, new_salt())) for p, t in told.items()})


def find(pattern: str, modes=("shadow", "light")):
    """A random game with a public turn matching ``pattern``: (ref, ply)."""
    for seed in range(400):
        for mode in modes:
            ref = random_game(mode, seed)
            for i, t in enumerate(ref.log):
                if re.search(pattern, t.public):
                    return ref, i
    raise AssertionError(f"no game with {pattern!r}")


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


@pytest.mark.parametrize("mode, seed", [("shadow", s) for s in range(6)] + [("light", s) for s in range(6)])
def test_an_honest_game_has_no_lie(mode, seed):
    ref = random_game(mode, seed)
    assert audit(GAME, public_record(ref), opened("red", texts(ref, "red")),
                 opened("blue", texts(ref, "blue"))) == []


def lie_in_answer(ref, ply: int, change, in_mover=None) -> list:
    """The Ninjas' owner answers turn ``ply`` falsely: the public text carries the false answer
    (``change``), and so does the mover's own record of its turn (``in_mover``: what it was
    told), or not (None: the mover's table kept the truth)."""
    public = public_record(ref)
    public["turns"][ply] = change(public["turns"][ply])
    mover = ref.log[ply].seat
    moved = texts(ref, mover)
    if in_mover is not None:
        moved[str(ply)] = in_mover(moved[str(ply)])
    sides = {mover: opened(mover, moved), other(mover): opened(other(mover), texts(ref, other(mover)))}
    return audit(GAME, public, sides["red"], sides["blue"])


def flip(pattern: str):
    return lambda text: re.sub(pattern, lambda m: m.group(0)[:-1] + ("-" if m.group(0)[-1] == "+" else "+"), text, count=1)


@pytest.mark.parametrize("what, public, full", [
    ("a Lantern", r"L[1-5a-e][+-]", r"L[1-5a-e][+-]"),
    ("a strike", r"S\?[a-e][1-5][+-]", r"S[a-e][1-5][a-e][1-5][+-]"),
    ("a Lantern, the mover's record true", r"L[1-5a-e][+-]", None),
    ("a strike, the mover's record true", r"S\?[a-e][1-5][+-]", None)])
def test_a_false_answer_names_the_ninjas_owner(what, public, full):
    ref, ply = find(public)
    lies = lie_in_answer(ref, ply, flip(public), full and flip(full))
    assert [(lie.seat, lie.kind, lie.ply) for lie in lies] == [(other(ref.log[ply].seat), "answer", str(ply))]


def test_a_pawn_landing_on_a_ninja_denied_names_its_owner():
    ref, ply = find(r" xN")
    lies = lie_in_answer(ref, ply, lambda text: text.replace(" xN", "", 1),
                         lambda text: text.replace(" xN", "", 1))
    assert [(lie.seat, lie.kind, lie.ply) for lie in lies] == [(other(ref.log[ply].seat), "answer", str(ply))]


def test_a_ninja_moved_after_the_fact_is_an_opening_lie():
    ref = random_game("shadow", 1)
    public = public_record(ref)
    committed = texts(ref, "red")
    told = {**committed, SETUP: "Nd1" if committed[SETUP] != "Nd1" else "Nb1"}
    lies = audit(GAME, public, opened("red", committed, told), opened("blue", texts(ref, "blue")))
    assert [(lie.seat, lie.kind, lie.ply) for lie in lies] == [("red", "opening", SETUP)]
    unopened = {p: t for p, t in committed.items() if p != SETUP}
    lies = audit(GAME, public, opened("red", committed, unopened), opened("blue", texts(ref, "blue")))
    assert [(lie.seat, lie.kind, lie.ply) for lie in lies] == [("red", "opening", SETUP)]


def test_a_hidden_step_the_rules_refuse_names_the_mover():
    # A turn public as a plain move whose full text had a quiet Ninja step: the mover's
    # table committed, from the start, to a step no card allows.
    ref, ply = next((ref, i) for ref in (random_game("shadow", s) for s in range(100))
                    for i, t in enumerate(ref.log) if re.search(r" N[a-e][1-5][a-e][1-5]$", t.full)
                    and t.full != t.public)
    mover = ref.log[ply].seat
    moved = texts(ref, mover)
    step = re.search(r"N([a-e][1-5])([a-e][1-5])$", moved[str(ply)])
    assert step is not None
    far = next(sq for sq in ("a1", "e5", "a5", "e1") if sq not in step.group(0))
    moved[str(ply)] = moved[str(ply)][:step.start()] + f"N{step.group(1)}{far}"
    lies = audit(GAME, public_record(ref), *sorted(
        [opened(mover, moved), opened(other(mover), texts(ref, other(mover)))], key=lambda o: o.seat != "red"))
    assert [(lie.seat, lie.kind, lie.ply) for lie in lies] == [(mover, "rules", str(ply))]


def test_a_set_up_the_rules_refuse_names_its_table():
    ref = random_game("shadow", 2)
    committed = {**texts(ref, "blue"), SETUP: "Nc3"}            # the middle of the board
    lies = audit(GAME, public_record(ref), opened("red", texts(ref, "red")), opened("blue", committed))
    assert [(lie.seat, lie.kind, lie.ply) for lie in lies] == [("blue", "rules", SETUP)]

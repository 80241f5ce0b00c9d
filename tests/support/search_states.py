"""Search states along random legal games, and the native core's presence, for the search
tests (tests/ai)."""

from __future__ import annotations

import random
import shutil

import pytest

from companion.ai.native import available
from companion.ai.search import search_state
from companion.rules.engine import Engine
from companion.rules.ways import new_referee


def random_states(variant: str, seed: int, plies: int = 60):
    """The referee and the search state before every move of a random legal game of
    ``variant`` (Knowledge: with stacks)."""
    rng = random.Random(seed)
    ref = new_referee(variant, seed=seed)
    out = []
    while ref.result is None and len(ref.log) < plies:
        s = ref.state
        if s.phase == "move":
            c = s.st[5]
            stacks = (s.stacks[c], s.stacks[1 - c]) if ref.knowledge else None
            out.append((ref, search_state(Engine.position(s.st[:8] + ((s.st[8][0],),)), stacks)))
        seat = ref.to_act()[0]
        ref.act(seat, rng.choice(ref.legal_actions(seat)))
    return out


def require_native() -> None:
    """The native core must be built wherever a C compiler is (./dev builds it): a test of it
    fails when it is missing there, and is skipped only on a machine with no compiler."""
    if not available():
        if shutil.which("gcc"):
            pytest.fail("gcc is here but the native core is not built: python -m companion.ai.native.build")
        pytest.skip("no C compiler: the native core cannot be built here")

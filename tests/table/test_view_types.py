"""The published views have the shapes their types declare (companion/table/viewtypes.py): mypy
checks the code that builds them, this checks what is sent, part by part, in a game played
from the deal to its end, for the public and for each seat; the simulated hardware's state and
the game list too."""

from __future__ import annotations

import random

import pytest

from companion.table import viewtypes
from computer_helpers import play_game, set_up
from sim_table import sim_companion
from test_computer import FAST


def keys_fit(value: object, shape: type, where: str) -> None:
    assert isinstance(value, dict), f"{where}: {value!r}"
    required, optional = shape.__required_keys__, shape.__optional_keys__  # type: ignore[attr-defined]
    assert required <= set(value) <= required | optional, (
        f"{where}: {sorted(value)} against {shape.__name__}'s {sorted(required)} + {sorted(optional)}")


def check(view: dict, audience: str | None) -> None:
    where = f"{audience or 'public'} view"
    keys_fit(view, viewtypes.View, where)
    assert {"version", "game", "setup", "table", "mat", "oled", "ways", "sets", "seats"} <= set(view)
    for key, shape in (("game", viewtypes.GameView), ("setup", viewtypes.SetupView),
                       ("mat", viewtypes.MatView), ("hints", viewtypes.HintsView),
                       ("instruction", viewtypes.Said), ("headline", viewtypes.Said)):
        if view.get(key) is not None:
            keys_fit(view[key], shape, f"{where}'s {key}")
    if view["game"] is not None and view["game"]["expected"] is not None:
        keys_fit(view["game"]["expected"], viewtypes.ExpectedView, f"{where}'s expected move")
    if view["mat"] is not None and view["mat"]["prompt"] is not None:
        keys_fit(view["mat"]["prompt"], viewtypes.PromptView, f"{where}'s question")
    # A seat's own parts are in its view alone.
    assert ("headline" in view) == (audience is not None), where
    assert ("hints" in view) == (audience is not None and view["game"] is not None), where


@pytest.fixture
def fast_table(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, **FAST) as t:
        yield t.companion, t.hardware


@pytest.mark.parametrize("way", ["base", "shadow"])
def test_every_view_sent_has_its_declared_shape(fast_table, way):
    """A whole game against the computer (its moves made on the mat, questions answered): every
    time the hands read a view, every audience's view is checked."""
    companion, hw = fast_table
    read = companion.view
    seen: set[str] = set()

    def checked(audience):
        for who in (None, "red", "blue"):
            view = read(who)
            check(view, who)
            seen.update(key for key, part in view.items() if part)
            if view["mat"] is not None:
                seen.update(f"mat.{key}" for key, part in view["mat"].items() if part)
        return read(audience)

    for audience in (None, "red", "blue"):
        check(read(audience), audience)                   # no game yet
    companion.view = checked
    companion.submit(None, {"type": "new_game", "way": way, "seed": 11,
                            "computer": {"blue": "medium"}, "hints": 1})
    set_up(companion, hw)
    result, _ = play_game(companion, hw, "red", random.Random(way))
    assert result["winner"] in ("red", "blue")
    # The game went through the parts the types describe.
    assert {"game", "setup", "table", "mat", "headline", "hints", "instruction", "mat.wrong"} <= seen, seen
    keys_fit(companion.sim_state(), viewtypes.SimState, "the simulated hardware")
    for game in companion.games():
        keys_fit(game, viewtypes.ListedGame, "the game list")

"""A move that cannot be saved is confirmed nowhere (issue 14: the disk filled at move 5; the
referee rolled it back but the recognizer kept it, the OLED and the mat disagreed, and the
pawn put back was read as a takeback of the last confirmed move)."""

import time

import pytest
from disk_faults import Disk
from waiting import wait_for

from companion.table.store import GameStore
from sim_table import sim_companion

FIXED = {"red": ["Tiger", "Crab"], "blue": ["Monkey", "Crane"], "side": "Dragon"}
START = frozenset(list(range(5)) + list(range(20, 25)))
A1, A2, C1, C3, B5, A4 = 0, 5, 2, 12, 21, 15


def move(hw, frm: int, to: int) -> None:
    hw.sim.lift(frm)
    hw.sim.place(to)


@pytest.fixture
def playing(tmp_path):
    """A base game in play on the simulated mat, saved through a disk that fills on demand."""
    disk = Disk()
    store = GameStore(tmp_path / "games.db", connect=disk.connect)
    with sim_companion(tmp_path / "games.db", public_url=None, store=store) as table:
        companion, hw = table.companion, table.hardware
        companion.submit(None, {"type": "new_game", "variant": "base", "cards": FIXED})
        hw.sim.set_pawns(START)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        yield companion, hw, disk


def test_a_move_the_disk_refuses_is_undone_everywhere_and_played_again_later(playing, tmp_path):
    companion, hw, disk = playing
    move(hw, C1, C3)
    wait_for(lambda: len(companion.view(None)["table"]["log"]) == 1)
    move(hw, B5, A4)
    saved = ["Tiger c1c3", "Monkey b5a4"]
    wait_for(lambda: companion.view(None)["table"]["log"] == saved)
    wait_for(lambda: companion.view(None)["mat"]["state"] == "ok")

    disk.full = True
    move(hw, A1, A2)            # Crab a1a2: cannot be saved
    view = wait_for(lambda: (v := companion.view(None))["oled"][:2] == ["Cannot save:", "storage full"] and v)
    # Not confirmed anywhere: the game, every view, the mat and the LEDs agree.
    assert view["table"]["log"] == saved and view["table"]["to_act"] == ["red"]
    assert view["mat"]["state"] == "mismatch" and view["mat"]["pairs"] == [["a2", "a1"]]
    assert companion.view("red")["table"]["log"] == saved
    wait_for(lambda: set(companion.sim_state()["leds"]) == {"a1", "a2"})
    # The pawn goes back where the lit squares say: that is no takeback.
    move(hw, A2, A1)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing"
             and companion.view(None)["mat"]["state"] == "ok")
    assert companion.view(None)["table"]["log"] == saved
    assert [a.action for a in GameStore(tmp_path / "games.db").unfinished().actions] == saved

    disk.full = False           # space freed: the same move is played and saved
    move(hw, A1, A2)
    wait_for(lambda: companion.view(None)["table"]["log"] == saved + ["Crab a1a2"])
    assert [a.action for a in GameStore(tmp_path / "games.db").unfinished().actions] == \
        saved + ["Crab a1a2"]


def test_a_phone_action_the_disk_refuses_changes_nothing_and_says_why(playing):
    from companion.table.store import StoreUnavailable
    from companion.web.errors import status_of
    companion, hw, disk = playing
    before = companion.view("red")
    disk.full = True
    try:
        companion.submit("red", {"type": "action", "text": "Tiger c1c3"})
    except StoreUnavailable as exc:
        assert status_of(exc) == 507 and "storage full" in str(exc)
    else:
        raise AssertionError("an action the disk refused was confirmed")
    after = companion.view("red")
    assert after["table"] == before["table"] and after["unsaved"] == "Cannot save: storage full"
    disk.full = False
    companion.submit("red", {"type": "action", "text": "Tiger c1c3"})
    assert companion.view("red")["table"]["log"] == ["Tiger c1c3"]
    assert companion.view("red")["unsaved"] is None


def test_a_new_game_by_holding_c_on_a_full_disk_says_why_and_keeps_the_game(playing):
    companion, hw, disk = playing
    game = companion.view(None)["game"]["id"]
    disk.full = True
    companion.sim_button("C", long=True)
    wait_for(lambda: companion.view(None)["oled"][0] == "New game?")
    time.sleep(0.4)                           # the first hold's button is let go
    companion.sim_button("C", long=True)      # the second hold confirms: abandon and deal
    view = wait_for(lambda: (v := companion.view(None))["oled"][:3] ==
                    ["No new game:", "cannot save,", "storage full"] and v)
    assert view["game"]["id"] == game and view["game"]["status"] == "playing"

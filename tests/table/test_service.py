"""The service on simulated hardware: requests, set-up, reading moves, saving, resuming."""

import dataclasses
import time

import pytest

from companion.rules.errors import SetupError
from companion.table.errors import REFUSALS
from companion.table.errors import BadRequest, Conflict, Forbidden, NotFound
from companion.table.store import GameStore
from service_helpers import FIXED, START, playing, wait_for
from companion.mat import oled
from companion.table import outputs
from sim_table import sim_companion


def new_base(companion):
    return companion.submit(None, {"type": "new_game", "variant": "base", "cards": FIXED})


@pytest.mark.parametrize("seat,request_,kind,text", [
    (None, "nope", BadRequest, "JSON object"),
    (None, {"type": "new_game", "variant": "chess"}, BadRequest, "unknown way"),
    (None, {"type": "new_game", "sets": "base"}, BadRequest, "sets is a list"),
    (None, {"type": "new_game", "wind_cards": "2"}, BadRequest, "wind_cards"),
    (None, {"type": "new_game", "seed": 1.5}, BadRequest, "seed"),
    (None, {"type": "new_game", "cards": {"red": ["Tiger"], "blue": [], "side": "Ox"}}, BadRequest, "two cards"),
    (None, {"type": "new_game", "sets": ["nope"]}, SetupError, "unknown card set"),
    ("green", {"type": "answer", "card": "Tiger"}, NotFound, "no seat"),
    (None, {"type": "answer", "card": "Tiger"}, Forbidden, "needs a seat"),
    ("red", {"type": "dance"}, Conflict, "no game"),
])
def test_bad_requests_are_refused_and_change_nothing(table, seat, request_, kind, text):
    companion, _, _ = table
    before = companion.view(None)
    with pytest.raises(kind, match=text):
        companion.submit(seat, request_)
    assert companion.view(None) == before


def test_set_up_waits_for_the_mat_then_moves_are_read_and_saved(table):
    companion, hw, path = table
    new_base(companion)
    view = companion.view(None)
    assert view["game"]["status"] == "sync" and view["mat"]["state"] == "setup"
    assert view["setup"]["red"] == ["Tiger", "Crab"] and view["setup"]["first"] == "red"
    assert view["oled"][0].startswith("Set up")     # paged: "Set up p1/2"
    # Holding B seats the computer: the OLED and the simulation's caption under B say so.
    assert "Hold B: vs computer" in [line for page in outputs.paged(oled.setup_lines(
        companion._game.table()[1], cycle=True)) for line in page]
    assert view["buttons"] == {"B": "hold: vs computer"}
    # Every square that wants a pawn is lit while the mat is empty.
    wait_for(lambda: set(companion.sim_state()["leds"]) == {"a1", "b1", "c1", "d1", "e1",
                                                             "a5", "b5", "c5", "d5", "e5"})
    hw.sim.set_pawns(START)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    hw.sim.lift(2)
    hw.sim.place(12)
    wait_for(lambda: companion.view(None)["table"]["log"] == ["Tiger c1c3"])
    saved = GameStore(path).unfinished()
    assert [a.action for a in saved.actions] == ["Tiger c1c3"] and saved.actions[0].seat == "red"


def test_an_illegal_phone_action_changes_nothing(table):
    companion, hw, _ = table
    playing(companion, hw)
    before = companion.view("red")
    for seat, text in (("red", "Tiger c1c4"), ("blue", "Monkey b5a4"), ("red", "x" * 300)):
        with pytest.raises(REFUSALS):   # the referee's refusal, or BadRequest
            companion.submit(seat, {"type": "action", "text": text})
    assert companion.view("red") == before


def test_a_move_from_a_phone_puts_the_mat_in_sync_mode(table):
    companion, hw, _ = table
    playing(companion, hw)
    companion.submit("red", {"type": "action", "text": "Tiger c1c3"})
    view = companion.view(None)
    assert view["game"]["status"] == "sync" and view["mat"]["pairs"] == [["c1", "c3"]]
    hw.sim.lift(2)
    hw.sim.place(12)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")


def master_stepped_forward(companion, hw, red_cards: list[str]) -> dict:
    """Red holds ``red_cards`` (Horse and Ox, in either order: both step the master forward,
    so the mat cannot tell which card was used) and steps its master c1 to c2 on the mat:
    the card question it raises."""
    playing(companion, hw, {"red": red_cards, "blue": ["Monkey", "Crane"], "side": "Dragon"})
    hw.sim.lift(2)
    hw.sim.place(7)
    return wait_for(lambda: companion.view(None)["mat"]["prompt"])


def test_the_card_prompt_is_answered_from_the_seat(table):
    companion, hw, _ = table
    prompt = master_stepped_forward(companion, hw, ["Horse", "Ox"])
    assert prompt["seat"] == "red" and set(prompt["choose"]) == {"Horse", "Ox"}
    with pytest.raises(Conflict):
        companion.submit("blue", {"type": "answer", "card": "Ox"})
    companion.submit("red", {"type": "answer", "card": "Ox"})
    assert wait_for(lambda: companion.view(None)["table"]["log"]) == ["Ox c1c2"]


def test_the_game_resumes_after_a_restart(tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None) as table:
        companion, hw = table.companion, table.hardware
        playing(companion, hw)
        hw.sim.lift(2)
        hw.sim.place(12)
        wait_for(lambda: companion.view(None)["table"]["log"])

    with sim_companion(tmp_path / "games.db", public_url=None) as table:
        view = table.companion.view(None)
        assert view["table"]["log"] == ["Tiger c1c3"] and view["mat"]["state"] == "mismatch"
        assert view["oled"][0] == "Put pawns back"
        table.hardware.sim.set_pawns(START - {2} | {12})
        wait_for(lambda: table.companion.view(None)["game"]["status"] == "playing")


def test_views_change_version_only_when_their_content_changes(table):
    companion, hw, _ = table
    sub = companion.subscribe("blue")
    first = sub.get(0.1)
    assert first is not None and sub.get(0.1) is None   # nothing new: no message at all
    new_base(companion)
    assert sub.get(1.0)["game"]["status"] == "sync"
    sub.close()


def test_the_record_of_a_game_replays(table):
    from companion.rules.record import GameRecord, replay
    companion, hw, _ = table
    playing(companion, hw)
    hw.sim.lift(2)
    hw.sim.place(12)
    wait_for(lambda: companion.view(None)["table"]["log"])
    game_id = companion.games()[0]["id"]
    record = GameRecord.loads(__import__("json").dumps(companion.record(game_id)))
    assert record.moves == ["Tiger c1c3"] and replay(record).error is None
    with pytest.raises(NotFound):
        companion.record(999)


def test_a_new_game_from_the_buttons(table):
    companion, hw, _ = table
    hw.sim.press("C")
    wait_for(lambda: companion.view(None)["game"] is not None, timeout=4)
    hw.sim.release("C")
    assert companion.view(None)["game"]["variant"] == "base"


def test_record_trace_replays_to_the_same_moves(tmp_path, capsys):
    from companion.tracetool import main as trace_main
    with sim_companion(tmp_path / "games.db", public_url=None,
                       record_trace=tmp_path / "mat.jsonl") as table:
        companion, hw = table.companion, table.hardware
        new_base(companion)
        hw.sim.set_pawns(START)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        hw.sim.lift(2)
        hw.sim.place(12)
        wait_for(lambda: companion.view(None)["table"]["log"])
        # A recording goes on past the last move; ending it at the very moment of the commit
        # would leave the replay a rounding error short of the settle deadline.
        time.sleep(0.2)
    assert trace_main([str(tmp_path / "mat.jsonl")]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if '"move"' in line]
    assert len(printed) == 1 and '"Tiger c1c3"' in printed[0]


def test_prompt_buttons_follow_the_hand_order(table):
    companion, hw, _ = table
    prompt = master_stepped_forward(companion, hw, ["Ox", "Horse"])
    assert prompt["buttons"] == {"Ox": "A", "Horse": "B"}
    hw.sim.tap("B", 0.1)
    assert wait_for(lambda: companion.view(None)["table"]["log"]) == ["Horse c1c2"]


def test_a_reply_made_before_the_card_question_is_answered_is_played_too(table):
    # Red's a1a2 is Ox or Boar; Blue replies on the mat before Red answers. The answer commits
    # both moves at once: the reply was dropped and the mat sent out of sync.
    companion, hw, _ = table
    playing(companion, hw, {"red": ["Ox", "Boar"], "blue": ["Horse", "Elephant"], "side": "Dragon"})
    hw.sim.lift(0)
    hw.sim.place(5)
    wait_for(lambda: companion.view(None)["mat"]["prompt"])
    hw.sim.lift(21)
    hw.sim.place(16)
    time.sleep(0.5)
    assert companion.view(None)["table"]["log"] == []
    hw.sim.tap("B", 0.1)
    assert wait_for(lambda: len(companion.view(None)["table"]["log"]) == 2
                    and companion.view(None)["table"]["log"]) == ["Boar a1a2", "Horse b5b4"]
    assert companion.view(None)["game"]["status"] == "playing"


def test_on_the_pi_a_spectator_cannot_end_a_running_game(tmp_path):
    # The Pi's hardware bundle without its simulated hands: the service runs in "pi" mode.
    with sim_companion(tmp_path / "games.db", public_url=None,
                       seen_as=lambda hw: dataclasses.replace(hw, sim=None)) as table:
        companion = table.companion
        assert companion.mode == "pi"
        new_base(companion)
        with pytest.raises(Conflict, match="hold C"):
            new_base(companion)
        assert companion.submit("red", {"type": "new_game", "variant": "base", "cards": FIXED})["ok"]


def test_a_way_of_the_shadow_game_recorded_with_record_trace_replays(tmp_path, capsys):
    # serve --record-trace records every game whose moves the mat reads, and report bundles
    # the trace; the trace tool took only the names base and wind (a list of its own), so a
    # Shadow game's trace was refused: "unknown variant 'shadow'".
    from companion.rules.squares import parse_square
    from companion.tracetool import main as trace_main
    from test_shadow_table import SHADOW_START
    with sim_companion(tmp_path / "games.db", public_url=None,
                       record_trace=tmp_path / "mat.jsonl") as table:
        companion, hw = table.companion, table.hardware
        companion.submit(None, {"type": "new_game", "variant": "shadow", "seed": 11})
        hw.sim.set_pawns(SHADOW_START)
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        companion.submit("red", {"type": "action", "text": "Nb1"})
        companion.submit("blue", {"type": "action", "text": "Nd5"})
        wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
        legal = [a for a in companion.view("red")["table"]["legal"] if a["kind"] == "move"]
        move = next(a for a in legal if parse_square(a["to"]) not in hw.sim.pawns and
                    sum((m["from"], m["to"]) == (a["from"], a["to"]) for m in legal) == 1)
        hw.sim.lift(parse_square(move["from"]))
        hw.sim.place(parse_square(move["to"]))
        wait_for(lambda: companion.view(None)["table"]["phase"] == "ninja")   # the move is played
        time.sleep(0.2)     # the recording goes on past the commit (see the base game's test)
    traces = sorted(tmp_path.glob("mat*.jsonl"))
    assert traces and '"variant": "shadow"' in traces[0].read_text().splitlines()[0]
    assert all(trace_main([str(trace)]) == 0 for trace in traces), capsys.readouterr().err
    printed = [line for line in capsys.readouterr().out.splitlines() if '"move"' in line]
    assert len(printed) == 1 and f'"{move["text"]}"' in printed[0]

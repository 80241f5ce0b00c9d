"""A new way of playing, added in one place, is followed everywhere: the toy "stone" way
(tests/support/toyway.py: only capturing a master wins) is played past its difference with
the base game (a master on the enemy's temple), the service restarts into it, the computer
sits at it, the CLI deals it and its record replays, each by the toy's rules."""

from __future__ import annotations

import json
import random

import pytest

from companion import cli
from companion.rules.errors import GameOverError
from companion.rules.position import format_position
from companion.rules.record import GameRecord, replay
from companion.rules.replaysteps import replay_steps
from companion.rules.ways import new_referee
from companion.table.opponent import Thinking

from computer_helpers import set_up
from sim_table import sim_companion
from toyway import NAME, past_the_difference, stone_way
from waiting import wait_for

FAST = {"computer": Thinking(nodes=300, hint_nodes=300), "settle": 0.05}


@pytest.fixture
def stone():
    with stone_way() as entry:
        yield entry


def play_by_phone(companion, hw, seat: str, text: str) -> None:
    """A move made on ``seat``'s phone (the toy's moves are not read from the mat); the mat
    is then set as the lights show."""
    wait_for(lambda: _ready(companion, hw), message=lambda: f"not ready: {companion.view(None)['game']}")
    before = len(companion.view(None)["table"]["log"])
    companion.submit(seat, {"type": "action", "text": text})
    wait_for(lambda: len(companion.view(None)["table"]["log"]) == before + 1)


def _ready(companion, hw) -> bool:
    if companion.view(None)["game"]["status"] == "sync":
        set_up(companion, hw)
        return False
    return True


def played_past_the_difference(companion, hw) -> tuple[int, list[str]]:
    """A toy game played at the table past a master on the enemy's temple: (seed, moves)."""
    seed, moves = past_the_difference()
    # The base game on the same deal ends with those moves: won by the Stream.
    base = new_referee("base", seed=seed)
    with pytest.raises(GameOverError):
        for seat, text in moves:
            base.act(seat, text)
    assert base.result is not None and base.result.how == "stream"
    companion.submit(None, {"type": "new_game", "way": NAME, "seed": seed})
    set_up(companion, hw)
    for seat, text in moves:
        play_by_phone(companion, hw, seat, text)
    table = companion.view(None)["table"]
    assert table["result"] is None and table["log"] == [text for _, text in moves]
    return seed, [text for _, text in moves]


def test_the_toy_way_is_played_past_its_difference_and_its_record_replays(stone, tmp_path):
    with sim_companion(tmp_path / "games.db", public_url=None, **FAST) as t:
        companion, hw = t.companion, t.hardware
        _, moves = played_past_the_difference(companion, hw)
        # Its record replays by the toy's rules, on the command line's reader and the replay page.
        record = companion.record(companion.games()[0]["id"])
        checked = replay(GameRecord.loads(json.dumps(record)))
        assert checked.error is None and checked.result is None
        assert [t.full for t in checked.referee.log] == moves
        steps = replay_steps(record)
        assert [step["text"] for step in steps["steps"]] == moves and steps["result"] is None


def test_the_toy_way_survives_a_restart(stone, tmp_path):
    db = tmp_path / "games.db"
    with sim_companion(db, public_url=None, **FAST) as t:
        seed, moves = played_past_the_difference(t.companion, t.hardware)
        game_id = t.companion.games()[0]["id"]

    with sim_companion(db, public_url=None, **FAST) as t:
        companion, hw = t.companion, t.hardware
        view = companion.view(None)
        # The same game, still going on: not "won by the Stream", not set aside as damaged.
        assert not companion.games()[0].get("damaged"), companion.games()[0]
        assert view["game"] is not None and view["game"]["id"] == game_id
        assert view["game"]["variant"] == NAME and view["table"]["result"] is None
        assert view["table"]["log"] == moves
        seat = view["table"]["to_act"][0]
        text = random.Random(seed).choice(companion.view(seat)["table"]["legal"])["text"]
        play_by_phone(companion, hw, seat, text)
        assert companion.view(None)["table"]["log"] == moves + [text]


def test_the_computer_plays_the_toy_way_by_its_rules(stone, tmp_path):
    """Computers at both seats: the board search takes a master on the temple for a win, so
    it walks one there; the toy plays on, the search then finds no move, and that seat goes
    back to a person (never left "thinking"), who plays on by the toy's rules."""
    # A deal where a master reaches the arch before a master is taken (whether one does
    # depends on the deal and the evaluation): the first of a few.
    for seed in range(1, 30):
        computer_moves, handed_back, result, record = _computers_play(tmp_path / f"{seed}.db", seed)
        if handed_back:
            break
    assert computer_moves > 0 and handed_back and result["how"] == "stone", (seed, result)
    checked = replay(GameRecord.loads(json.dumps(record)))
    assert checked.error is None and checked.result is not None and checked.result.how == "stone"
    # The base game's rules would have ended it earlier, by the Stream.
    base = new_referee("base", seed=seed)
    with pytest.raises(GameOverError):
        for turn in checked.referee.log:
            base.act(turn.seat, turn.full)
    assert base.result is not None and base.result.how == "stream"

def _computers_play(db, seed):
    """A toy game between two computers, a person taking over any seat handed back: how many
    moves the computers made, the hand-backs, the result and the record."""
    with sim_companion(db, public_url=None, **FAST) as t:
        companion, hw = t.companion, t.hardware
        assert companion.submit(None, {"type": "new_game", "way": NAME, "seed": seed,
                                       "computer": {"red": "easy", "blue": "easy"}})["ok"]
        rng = random.Random(seed)
        computer_moves, handed_back = 0, []
        while companion.view(None)["table"]["result"] is None:
            view = companion.view(None)
            table, game = view["table"], view["game"]
            assert len(table["log"]) < 200, "the game did not end"
            people = [s for s in table["to_act"] if s not in game["computer"]]
            if people:
                seat = people[0]
                play_by_phone(companion, hw, seat, rng.choice(companion.view(seat)["table"]["legal"])["text"])
                continue
            before = len(table["log"])
            wait_for(lambda: _ready(companion, hw) and (
                len(companion.view(None)["table"]["log"]) > before
                or companion.view(None)["game"].get("handed_back")),
                timeout=20, message=lambda: f"stuck: {companion.view(None)['game']}")
            after = companion.view(None)
            computer_moves += len(after["table"]["log"]) > before
            if after["game"].get("handed_back"):
                handed_back.append((after["game"]["handed_back"], before))
        return (computer_moves, handed_back, companion.view(None)["table"]["result"],
                companion.record(companion.games()[0]["id"]))


def test_the_cli_deals_the_toy_way(stone, capsys):
    for flag in ("--way", "--variant"):            # --variant: the older name, still taken
        assert cli.main(["deal", flag, NAME, "--seed", "7"]) == 0
        assert capsys.readouterr().out.strip() == format_position(new_referee(NAME, seed=7).start)
    assert cli.main(["deal", "--way", NAME, "--cards", "Tiger,Crab Monkey,Crane Dragon"]) == 0
    assert capsys.readouterr().out.strip() == "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"

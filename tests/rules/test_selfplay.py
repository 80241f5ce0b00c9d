"""``onitama-companion selfplay`` and random play-outs of every mode."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.rules.position import NO_SQUARE
from companion.rules.selfplay import play_game
from companion.rules.shadow import ShadowReferee
from companion.rules.variants import SimultaneousReferee
from companion.rules.ways import WAYS, new_referee


def test_one_json_line_per_game(capsys):
    assert main(["selfplay", "--way", "shadow", "--games", "3", "--seed", "2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    for game, line in enumerate(lines):
        assert set(line) == {"variant", "game", "seed", "winner", "how", "plies", "leak"}
        assert line["variant"] == "shadow" and line["game"] == game and line["leak"] is False
        assert (line["winner"] is None) == (line["how"] in ("draw", "unfinished"))


def test_every_variant_and_the_same_seed_gives_the_same_games(capsys):
    assert main(["selfplay", "--variant", "all", "--games", "2", "--seed", "9", "--max-plies", "40"]) == 0
    first = capsys.readouterr().out
    assert {json.loads(line)["variant"] for line in first.splitlines()} == set(WAYS)
    main(["selfplay", "--variant", "all", "--games", "2", "--seed", "9", "--max-plies", "40"])
    assert capsys.readouterr().out == first


def test_an_unfinished_game_has_no_winner():
    line = play_game("light", 3, max_plies=1)
    assert line["winner"] is None and line["how"] == "unfinished" and line["plies"] == 1


def test_bad_arguments_exit_2(capsys):
    assert main(["selfplay", "--variant", "chess"]) == 2
    assert "unknown way 'chess'" in capsys.readouterr().err
    assert main(["selfplay", "--games", "-1"]) == 2


def check_legal_state(ref):
    """The invariants every mode keeps after every action."""
    view = ref.view(None)
    json.dumps(view)
    if isinstance(ref, ShadowReferee):
        s = ref.state
        pos = s.pos
        assert not pos.red & pos.blue
        for c in (0, 1):
            assert len(set(s.ninjas[c])) == len(s.ninjas[c])
            assert not any(pos.pawns(c) >> n & 1 for n in s.ninjas[c])
            assert set(s.revealed[c]) <= set(s.ninjas[c])
            assert len(s.ninjas[c]) + s.lost[c] == (ref.ninja_count if s.setup[c] else 0) or not s.setup[c]
            assert 0 <= s.lanterns[c] <= 2
        if ref.mode == "light":
            assert not pos.pawns(1 - ref.light)
        cards = pos.cards()
    elif isinstance(ref, SimultaneousReferee):
        pos = ref.state.pos
        cards = pos.cards()
        assert len(cards) == 6
    else:
        pos = ref.position()
        cards = pos.cards() + (ref.state.stacks[1 - pos.turn] if ref.knowledge else ())
    assert not pos.red & pos.blue
    assert len(set(cards)) == len(cards)
    if ref.result is None:
        assert ref.to_act() and all(ref.legal_actions(s) for s in ref.to_act())
        if not isinstance(ref, ShadowReferee) or ref.mode == "shadow":
            assert NO_SQUARE not in (pos.red_master, pos.blue_master)


@settings(max_examples=45, deadline=None)
@given(variant=st.sampled_from(tuple(WAYS)), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_random_playouts_never_crash_and_stay_legal(variant, seed, data):
    ref = new_referee(variant, seed=seed, hidden_seed=seed)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(400):
        if ref.result is not None:
            break
        seat = rng.choice(ref.to_act())
        ref.act(seat, rng.choice(ref.legal_actions(seat)))
        check_legal_state(ref)
    if ref.result is not None:
        assert ref.to_act() == () and ref.view(None)["phase"] == "over"

"""The Light Master weighs its worlds' evaluation against its shares of lost games at
``HiddenPlayer.eval_scale`` times the evaluation (hidden.LIGHT_EVAL_SCALE)."""

from companion.ai.agent import Player
from companion.ai.hidden import LIGHT_EVAL_SCALE, HiddenPlayer
from companion.ai.levels import level
from companion.ai.view import NinjaInfo, SeatView

# Seed 7001's first Light Master move: a student's step leaves the master where no Ninja
# reaches it in the turns counted, so its score is the worlds' evaluation alone; the master's
# step to c2 is counted exposed (a share of a lost game), and the same share at either scale.
FIRST_MOVE_7001 = SeatView(
    mode="light", seat="red", to_act=("red",), phase="move",
    position="5/5/5/5/rrRrr red Crane,Rooster Elephant,Goose Ox", log=(),
    legal=("Crane a1a2", "Crane b1b2", "Crane c1c2", "Crane d1d2", "Crane e1e2", "Rooster a1b2",
           "Rooster b1c2", "Rooster c1d2", "Rooster d1e2"),
    ninjas=(("blue", NinjaInfo(alive=2, captured=0, revealed=())),), lanterns=(2, 0), light="red",
    first_turn=True)


def _scores(view, scale):
    player = Player("medium", seed=1, nodes=level("medium").nodes)
    player._hidden = HiddenPlayer(player, ambush=True, eval_scale=scale)
    return dict(player._hidden.scored(view))


def test_the_light_masters_evaluation_is_scaled_against_its_risks():
    one, ten = _scores(FIRST_MOVE_7001, 1), _scores(FIRST_MOVE_7001, 10)
    safe = {a: s for a, s in one.items() if a.from_sq != 2}
    assert len(set(safe.values())) > 2 and min(safe.values()) > 0   # told apart, no risk
    assert all(ten[a] == 10 * s for a, s in safe.items())
    for a in set(one) - set(safe):              # the master's steps: the risk is not scaled
        assert -50_000 < one[a] < ten[a] < 0.8 * one[a]


def test_the_table_plays_the_scale_and_the_benchmarks_earlier_agent_does_not():
    player = Player("medium", seed=1)
    assert HiddenPlayer(player).eval_scale == LIGHT_EVAL_SCALE > 1
    assert HiddenPlayer(player, ambush=False).eval_scale == 1

"""A chain of fast Spirit moves the hands followed is read over a change to a published turn
(``going_on``): snatch 8's shape, and hurried 36's Wind card finished by its own hand."""

from types import SimpleNamespace

from companion.mat.going_on import going_on
from companion.mat.histories import Explanation
from companion.rules.moves import parse_move
from companion.rules.squares import parse_square


def _history(text: str, cost: int = 0) -> Explanation:
    moves = tuple(parse_move(m) for m in text.split(", "))
    return Explanation(SimpleNamespace(moves=moves), cost, None)  # type: ignore[arg-type]


def _lifts(*pairs: tuple[float, str]) -> list[tuple[float, int]]:
    return [(t, parse_square(sq)) for t, sq in pairs]


SNATCH_8 = _lifts((4.735, "c3"), (5.565, "e3"), (6.175, "d4"), (9.425, "e3"), (9.925, "d2"),
                  (10.585, "d3"), (10.825, "c5"))


def test_the_chain_the_lifts_followed_goes_over_a_changed_step():
    change = _history("Cat c3b3")
    chain = _history("Cat c3e3, Steer e3d4, Nessie d4e3, Lobster e3d2, Moth d2d3, Nessie d3b3")
    opened = (parse_move("Cat c3e3"),)
    assert going_on([change, chain], [change], opened, SNATCH_8, [6.575]) == [chain]


def test_not_a_noisy_chain():
    change = _history("Cat c3b3")
    chain = _history("Cat c3e3, Steer e3d4, Nessie d4e3, Lobster e3d2, Moth d2d3, Nessie d3b3",
                     cost=1)
    opened = (parse_move("Cat c3e3"),)
    assert going_on([change, chain], [change], opened, SNATCH_8, [6.575]) == [change]


def test_a_wind_card_its_own_hand_finished_stays():
    finished = _history("Bat c1c2 a3c4")
    chain = _history("Crab c1c2, Phoenix a3c3, Bear c3c4")
    opened = (parse_move("Crab c1c2"),)
    lifts = _lifts((63.665, "c1"), (65.885, "a3"), (66.195, "c3"))
    assert going_on([finished, chain], [finished], opened, lifts, [64.035]) == [finished]


SNATCH_46 = _lifts((84.0265, "c4"), (85.031, "b3"), (85.6726, "c3"), (85.9481, "d3"))


def test_of_two_chains_the_one_leaving_fewest_lifts_untouched_goes_on():
    # (Nessie c4b3, Goat b3c3, Sasori c3e3 set down on d3 on its way: d3 alone untouched;
    # Nessie c4d3, Goat d3e3 leave b3 and c3, the change Cobra d3e3 c4, b3 and c3.)
    change = _history("Cobra d3e3")
    two = _history("Cobra d3c4, Nessie c4d3, Goat d3e3")
    three = _history("Cobra d3c4, Nessie c4b3, Goat b3c3, Sasori c3e3")
    opened = (parse_move("Cobra d3c4"),)
    assert going_on([change, two, three], [change], opened, SNATCH_46, [81.86]) == [three]

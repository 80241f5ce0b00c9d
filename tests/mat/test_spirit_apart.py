"""A Wind Spirit card part-way stays beside whole readings that read the card asked about
with its Spirit elsewhere, over fewer turns (``whole_first``, ``_spirit_apart``): snatch 116's
shape, and spirit-back 185's whole reading with a card of its own, which settles it."""

from types import SimpleNamespace

from companion.mat.histories import Explanation
from companion.mat.on_its_way import whole_first
from companion.rules.moves import parse_move


def _history(text: str, pending: str | None = None) -> Explanation:
    moves = tuple(parse_move(m) for m in text.split(", "))
    node = SimpleNamespace(moves=moves, pending=parse_move(pending) if pending else None)
    return Explanation(node, 0, None)  # type: ignore[arg-type]


def test_the_spirit_snatched_on_or_carried_in_one_turn_keeps_the_card_part_way():
    # (Asked at turn 1: "Bat or Rat?"; Blue's Bat a5a4 part-way, or Ox a5a4 whole.)
    half = _history("Rat b2b1, Bat d3d4 b1c2, Ox c2c3, Rat c3d2", pending="Bat a5a4 d2e1")
    whole = _history("Rat b2b1, Bat d3d4 b1d2, Ox a5a4")
    assert whole_first([whole, half], asked=1) == [whole, half]


def test_not_where_no_turn_is_asked_about():
    half = _history("Rat b2b1, Bat d3d4 b1c2, Ox c2c3, Rat c3d2", pending="Bat a5a4 d2e1")
    whole = _history("Rat b2b1, Bat d3d4 b1d2, Ox a5a4")
    assert whole_first([whole, half], asked=None) == [whole]


def test_not_where_the_whole_reading_plays_another_card_there():
    half = _history("Rat b2b1, Bat d3d4 b1c2, Ox c2c3, Rat c3d2", pending="Bat a5a4 d2e1")
    whole = _history("Rat b2b1, Octopus d3d4 b1d2, Ox a5a4")
    assert whole_first([whole, half], asked=1) == [whole]

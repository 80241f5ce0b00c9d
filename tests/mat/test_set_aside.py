"""``set_aside`` at the deadline it sets itself (story 6's wait, see set_aside.py)."""

from types import SimpleNamespace

from companion.mat.pieces import NOW
from companion.mat.set_aside import set_aside
from companion.mat.sides import ASIDE_S
from companion.rules.moves import Move
from companion.rules.squares import parse_square


def test_the_wait_ends_at_the_deadline_it_set_whatever_the_rounding():
    """The recognizer reads the mat again at ``changed_at + ASIDE_S`` (``Recognizer._aside``).
    Then the piece has stood ``ASIDE_S``, and the amendment is read: ``set_aside`` must not
    ask for the same wait again. With ``t - changed_at`` measured, 2.001 + 1.2 - 2.001 is
    1.1999999999999997 s, the wait was set again for the same instant, and the clock's loop
    (``_advance_to``) never ended (hit by a change of the rule, session 40)."""
    a3, a4, b4, b5 = (parse_square(s) for s in ("a3", "a4", "b4", "b5"))
    turn = Move("Monkey", from_sq=a3, to_sq=a4)
    changed_at = 2.001
    # (The pawn set down on a4 as its turn was shown, lifted 1.5 s after, set down on b4.)
    pawn = ((a3, -3.0, -1.0), (a4, -0.2, 1.5), (b4, changed_at, NOW))
    amended = SimpleNamespace(node=SimpleNamespace(moves=(Move("Ox", from_sq=a3, to_sq=b4),)),
                              map=SimpleNamespace(trails=(pawn,)))
    capture = SimpleNamespace(position=SimpleNamespace(spirit=None),
                              moves=[Move("Crab", from_sq=b5, to_sq=a4)])
    assert changed_at + ASIDE_S - changed_at < ASIDE_S   # (the rounding this is about)
    lifts = [(1.5, a4)]   # the pawn lifted 1.5 s after the mat showed its turn (at 0.0)

    def waits(t: float) -> bool:
        return set_aside([amended], (turn,), [0.0], lifts, changed_at, t, lambda: capture)

    assert waits(changed_at + 0.5)
    assert not waits(changed_at + ASIDE_S)


def test_a_spirit_moved_on_long_after_it_stood_waits_as_a_pawn_does():
    """A Wind Spirit card's Spirit moved on from where it stood 2 s is as likely the next
    player's hand carrying it (their turn moves it too) and setting it down on its way
    (set-down 98, session 41): the amendment waits until it has stood ``ASIDE_S``. Moved on
    within a moment of the rest, or where the next player cannot move it from, it is read.
    The Spirit is dated from when it was set down on its square, not from the turn's shown
    time alone, which an amendment may date back to the lifts before it (set-down 50)."""
    e1, d2, b2, b3, c3, b4 = (parse_square(s) for s in ("e1", "d2", "b2", "b3", "c3", "b4"))
    turn = Move("Rhinoceros", from_sq=e1, to_sq=d2, spirit_from=b2, spirit_to=b3, wind_card=True)
    moves = (Move("Rhinoceros", from_sq=e1, to_sq=d2, spirit_from=b2, spirit_to=c3,
                  wind_card=True),)
    carries = SimpleNamespace(position=SimpleNamespace(spirit=b3),
                              moves=[Move("Butterfly", from_sq=b3, to_sq=b4)])
    stays = SimpleNamespace(position=SimpleNamespace(spirit=b3), moves=[])
    changed_at = 2.5

    def waits(lifted: float, theirs: SimpleNamespace, down: float = -0.2) -> bool:
        spirit = ((b2, -3.0, -1.0), (b3, down, lifted), (c3, changed_at, NOW))
        amended = SimpleNamespace(node=SimpleNamespace(moves=moves),
                                  map=SimpleNamespace(trails=(spirit,)))
        return set_aside([amended], (turn,), [0.0], [(lifted, b3)], changed_at, changed_at + 0.4,
                         lambda: theirs)

    assert waits(2.0, carries)
    assert not waits(0.5, carries)
    assert not waits(2.0, stays)
    assert not waits(2.0, carries, down=1.5)   # set down on b3 0.5 s before it was lifted

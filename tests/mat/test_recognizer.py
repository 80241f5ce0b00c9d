"""The move recognizer on its own: debounced occupancy and simulated time in, events and
feedback out (no scanner, no wall clock)."""

import random
from itertools import permutations

import pytest
from hypothesis import given, settings

from companion.mat.feedback import PALETTE, cues
from companion.mat.readings import read_move
from companion.mat.recognizer import CLEAR_S, SETTLE_S, Recognizer, pair_up
from companion.mat.scene import Light
from companion.rules.squares import parse_square, square_distance
from strategies import games

START = "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"
CAPTURE = "bbBb1/5/1b3/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"
SWAP = "bbBbb/5/2W2/2r2/rrR1r red Tiger,Crab Monkey,Crane Dragon"
TWO_CARDS = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"


class Hands:
    """Lift and place on a mat already debounced, with the clock in the test's hands."""

    def __init__(self, position: str, **options):
        self.rec = Recognizer(position, **options)
        self.occ = set(self.rec.occupancy)
        self.t = 0.0
        self.events = self.rec.advance(0.0)

    def _set(self, dt: float, sq: str, on: bool) -> "Hands":
        self.t += dt
        (self.occ.add if on else self.occ.discard)(parse_square(sq))
        self.events += self.rec.update(self.t, frozenset(self.occ))
        return self

    def lift(self, sq: str, dt: float = 0.5) -> "Hands":
        return self._set(dt, sq, False)

    def place(self, sq: str, dt: float = 0.5) -> "Hands":
        return self._set(dt, sq, True)

    def wait(self, dt: float) -> "Hands":
        self.t += dt
        self.events += self.rec.advance(self.t)
        return self

    def kinds(self) -> list[tuple]:
        return [tuple((k, v) for k, v in e.items() if k != "t") for e in self.events]


def moves(h: Hands) -> list[str]:
    return [e["move"] for e in h.events if "move" in e]


def test_a_move_commits_after_the_settle_time_and_not_before():
    h = Hands(START).lift("c1").place("c3")
    placed = h.t
    h.wait(SETTLE_S - 0.01)
    assert moves(h) == []
    h.wait(0.02)
    assert h.events == [{"t": round(placed + SETTLE_S, 3), "move": "Tiger c1c3"}]
    assert h.rec.board.peek() == h.rec.board.parse("Tiger c1c3")


def test_a_hesitation_does_not_commit():
    h = Hands(START).lift("a1").place("a2").lift("a2", dt=0.24).place("a3").wait(1)
    assert moves(h) == ["Tiger a1a3"]


def test_a_pawn_held_is_not_a_capture_even_after_a_brush_of_the_target():
    h = Hands(CAPTURE).lift("b1").lift("b3", dt=0.3).place("b3", dt=CLEAR_S / 2).wait(3)
    assert moves(h) == []
    h.place("b2").wait(1)
    assert moves(h) == ["Crab b1b2"]


@pytest.mark.parametrize("hands", [
    [("lift", "b1"), ("lift", "b3"), ("place", "b3")],   # own pawn first
    [("lift", "b3"), ("lift", "b1"), ("place", "b3")],   # captured pawn first
])
def test_captures_in_any_order(hands):
    h = Hands(CAPTURE)
    for action, sq in hands:
        getattr(h, action)(sq)
    h.wait(1)
    assert moves(h) == ["Tiger b1b3"]


def test_a_swap_needs_both_squares_empty_together():
    apart = Hands(SWAP, settle=0.3).lift("c3").place("c3", dt=0.2).lift("c2", dt=0.05).place("c2", dt=0.2).wait(1)
    assert moves(apart) == []
    together = Hands(SWAP).lift("c2").lift("c3").place("c3").place("c2").wait(1)
    assert moves(together) == ["Tiger c3c2"]


def test_two_cards_prompt_and_the_buttons_follow_hand_order():
    h = Hands(TWO_CARDS).lift("a1").place("a2").wait(1)
    assert h.rec.prompt == {"seat": "red", "choose": ["Ox", "Boar"],
                            "buttons": {"Ox": "A", "Boar": "B"}}
    assert h.rec.feedback().oled[:3] == ("Red: which card?", "did you play?", "A:Ox  B:Boar")
    h.events += h.rec.button(h.t, "C")          # no takeback offered: ignored
    h.events += h.rec.answer(h.t, "blue", "Ox")  # not Blue's question: ignored
    assert moves(h) == []
    h.events += h.rec.button(h.t + 1, "A")
    assert moves(h) == ["Ox a1a2"] and h.rec.prompt is None


def test_a_prompt_is_cancelled_when_the_pawn_goes_back():
    h = Hands(TWO_CARDS).lift("a1").place("a2").wait(1).lift("a2").place("a1").wait(1)
    assert h.kinds()[-1] == (("prompt_cancelled", {"seat": "red"}),)
    assert moves(h) == []


def test_a_late_answer_for_a_turn_is_not_taken_by_a_later_turns_question_with_the_same_card():
    # The phone showed "Ox or Boar?" for Red's turn 1; its Boar answer lands after the buttons
    # answered Ox and Red's turn 3 is asked "Crab or Boar?": it names turn 1, so it is not
    # the answer to turn 3 (session 38: answers matched by card alone went to the wrong turn).
    h = Hands(TWO_CARDS).lift("a1").place("a2").wait(1)
    assert h.rec.turn_of("red", "Boar") == 1
    h.events += h.rec.button(h.t, "A")
    h.lift("b5").place("b4").wait(1).lift("a2").place("a3").wait(1)
    assert h.rec.prompt == {"seat": "red", "choose": ["Crab", "Boar"],
                            "buttons": {"Crab": "A", "Boar": "B"}}
    assert h.rec.turn_of("red", "Boar") == 3
    h.events += h.rec.answer(h.t, "red", "Boar", turn=1)
    assert moves(h) == ["Ox a1a2", "Horse b5b4"] and h.rec.prompt is not None
    h.events += h.rec.answer(h.t, "red", "Crab", turn=3)
    assert moves(h) == ["Ox a1a2", "Horse b5b4", "Crab a2a3"]


def test_an_answer_for_a_cancelled_question_is_kept_for_its_turn():
    # spirit-back 33: Red's answer came between the prompt's cancel and its return
    h = Hands(TWO_CARDS).lift("a1").place("a2").wait(1).lift("a2").place("a1").wait(1)
    assert h.rec.prompt is None
    assert h.rec.offered(1, "red", "Boar") and not h.rec.offered(1, "blue", "Boar")
    assert not h.rec.offered(2, "red", "Boar")
    h.events += h.rec.answer(h.t, "red", "Boar", turn=1)
    assert moves(h) == []
    h.lift("a1").place("a2").wait(1)
    assert moves(h) == ["Boar a1a2"] and h.rec.prompt is None


def test_takeback_then_the_same_move_again():
    h = Hands(START).lift("c1").place("c3").wait(1).lift("c3").place("c1").wait(1)
    assert [k for k in h.kinds()] == [(("move", "Tiger c1c3"),), (("takeback", "Tiger c1c3"),)]
    assert h.rec.board.move_stack == []
    h.lift("c1").place("c3").wait(1)
    assert moves(h) == ["Tiger c1c3", "Tiger c1c3"]


def test_mismatch_shows_the_way_back_then_syncs():
    h = Hands(START).lift("a1").place("b3").wait(1)
    assert h.kinds() == [(("mismatch", ["a1", "b3"]),)]
    fb = h.rec.feedback()
    assert fb.pairs == ((parse_square("b3"), parse_square("a1")),)
    assert fb.stray == (parse_square("a1"), parse_square("b3"))   # one pawn: a1 to b3
    assert {light.effect for light in fb.scene.values()} == {"blink-fast"}
    led = cues(fb)
    assert led[parse_square("b3")].phase != led[parse_square("a1")].phase
    h.lift("b3").place("a1").wait(1)
    assert h.kinds()[-1] == (("synced", True),)
    assert h.rec.feedback().pairs == ()


def test_lifted_pawn_lights_its_destinations_by_card():
    h = Hands(TWO_CARDS).lift("a1")   # Ox (0,1) (1,0) (0,-1); Boar (0,1) (-1,0) (1,0)
    scene = h.rec.feedback().scene
    assert scene == {parse_square("a2"): scene[parse_square("a2")]}  # b1 holds Red's own pawn
    assert scene[parse_square("a2")].colour == "white"   # both cards reach it
    h2 = Hands(START).lift("c1")      # Tiger (0,2) (0,-1); Crab (0,1) (+-2,0)
    scene = h2.rec.feedback().scene
    assert scene[parse_square("c3")].colour == "cyan" and scene[parse_square("c2")].colour == "magenta"
    assert set(scene) == {parse_square("c3"), parse_square("c2")}
    h2.place("c3").wait(SETTLE_S + 0.01)
    assert h2.rec.feedback().scene[parse_square("c3")].effect == "flash"
    assert PALETTE[h2.rec.feedback().scene[parse_square("c3")].colour] == (0, 255, 0)


def test_settle_time_is_bounded():
    with pytest.raises(ValueError):
        Recognizer(START, settle=0.6)


def test_pair_up_minimises_the_total_distance():
    sq = parse_square
    assert pair_up(frozenset({sq("c3")}), frozenset()) == ()
    assert pair_up(frozenset({sq("a1"), sq("d4")}), frozenset({sq("e5")})) == ((sq("d4"), sq("e5")),)
    rng = random.Random(5)
    for _ in range(200):
        squares = rng.sample(range(25), rng.randint(2, 8))
        cut = rng.randint(1, len(squares) - 1)
        extra, missing = squares[:cut], squares[cut:]
        pairs = pair_up(frozenset(extra), frozenset(missing))
        small, large = sorted((extra, missing), key=len)
        best = min(sum(square_distance(a, b) for a, b in zip(small, chosen))
                   for chosen in permutations(large, len(small)))
        assert len(pairs) == len(small)
        assert sum(square_distance(a, b) for a, b in pairs) == best


@settings(max_examples=60, deadline=None)
@given(games(max_plies=20))
def test_readings_agree_with_the_engine(board):
    """Each legal turn's reading shows the pieces the engine's position shows afterwards."""
    pos = board.position
    for move in board.legal_moves:
        reading = read_move(pos, move)
        board.push(move)
        after = board.position
        board.pop()
        assert reading.pieces == tuple(after.piece_at(sq) for sq in range(25)), move
        assert reading.occupancy == after.occupied()


# -- issue 12: the next hand answers, amendments, fast play, never silent ---------------------

WIND = "bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"   # Lion: a1b2 then c3c4
EAGLE = "1bBbb/5/2W2/5/rrRrr red Eagle,Tiger Monkey,Crane Dragon"


def test_a_turn_a_wind_spirit_card_could_go_on_from_is_committed_and_lights_the_spirit_only():
    h = Hands(WIND).lift("a1").place("b2").wait(1)
    assert moves(h) == ["Mantis a1b2"] and h.rec.prompt is None and h.rec.amendable
    scene = h.rec.feedback().scene
    assert scene == {parse_square("c4"): scene[parse_square("c4")]}
    assert scene[parse_square("c4")] == type(scene[parse_square("c4")])("cyan", "steady")  # Lion = A
    h.lift("c3")        # the Spirit in the hand: still Lion's step alone, not Blue's cards
    assert h.rec.feedback().scene == scene


LION_ONLY = "bbBbb/5/2W2/5/rrRrr red Lion,Crane Tiger,Monkey Dragon"  # only Lion steps a1b2


def test_a_wind_spirit_cards_spirit_step_lights_only_that_cards_spirit_destinations():
    """Issue 11, defect 2: after the pawn step of a Wind Spirit card no other card's move is
    lit (Crane's a1a2, nor b2 where the pawn stands), at rest nor with the Spirit lifted."""
    only_c4 = {parse_square("c4"): Light("cyan", "steady")}   # Lion is card A: cyan
    h = Hands(LION_ONLY).lift("a1").place("b2").wait(1)
    assert moves(h) == [] and h.rec.waiting == "red"
    assert h.rec.feedback().scene == only_c4
    h.lift("c3")
    assert h.rec.feedback().scene == only_c4
    h.wait(1)
    assert h.rec.feedback().scene == only_c4
    h.place("c4").wait(1)
    assert moves(h) == ["Lion a1b2 c3c4"]


def test_a_pawn_lifted_for_a_wind_spirit_cards_capture_still_shows_all_its_destinations():
    # Lion's pawn step a1b2 would capture: until the captured pawn is seen gone, the mat
    # shows a pawn in the hand, not a Spirit step to make.
    h = Hands("bbB1b/5/2W2/1b3/r1Rrr red Lion,Crane Tiger,Monkey Dragon").lift("a1")
    assert set(h.rec.feedback().scene) == {parse_square("a2"), parse_square("b2")}
    h.lift("b2").place("b2").wait(1)
    assert h.rec.feedback().scene == {parse_square("c4"): Light("cyan", "steady")}


def test_the_same_player_going_on_with_the_spirit_amends_the_turn():
    h = Hands(WIND).lift("a1").place("b2").wait(1).lift("c3").place("c4").wait(1)
    # Blue's Tiger could move the Spirit to c4 too: only the players know whose step it was.
    assert h.rec.prompt == {"seat": "red", "choose": ["Lion"],
                            "reply": {"seat": "blue", "choose": ["Tiger"]},
                            "buttons": {"Lion": "A", "Tiger": "C"}}
    assert h.rec.feedback().oled[0] == "Whose step was it?"
    h.events += h.rec.answer(h.t, "blue", "Crane")   # not among the choices: ignored
    assert h.rec.prompt is not None
    h.events += h.rec.button(h.t, "A")                # Lion, card A of Red's hand
    assert h.kinds()[-2:] == [(("takeback", "Mantis a1b2"), ("amend", True)),
                              (("move", "Lion a1b2 c3c4"), ("amended", True))]
    assert [str(m) for m in h.rec.board.move_stack] == ["Lion a1b2 c3c4"]
    assert h.rec.feedback().oled[:2] == ("Red amended:", "Lion a1b2 c3c4")


def test_the_reply_to_a_whose_step_question_may_come_from_the_other_seat_or_button_c():
    for answer in (lambda h: h.rec.answer(h.t, "blue", "Tiger"), lambda h: h.rec.button(h.t, "C")):
        h = Hands(WIND).lift("a1").place("b2").wait(1).lift("c3").place("c4").wait(1)
        h.events += answer(h)
        assert [str(m) for m in h.rec.board.move_stack] == ["Mantis a1b2", "Tiger c3c4"]


def test_the_opponent_lifting_their_own_pawn_ends_the_window_a_brush_does_not():
    h = Hands(WIND).lift("a1").place("b2").wait(1)
    h.lift("b5").place("b5", dt=CLEAR_S / 2).wait(0.2)
    assert h.rec.amendable
    h.lift("b5").wait(CLEAR_S + 0.01)
    assert not h.rec.amendable
    h.place("b4").wait(1)
    assert moves(h) == ["Mantis a1b2", "Crane b5b4"]


def test_the_mover_may_move_the_pawn_on_to_another_square_of_the_turn():
    h = Hands(START).lift("c1").place("c2").wait(0.6)
    assert moves(h) == ["Crab c1c2"]
    h.lift("c2")
    lit = h.rec.feedback().scene   # the other squares the turn allowed from c1
    assert set(lit) == {parse_square("c3")} and lit[parse_square("c3")].colour == "cyan"
    h.place("c3").wait(1)
    assert h.kinds()[-2:] == [(("takeback", "Crab c1c2"), ("amend", True)),
                              (("move", "Tiger c1c3"), ("amended", True))]
    assert h.rec.board.move_stack == [h.rec.board.parse("Tiger c1c3")]


def test_no_amendment_once_the_turn_has_gone_to_the_phone():
    h = Hands(START).lift("c1").place("c2").wait(0.6)
    h.events += h.rec.end_turn(h.t)
    h.lift("c2").place("c3").wait(1)
    assert moves(h) == ["Crab c1c2"] and h.kinds()[-1][0][0] == "mismatch"


def test_fast_play_commits_at_the_opponents_first_lift():
    h = Hands(START).lift("c1").place("c3")
    placed = h.t
    h.lift("b5", dt=0.1)
    h.wait(CLEAR_S + 0.01)
    assert h.events == [{"t": round(placed + 0.1 + CLEAR_S, 3), "move": "Tiger c1c3"}]
    h.place("b4").wait(1)
    assert moves(h) == ["Tiger c1c3", "Crane b5b4"]


def test_a_hesitation_on_a_legal_square_is_not_ended_by_the_same_pawn():
    h = Hands(START).lift("c1").place("c2").lift("c2", dt=0.1).wait(0.2).place("c3").wait(1)
    assert moves(h) == ["Tiger c1c3"]


def test_a_turn_resting_part_way_says_it_is_waiting():
    h = Hands(EAGLE).lift("b1")
    h.wait(1)
    assert h.events == []                      # a pawn in the hand shows its destinations
    h.place("c2").wait(1)
    assert h.kinds() == [(("waiting", {"seat": "red"}),)]
    assert h.rec.feedback().oled == ("Red: waiting for", "the rest of the turn")
    h.lift("c3").place("a5").wait(1)
    assert moves(h) == ["Eagle b1c2 c3a5"]


def test_a_capture_taken_back_captured_pawn_first():
    h = Hands(CAPTURE).lift("b1").lift("b3").place("b3").wait(1)
    assert moves(h) == ["Tiger b1b3"]
    h.lift("b3").place("b3", dt=0.3).wait(0.8).place("b1").wait(1)
    assert h.kinds()[-1] == (("takeback", "Tiger b1b3"),)


def test_a_long_return_to_the_position_forgets_the_evidence():
    """A pawn lifted and put back, then after a while its own pawn held in the air: the mat
    looks like the capture, but the enemy pawn's lift was long ago."""
    h = Hands(CAPTURE).lift("b3").place("b3").wait(3).lift("b1").wait(2)
    assert moves(h) == []


def test_a_captured_pawn_set_down_aside_is_the_only_square_pointed_to():
    h = Hands(CAPTURE).lift("b1").lift("b3").place("b3").place("a4", dt=0.2).wait(1)
    assert h.kinds()[-1] == (("mismatch", ["a4"]),)
    fb = h.rec.feedback()
    assert fb.pairs == () and set(fb.scene) == {parse_square("a4")} and fb.stray is None
    assert fb.oled[1] == "take off the pawn on a4"
    h.lift("a4").wait(1)
    assert h.kinds()[-2:] == [(("move", "Tiger b1b3"),), (("synced", True),)]


# -- issue 23: the Wind lights --------------------------------------------------------------

def _quick(h: Hands, *steps: str) -> Hands:
    """Hands fast enough that the mat never rests between ``steps`` ("-sq" lifts, "+sq" places)."""
    for step in steps:
        (h.lift if step[0] == "-" else h.place)(step[1:], dt=0.1)
    return h


def test_a_wind_spirit_card_turn_made_whole_leaves_no_light_of_its_other_spirit_steps():
    """After Red's Eagle d1e2 c3e5 (the Spirit swapped with Blue's pawn on e5) is booked, no
    other Spirit step of Eagle (a5) stays lit into Blue's turn; and Blue lifting the Spirit
    sees where Blue's own cards take it."""
    h = _quick(Hands(EAGLE), "-d1", "+e2", "-c3", "-e5", "+e5", "+c3").wait(2)
    assert moves(h) == ["Eagle d1e2 c3e5"]
    assert h.rec.feedback().scene == {}
    h.lift("e5")
    board = h.rec.board
    spirit = {m.to_sq for m in board.legal_moves if m.from_sq == parse_square("e5")}
    assert spirit and set(h.rec.feedback().scene) == spirit


def test_the_spirit_and_the_student_it_swaps_with_in_the_hand_light_the_swap_only():
    """Red's Mantis a1b2 may still go on as Lion's Spirit step c3c4; with a student on c4 it
    is a swap. The Spirit and that student both in the hand light the swap's square, not the
    student's moves by Blue's cards."""
    position = "bbB1b/2b2/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon"
    h = _quick(Hands(position), "-a1", "+b2").wait(1)
    assert moves(h) == ["Mantis a1b2"]
    h.lift("c3", dt=0.1).lift("c4", dt=0.1)
    assert set(h.rec.feedback().scene) <= {parse_square("c3"), parse_square("c4")}


def test_a_turn_a_wind_spirit_card_could_go_on_from_is_not_said_to_be_over():
    """Issue 23: a pawn step that is both a regular card's turn (Mantis a1b2) and a Wind
    Spirit card's first step (Lion's) was announced as the regular card's, "Blue to move",
    while Red still had the Spirit's step to make. The recognizer tells the table the Spirit
    step may follow (tests/table/test_spirit_step_said.py: what the screens say), until Blue
    starts."""
    h = Hands(WIND).lift("a1").place("b2").wait(1)
    assert moves(h) == ["Mantis a1b2"] and h.rec.spirit_may_follow == ("red", ("Lion",))
    h.lift("a5").wait(1)                     # Blue starts: Red's turn is over
    assert h.rec.spirit_may_follow is None and h.rec.feedback().oled[0] == "Blue to move"


def test_a_regular_turn_no_spirit_card_goes_on_from_is_said_as_before():
    h = Hands(START).lift("a1").place("a2").wait(1)
    assert moves(h) == ["Crab a1a2"] and h.rec.spirit_may_follow is None

"""The phone's headline (companion.table.headlines): what to do now, from the seat's own view."""

from companion.rules.shadow import ShadowReferee
from companion.rules.ways import new_referee
from companion.table.headlines import headline


def seat_view(ref, seat, *, status="playing", mat=None, setup=None):
    return {"game": {"id": 1, "variant": ref.mode, "status": status}, "setup": setup,
            "table": ref.view(seat), "mat": mat or {"state": "ok", "prompt": None, "wrong": [], "pairs": []}}


def test_remove_your_student_after_a_ninja_took_it():
    ref = ShadowReferee("b1B1b/5/5/1b3/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    ref.act("red", "Nb1")
    ref.act("blue", "Nd5")
    ref.act("red", "Boar a1a2")
    ref.act("red", "Nb1b2")                   # Red's Ninja takes Blue's student on b2
    mat = {"state": "mismatch", "prompt": None, "wrong": ["b2"], "pairs": []}
    assert headline(seat_view(ref, "blue", status="sync", mat=mat), "blue")["title"] == "Remove your student from b2"
    assert headline(seat_view(ref, "red", status="sync", mat=mat), "red")["title"] == "Blue removes their student from b2"


def found_by_a_lantern() -> ShadowReferee:
    """Red to move, its Ninja on b1 just found by Blue's Lantern on rank 1."""
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    for seat, action in (("red", "Nb1"), ("blue", "Nd5"), ("red", "Boar a1a2"), ("red", "skip"),
                         ("blue", "Monkey a5b4"), ("blue", "skip"), ("blue", "L1")):
        ref.act(seat, action)
    return ref


def test_a_lantern_that_found_your_ninja_and_a_strike():
    ref = found_by_a_lantern()
    said = headline(seat_view(ref, "red"), "red")
    assert said["title"] == "Blue's Lantern found your Ninja (rank 1)"
    assert said["detail"] == "Your turn: make your move on the mat."
    assert headline(seat_view(ref, "blue"), "blue")["title"] == "Red's turn"


def test_the_steps_of_a_turn_and_the_end():
    ref = ShadowReferee("b1B1b/5/5/5/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    assert headline(seat_view(ref, "red"), "red")["title"] == "Hide your Ninja"
    ref.act("red", "Nb1")
    assert headline(seat_view(ref, "red"), "red") == {"title": "Blue's turn", "detail": "Blue is hiding their Ninja."}
    ref.act("blue", "Nd5")
    ref.act("red", "Boar a1a2")
    assert headline(seat_view(ref, "red"), "red")["title"] == "Your Ninja"
    assert headline(seat_view(ref, "blue"), "blue") == {"title": "Red's turn", "detail": "Red may move their Ninja."}


def test_way_of_the_light_set_up_says_who_has_ninjas():
    ref = ShadowReferee("5/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger", "light", light="red")
    setup = {"board": "5/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger", "red": ["Boar", "Crab"],
             "blue": ["Monkey", "Crane"], "side": "Tiger", "first": "red", "ninjas": True}
    detail = headline(seat_view(ref, "red", status="sync", setup=setup), "red")["detail"]
    assert "Only the Shadow Master (Blue) has Ninjas" in detail


def test_both_seats_are_asked_whose_spirit_step_it_was():
    from companion.rules.variants import ClassicReferee
    ref = ClassicReferee("bbBbb/5/2W2/5/rrRrr red Lion,Mantis Tiger,Crane Dragon", "wind")
    ref.act("red", "Mantis a1b2")
    prompt = {"seat": "red", "choose": ["Lion"], "buttons": {"Lion": "A"},
              "reply": {"seat": "blue", "choose": ["Tiger"], "buttons": {"Tiger": "C"}}}
    mat = {"state": "prompt", "prompt": prompt, "wrong": [], "pairs": []}
    for seat, other in (("red", "Blue"), ("blue", "Red")):
        assert headline(seat_view(ref, seat, mat=mat), seat) == {
            "title": "Whose step was it?",
            "detail": f"If you moved the Spirit, name your card below; if {other} did, {other} answers."}
    # A plain card question is for the asked seat alone.
    del prompt["reply"]
    assert headline(seat_view(ref, "red", mat=mat), "red")["title"] == "Which card?"
    assert headline(seat_view(ref, "blue", mat=mat), "blue")["title"] == "Your turn"


def test_a_question_after_old_news_reads_as_the_question():
    # Issue 23: the news of Blue's last turn no longer heads Red's later steps.
    ref = found_by_a_lantern()
    ref.act("red", "Crab a2a3")
    ref.act("red", "skip")
    said = headline(seat_view(ref, "red"), "red")
    assert ref.view("red")["phase"] == "lantern"
    assert said == {"title": "A Lantern?", "detail": "Search a rank or a file for the enemy Ninja, or go without."}


def test_a_way_added_to_the_registry_is_told_where_its_moves_are_made(monkeypatch):
    # Adding a way of playing is one registry entry plus its referee: the headline reads
    # where the moves are made from the entry (mat_reads_moves), not from a list of names.
    from dataclasses import replace

    from companion.rules.variants import ClassicReferee
    from companion.rules.ways import WAYS

    for name, on_mat in (("mat-way", True), ("phone-way", False)):
        monkeypatch.setitem(WAYS, name, replace(WAYS["base"], name=name, mat_reads_moves=on_mat))
        ref = ClassicReferee("bbBbb/5/5/5/rrRrr red Boar,Crab Monkey,Crane Tiger", "base")
        view = seat_view(ref, "red")
        view["game"]["variant"] = name
        assert headline(view, "red") == (
            {"title": "Your turn", "detail": "Make your move on the mat."} if on_mat
            else {"title": "Your turn", "detail": "Choose your move below."})


def test_the_shadow_master_hides_two_ninjas_and_everyone_says_so():
    ref = ShadowReferee("5/5/5/5/r1R1r blue Boar,Crab Monkey,Crane Tiger", "light", light="red")
    assert headline(seat_view(ref, "blue"), "blue")["title"] == "Hide your Ninjas"
    assert headline(seat_view(ref, "red"), "red") == {"title": "Blue's turn", "detail": "Blue is hiding their Ninjas."}


def test_old_news_leaves_the_headline_once_the_turn_goes_on():
    ref = found_by_a_lantern()
    assert headline(seat_view(ref, "red"), "red")["title"] == "Blue's Lantern found your Ninja (rank 1)"
    ref.act("red", "Crab a2a3")
    assert headline(seat_view(ref, "red"), "red")["title"] == "Your Ninja"
    assert headline(seat_view(ref, "blue"), "blue")["title"] == "Red's turn"


def test_the_pages_say_who_removes_a_student_a_ninja_took():
    # Issue 23: /sim said "Put the pawns back"; the public view now says the task, in the
    # words of Blue's phone.
    from companion.rules.position import board_pieces
    from companion.table import views
    from companion.table.session import GameSession
    ref = ShadowReferee("b1B1b/5/5/1b3/r1R1r red Boar,Crab Monkey,Crane Tiger", "shadow")
    for seat, action in (("red", "Nb1"), ("blue", "Nd5"), ("red", "Boar a1a2")):
        ref.act(seat, action)
    before = frozenset(board_pieces(ref.view(None)["position"]))
    ref.act("red", "Nb1b2")                   # Red's Ninja takes Blue's student on b2
    game = GameSession(1, {"variant": "shadow"}, ref, status="sync", laid_out=True)
    public = views.view(game, None, occupancy=before, oled=("Put pawns back",), seats={})
    assert public["instruction"] == {"title": "Blue removes their student from b2",
                                     "detail": "A Ninja took it."}
    blue = views.seat_part(game, "blue")
    assert views.view(game, blue, occupancy=before, oled=(), seats={})["headline"]["title"] == \
        "Remove your student from b2"


def test_the_pages_say_whose_turn_in_the_oleds_words_and_what_they_do():
    from companion.table.instructions import turn_instruction as say
    assert say(["red"], True, "move", computer={}, remote=()) == {
        "title": "Red to move", "detail": "Red makes a move on the mat."}
    assert say(["blue"], True, "move", computer={"blue": "easy"}, remote=())["title"] == "Computer thinking"
    assert say(["blue"], True, "move", computer={}, remote=("blue",))["detail"] == \
        "Blue is choosing on their phone: then make their move on the mat."
    assert say(["red"], False, "lantern", computer={}, remote=()) == {
        "title": "Red to play", "detail": "Red lights a Lantern or skips, on their phone."}


def test_a_hint_on_is_said_with_what_to_do():
    """At 390x844 the hint's own line is below the fold: the headline says how to read it
    (lift a pawn: the mat shows grades; in a way with secrets, tap one on the phone)."""
    base = new_referee("base", seed=4)
    seat = base.to_act()[0]
    view = {**seat_view(base, seat), "hints": {"left": 2, "on": True, "asking": False, "grades": {}}}
    assert headline(view, seat) == {"title": "Your turn", "detail": "Make your move on the mat. Hint on: "
                                     "lift a pawn; green is good, yellow risky, red losing."}
    shadow = found_by_a_lantern()
    view = {**seat_view(shadow, "red"), "hints": {"left": 2, "on": True, "asking": False, "grades": {}}}
    assert headline(view, "red")["detail"].endswith(
        "Hint on: tap a pawn on this board; green is good, yellow risky, red losing.")
    view["hints"]["on"] = False
    assert "Hint" not in headline(view, "red")["detail"]

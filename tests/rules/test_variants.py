"""The fan variants: 3-card hands (seven, nine), Knowledge, Simultaneous play, conditional
moves, and the variant names."""

import random
from dataclasses import replace

import pytest

from companion.rules.actions import Take
from companion.rules.cards import CARDS, card_from_dict, load_card_file
from companion.rules.errors import IllegalActionError, VariantError
from companion.rules.position import parse_position
from companion.rules.referee import Result
from companion.rules.variants import ROLES, ClassicReferee, SimultaneousReferee, example_conditional_cards
from companion.rules.ways import WAYS, new_referee


def test_seven_cards_one_master_card_and_two_student_cards():
    ref = ClassicReferee("bbBbb/5/5/5/rrRrr red Tiger,Crab,Monkey Crane,Dragon,Elephant Boar",
                         "seven", roles=ROLES["seven"])
    with pytest.raises(IllegalActionError, match="master card"):
        ref.act("red", "Tiger a1a3")
    ref.act("red", "Crab c1c2")                      # a student card: the master may use it
    ref.undo()
    ref.act("red", "Crab a1a2")
    # The replacement goes into the column of the card played.
    assert ref.view(None)["position"].split()[2] == "Tiger,Boar,Monkey"
    assert ref.view(None)["slots"] == ["master", "any", "any"]
    with pytest.raises(IllegalActionError, match="master card"):
        ref.act("blue", "Crane a5a4")
    ref.act("blue", "Dragon a5c4")
    assert ref.view(None)["position"].split()[3] == "Crane,Crab,Elephant"


def test_nine_cards_master_only_and_student_only():
    ref = ClassicReferee("bbBbb/5/5/5/rrRrr red Tiger,Crab,Monkey,Horse Crane,Dragon,Elephant,Ox Boar",
                         "nine", roles=ROLES["nine"])
    with pytest.raises(IllegalActionError, match="student card"):
        ref.act("red", "Monkey c1b2")
    with pytest.raises(IllegalActionError, match="master card"):
        ref.act("red", "Crab a1a2")
    ref.act("red", "Monkey a1b2")
    assert ref.view(None)["position"].split()[2] == "Tiger,Crab,Boar,Horse"


def test_knowledge_a_lost_student_draws_a_card_and_the_stack_is_chosen_from():
    ref = ClassicReferee("bbBbb/r4/5/5/1rRrr red Crab,Tiger Monkey,Crane Boar", "knowledge",
                         knowledge=True, deck=("Eel", "Cobra"))
    events = ref.act("red", "Crab a4a5")
    assert any(e.kind == "draw" and e.data == {"by": "blue", "card": "Eel"} for e in events)
    assert ref.log[-1].full == "Crab a4a5 +Eel"
    view = ref.view(None)
    assert view["side_stacks"] == {"red": [], "blue": ["Eel", "Crab"]} and view["deck"] == 1
    ref.act("blue", "Monkey b5c4")
    assert ref.legal_actions("blue") == [Take("Eel"), Take("Crab")]
    with pytest.raises(IllegalActionError, match="side stack"):
        ref.act("blue", "Crane c5c4")
    ref.act("blue", ">Eel")
    assert ref.log[-1].full == "Monkey b5c4 >Eel"
    assert ref.view(None)["side_stacks"] == {"red": ["Monkey"], "blue": ["Crab"]}
    assert ref.view(None)["position"].split()[3] == "Eel,Crane"


def test_knowledge_no_draw_for_the_master_or_from_an_empty_deck():
    ref = ClassicReferee("bbBbb/r4/5/5/1rRrr red Crab,Tiger Monkey,Crane Boar", "knowledge",
                         knowledge=True, deck=())
    ref.act("red", "Crab a4a5")
    assert ref.view(None)["side_stacks"]["blue"] == ["Crab"]
    ref = ClassicReferee("bbBbb/2r2/5/5/2R1r red Crab,Tiger Monkey,Crane Boar", "knowledge",
                         knowledge=True, deck=("Eel",))
    ref.act("red", "Crab c4c5")
    assert ref.result == Result("red", "stone") and ref.state.deck == ("Eel",)


def simultaneous(board, red="Tiger,Crab", blue="Monkey,Crane", sides=("Boar", "Ox"), cards=CARDS):
    pos = parse_position(f"{board} red {red} {blue} {sides[0].replace(' ', '-')}", cards)
    return SimultaneousReferee(replace(pos, side=tuple(cards[s].name for s in sides)), cards=cards)


def play(ref, red, blue):
    ref.act("red", red)
    return ref.act("blue", blue)


def test_simultaneous_both_to_the_same_square_both_are_lost():
    ref = simultaneous("2B2/1b3/5/1r3/2R2")
    play(ref, "Crab b2b3", "Crane b4b3")
    assert ref.view(None)["position"].split()[0] == "2B2/5/5/5/2R2"
    assert ref.log[-1].public == "Crab b2b3 | Crane b4b3"


def test_simultaneous_a_standing_piece_is_captured_one_that_left_escapes():
    ref = simultaneous("2B2/1b3/5/1r3/2R2")
    play(ref, "Tiger b2b4", "Crane c5c4")
    assert ref.view(None)["position"].split()[0] == "5/1rB2/5/5/2R2"
    ref = simultaneous("2B2/1b3/5/1r3/2R2")
    play(ref, "Tiger b2b4", "Crane b4b3")
    assert ref.view(None)["position"].split()[0] == "2B2/1r3/1b3/5/2R2"


def test_simultaneous_pieces_that_swap_squares_pass_each_other():
    ref = simultaneous("2B2/1b3/1r3/5/2R2")
    play(ref, "Crab b3b4", "Crane b4b3")
    assert ref.view(None)["position"].split()[0] == "2B2/1r3/1b3/5/2R2"


def test_simultaneous_draws():
    ref = simultaneous("5/2R2/5/2B2/5")             # both masters reach the Temple Arch
    play(ref, "Crab c4c5", "Crane c2c1")
    assert ref.result == Result(None, "draw")
    ref = simultaneous("5/1B3/3b1/1r1R1/5")          # both masters captured
    events = play(ref, "Tiger b2b4", "Crane d3d2")
    assert ref.result == Result(None, "draw") and events[-1].kind == "game_over"
    ups = [card_from_dict({"name": f"Up {i}", "moves": [[0, i]]}) for i in range(1, 5)]
    ups += [card_from_dict({"name": f"Up {side}", "moves": [[dx, 4]]}) for side, dx in (("Left", -1), ("Right", 1))]
    table = CARDS.with_cards(ups)
    ref = simultaneous("R4/5/5/5/4B", "Up-1,Up-2", "Up-3,Up-4", ("Up Left", "Up Right"), table)
    assert ref.result == Result(None, "draw")        # neither player can ever move


def test_simultaneous_cards_go_to_the_other_side_and_never_twice_in_a_row():
    ref = simultaneous("2B2/1b3/5/1r3/2R2")
    play(ref, "Tiger b2b4", "Crane c5c4")
    view = ref.view(None)
    assert view["side_cards"] == {"red": "Crane", "blue": "Tiger"}
    assert view["position"].split()[2:4] == ["Boar,Crab", "Monkey,Ox"]
    rng = random.Random(7)
    for seed in range(30):
        ref = new_referee("simultaneous", seed=seed)
        while ref.result is None and len(ref.log) < 60:
            for seat in ("red", "blue"):
                ref.act(seat, rng.choice(ref.legal_actions(seat)))
            red, blue = (part.split()[0] for part in ref.log[-1].full.split(" | "))
            hands = ref.state.pos.hands[0] + ref.state.pos.hands[1]
            assert red not in hands and blue not in hands


def test_simultaneous_a_player_without_a_move_commits_a_pass():
    ref = simultaneous("2B2/5/5/5/R4", "Tiger,Crab", "Monkey,Crane")
    assert all(not m.is_pass for m in ref.legal_actions("red"))
    up = CARDS.with_cards([card_from_dict({"name": "Up", "moves": [[0, 1]]}),
                           card_from_dict({"name": "Up Two", "moves": [[0, 2]]})])
    ref = simultaneous("R1B2/5/5/5/5", "Up,Up-Two", "Monkey,Crane", cards=up)
    assert [str(m) for m in ref.legal_actions("red")] == ["Up pass", "Up-Two pass"]
    play(ref, "Up pass", "Crane c5c4")
    assert ref.result is None


def test_conditional_moves_empty_only_and_capture_only():
    table = CARDS.with_cards(example_conditional_cards())
    ref = ClassicReferee("b1B1b/5/5/1b3/rrRrr red Heron,Badger Wasp,Carp Lynx", "conditional",
                         cards=table)
    legal = {str(a) for a in ref.legal_actions("red")}
    assert "Heron a1b2" in legal and "Heron c1d2" not in legal      # capture only
    assert "Badger b1b2" in legal and "Badger a1a2" not in legal    # capture only, forward
    assert "Badger a1a3" in legal and "Badger b1b3" in legal        # empty only, two ahead
    with pytest.raises(IllegalActionError, match="only to capture"):
        ref.act("red", "Heron c1d2")


def test_the_example_card_file_uses_both_kinds_of_condition():
    from importlib import resources
    path = resources.files("companion").joinpath("data/example-conditional-cards.json")
    cards = load_card_file(str(path))
    assert len(cards) >= 5 and all(c.name not in CARDS for c in cards)
    assert any(c.move_only for c in cards) and any(c.capture_only for c in cards)


def test_every_variant_name_deals_and_unknown_names_are_refused():
    for variant in WAYS:
        ref = new_referee(variant, seed=11)
        assert ref.mode == variant and ref.to_act()
        assert new_referee(variant, seed=11).view(None) == ref.view(None)
    with pytest.raises(VariantError, match="unknown way 'chess'"):
        new_referee("chess")
    with pytest.raises(VariantError, match="Wind"):
        ClassicReferee("bbBbb/5/2W2/5/rrRrr red Tiger,Crab Monkey,Crane Boar", "knowledge",
                       knowledge=True)


def test_every_way_has_its_section_in_the_rules_document():
    from pathlib import Path
    rules = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = [line for line in rules.splitlines() if line.startswith("## ")]
    for name in WAYS:
        assert any(f"`{name}`" in heading for heading in headings), f"docs/rules.md has no section for {name}"

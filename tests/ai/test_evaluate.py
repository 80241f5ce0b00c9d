"""The temple race in the evaluation: the master's moves to the enemy Temple Arch, counted
with the cards as they pass (a card used goes to the enemy, the next one comes in), and the
score's race terms on positions of random games."""

import random
from dataclasses import replace
from itertools import permutations

from companion.ai.evaluate import FAR, Evaluator, Weights, race_distances
from companion.rules.cards import CARDS
from companion.rules.engine import ANY, Engine
from companion.rules.position import TEMPLE

from search_states import random_states

BASE = sorted(card.name for card in CARDS if not card.is_wind_card and not (card.move_only or card.capture_only))


def moves_to_arch(engine: Engine, color: int, hand: tuple[str, ...], nxt: str | None, sq: int) -> int:
    """By brute force over the order the cards are played in: one move with a held card; two
    with a held card, then the other or the next one; three: within three moves of any of
    them in any order."""
    goal = TEMPLE[color ^ 1]

    def step(squares: set[int], card: str) -> set[int]:
        mask = engine.table(card)[color].master_mask
        return {t for s in squares for t in range(25) if mask[s] >> t & 1}

    if any(goal in step({sq}, a) for a in hand):
        return 1
    later = list(hand) + ([nxt] if nxt is not None else [])
    for a in hand:
        rest = [c for c in later if c != a]
        if any(goal in step(step({sq}, a), b) for b in rest):
            return 2
    reached = {t for card in later for t in step({sq}, card)}
    for _ in range(2):
        reached |= {t for card in later for t in step(reached, card)}
    if goal in reached:
        return 3
    return FAR


def test_race_distances_count_the_cards_as_they_pass():
    engine = Engine(CARDS, (ANY, ANY))
    rng = random.Random(5)
    for _ in range(40):
        a, b, c = rng.sample(BASE, 3)
        color = rng.randrange(2)
        for nxt in (c, None):
            masks = [engine.table(x)[color].master_mask for x in (a, b)]
            got = race_distances(masks, engine.table(nxt)[color].master_mask if nxt else None, TEMPLE[color ^ 1])
            assert list(got) == [moves_to_arch(engine, color, (a, b), nxt, sq) for sq in range(25)], (a, b, nxt)


def test_a_master_next_to_the_arch_is_one_move_from_it():
    engine = Engine(CARDS, (ANY, ANY))
    # Red's Tiger steps two ranks forward: from c3 onto Blue's arch, c5.
    masks = [engine.table(x)[0].master_mask for x in ("Tiger", "Ox")]
    got = race_distances(masks, None, TEMPLE[1])
    assert got[12] == 1 and got[7] > 1


def test_the_race_terms_are_scored_for_both_masters():
    race = Weights(race1=50, race2=20, race3=7, race_lead=11)
    none = replace(race, race1=0, race2=0, race3=0, race_lead=0)
    checked = 0
    for variant, seed in (("base", 3), ("wind", 4)):
        for ref, st in random_states(variant, seed):
            engine = ref.engine
            with_race, without = Evaluator(engine, race), Evaluator(engine, none)
            own, opp, mo, mp, sp, color, ho, hp, (mine, _) = st
            mine_d = moves_for(engine, color, ho, mine[0], mo)
            theirs_d = moves_for(engine, color ^ 1, hp, None, mp)
            bonus = (0, 50, 20, 7, 0)
            lead = 11 if mine_d < FAR and mine_d <= theirs_d else -11 if theirs_d < mine_d else 0
            assert with_race(st) - without(st) == bonus[mine_d] - bonus[theirs_d] + lead
            checked += 1
    assert checked >= 20


def moves_for(engine: Engine, color: int, hand: tuple[str, ...], nxt: str | None, sq: int) -> int:
    return FAR if sq < 0 else moves_to_arch(engine, color, hand, nxt, sq)


def test_every_order_of_a_hand_gives_the_same_race():
    engine = Engine(CARDS, (ANY, ANY))
    for a, b in permutations(("Tiger", "Crab", "Eel"), 2):
        masks = [engine.table(x)[1].master_mask for x in (a, b)]
        assert race_distances(masks, None, TEMPLE[0]) == race_distances(masks[::-1], None, TEMPLE[0])

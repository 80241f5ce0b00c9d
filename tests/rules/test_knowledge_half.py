"""Knowledge across two tables (companion.rules.knowledge_half): each table's referee holds
no order of the face-down deck; every card is drawn by both tables' keys, each checked
against the chain its table published before the game."""

from __future__ import annotations

import random

import pytest

from companion.rules.errors import IllegalActionError
from companion.rules.knowledge_half import KnowledgeHalf, chain_of
from companion.rules.referee import SEATS
from companion.rules.variants import ClassicReferee
from companion.rules.ways import new_referee
from relayed import cross


def halves(seed: int, secrets=("red-seed", "blue-seed")) -> dict[str, KnowledgeHalf]:
    whole = new_referee("knowledge", seed=seed)
    assert isinstance(whole, ClassicReferee)
    return {seat: KnowledgeHalf(whole, seat, secret) for seat, secret in zip(SEATS, secrets)}


def relay(tables: dict[str, KnowledgeHalf], seat: str, action) -> None:
    """``seat``'s table plays ``action``; its rows cross, and each table's owed keys follow."""
    cross(tables, seat, action)
    while True:
        owed = [(s, t.answer()) for s, t in tables.items() if t.answer() is not None]
        if not owed:
            return
        cross(tables, *owed[0])


def random_game(seed: int, secrets=("red-seed", "blue-seed")) -> dict[str, KnowledgeHalf]:
    tables = halves(seed, secrets)
    rng = random.Random(seed)
    relay(tables, "red", tables["red"].answer())          # the tips, before the first move
    for _ in range(400):
        if tables["red"].result is not None:
            break
        seat = tables["red"].to_act()[0]
        legal = list(tables[seat].legal_actions(seat))
        # Players who take what they can: captures, so cards are drawn.
        takes = [a for a in legal if getattr(a, "to_sq", None) is not None
                 and tables[seat].position().pawns(1 - SEATS.index(seat)) >> a.to_sq & 1]
        relay(tables, seat, rng.choice(takes or legal))
    return tables


@pytest.mark.parametrize("seed", range(3))
def test_a_whole_knowledge_game_across_two_tables(seed):
    tables = random_game(seed)
    red, blue = tables["red"], tables["blue"]
    assert red.result is not None and red.result == blue.result
    assert red.rows == blue.rows and list(red.log) == list(blue.log)
    assert str(red.position()) == str(blue.position())
    drawn = [tok[1:] for turn in red.log for tok in turn.full.split() if tok.startswith("+")]
    assert len(drawn) == len(set(drawn))
    assert sum(text.startswith("key") for _, text in red.rows) == 2 * len(drawn)
    # Neither table ever held an order of the cards left: only their sorted set.
    assert red.state.inner.deck == tuple(sorted(red.state.inner.deck))


def test_some_game_draws_cards():
    assert any("+" in turn.full for seed in range(3) for turn in random_game(seed)["red"].log)


def test_the_cards_drawn_rest_on_both_tables_keys():
    """The same moves with one table's other seed draw other cards: no table alone sets them."""
    def draws(secrets):
        return [t.full for t in random_game(1, secrets)["red"].log if "+" in t.full]
    base = draws(("red-seed", "blue-seed"))
    assert base
    assert any(draws(("red-seed", f"blue-{k}")) != base for k in range(4))
    assert any(draws((f"red-{k}", "blue-seed")) != base for k in range(4))


def test_a_key_that_does_not_open_the_chain_is_refused_and_changes_nothing():
    tables = halves(1)
    relay(tables, "red", tables["red"].answer())
    rng = random.Random(1)
    while tables["red"].state.pending is None:
        seat = tables["red"].to_act()[0]
        legal = list(tables[seat].legal_actions(seat))
        takes = [a for a in legal if getattr(a, "to_sq", None) is not None
                 and tables[seat].position().pawns(1 - SEATS.index(seat)) >> a.to_sq & 1]
        if takes:
            # The capture's rows cross to the other table, the keys not yet.
            cross(tables, seat, takes[0])
            break
        relay(tables, seat, rng.choice(legal))
    mover = tables["red"].to_act()[0]
    other = tables["blue" if mover == "red" else "red"]
    before = other.rows
    wrong = chain_of("someone-else")[1]
    with pytest.raises(IllegalActionError):
        other.act(mover, f"key {wrong}")
    # A key further down the right chain is refused too (keys come in the chain's order).
    with pytest.raises(IllegalActionError):
        other.act(mover, f"key {chain_of('red-seed' if mover == 'red' else 'blue-seed')[2]}")
    assert other.rows == before
    other.act(mover, tables[mover].answer())
    assert other.rows == before + [(mover, tables[mover].answer())]

"""The end-of-game audit of a game played live across tables (companion/link/audit.py's
audit_rows over companion/rules/shadow_half.py's rows): each table opens every commitment it
published, and the other replays its openings with the rules. An honest table passes; each
kind of lie names the table that told it, at the row where it told it."""

from __future__ import annotations

import pytest

from companion.link.audit import audit_rows
from companion.rules.sealed_ninjas import Hidden, commitment, parse_step

from half_tables import GAME, other, random_tables, whole_game

SEEDS = {"shadow": range(0, 30), "light": range(0, 30)}


def honest(mode: str, seed: int):
    tables, _ = random_tables(mode, seed)
    return tables.sent, {s: tables.halves[s].openings() for s in ("red", "blue")}


def lies(mode, seed, rows, openings, seat):
    return [(lie.seat, lie.kind, lie.ply) for lie in audit_rows(GAME, whole_game(mode, seed), rows, seat, openings[seat])]


def find(mode: str, want):
    """The first game with a row ``want(rows, n)`` accepts: (seed, rows, openings, n)."""
    for seed in SEEDS[mode]:
        rows, openings = honest(mode, seed)
        for n in range(1, len(rows)):
            if want(rows, n):
                return seed, rows, openings, n
    raise AssertionError("no such game")


@pytest.mark.parametrize("mode, seed", [("shadow", 5), ("shadow", 6), ("light", 3), ("light", 7)])
def test_an_honest_game_across_tables_has_no_lie(mode, seed):
    rows, openings = honest(mode, seed)
    assert lies(mode, seed, rows, openings, "red") == lies(mode, seed, rows, openings, "blue") == []


def answer_after(kind):
    def want(rows, n):
        return rows[n][1].startswith("answer ") and kind(rows[n - 1][1]) and rows[n][1] == "answer +"
    return want


@pytest.mark.parametrize("what, asked, mode", [
    ("a Lantern", lambda t: t[0] == "L" and len(t) == 2, "shadow"),
    ("a Lantern in Way of the Light", lambda t: t[0] == "L" and len(t) == 2, "light"),
    ("a strike", lambda t: t.startswith("strike "), "shadow"),
    ("a pawn landing on a Ninja", lambda t: len(t.split()) == 2 and t.split()[0][0].isupper(), "shadow"),
    ("a pawn landing on a Ninja in Way of the Light", lambda t: len(t.split()) == 2 and t.split()[0][0].isupper(), "light")])
def test_a_false_answer_names_the_ninjas_owner(what, asked, mode):
    seed, rows, openings, n = find(mode, answer_after(asked))
    owner = rows[n][0]
    # The game up to the false answer (later rows would follow from it: the other table
    # believed it).
    false = [*rows[:n], (owner, "answer -")]
    openings = {seat: {k: v for k, v in told.items() if int(k) < n} for seat, told in openings.items()}
    assert lies(mode, seed, false, openings, owner) == [(owner, "answer", str(n))]
    assert lies(mode, seed, false, openings, other(owner)) == []


def test_a_ninja_moved_after_the_fact_is_an_opening_lie():
    rows, openings = honest("shadow", 5)
    text, salt = openings["red"]["0"]
    told = {**openings["red"], "0": ("Nd1" if text != "Nd1" else "Nb1", salt)}
    assert lies("shadow", 5, rows, {**openings, "red": told}, "red") == [("red", "opening", "0")]


def test_a_commitment_never_opened_is_an_opening_lie():
    rows, openings = honest("light", 3)
    hidden = sorted(int(n) for n in openings["blue"])
    dropped = {k: v for k, v in openings["blue"].items() if k != str(hidden[2])}
    assert lies("light", 3, rows, {**openings, "blue": dropped}, "blue") == [("blue", "opening", str(hidden[2]))]


def committed_to(rows, openings, seat: str, n: int, text: str):
    """The table committed, from the start, to ``text`` as its row ``n``: the hash is honest,
    so only the rules can refuse it."""
    salt = openings[seat][str(n)][1]
    sent = parse_step(rows[n][1], None, whole_game("shadow", 0).cards)
    assert isinstance(sent, Hidden)
    row = Hidden(sent.kind, sent.card, sent.square, commitment(GAME, seat, str(n), text, salt)).text()
    return [*rows[:n], (seat, row), *rows[n + 1:]], {**openings, seat: {**openings[seat], str(n): (text, salt)}}


def test_a_ninja_step_no_card_allows_names_the_mover():
    seed, rows, openings, n = find("shadow", lambda rows, n: rows[n][1].startswith("ninja #"))
    seat = rows[n][0]
    text = openings[seat][str(n)][0]
    bad = "Na1e5" if not text.startswith("Na1") else "Nb1e5"
    rows, openings = committed_to(rows, openings, seat, n, bad)
    assert lies("shadow", seed, rows, openings, seat) == [(seat, "rules", str(n))]


def test_a_set_up_the_rules_refuse_names_its_table():
    rows, openings = honest("shadow", 6)
    rows, openings = committed_to(rows, openings, "blue", 1, "Nc3")
    assert lies("shadow", 6, rows, openings, "blue") == [("blue", "rules", "1")]
    assert lies("shadow", 6, rows, openings, "red") == []


def test_a_public_form_the_step_does_not_give_names_the_mover():
    # A step that took a pawn, sent as a quiet one (so the other table kept the pawn).
    seed, rows, openings, n = find("shadow", lambda rows, n: rows[n][1].startswith("capture "))
    seat = rows[n][0]
    quiet = [*rows[:n], (seat, "ninja #" + rows[n][1].split("#")[1]), *rows[n + 1:]]
    assert lies("shadow", seed, quiet, openings, seat) == [(seat, "rules", str(n))]

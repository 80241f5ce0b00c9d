"""Keeping hidden Ninjas honest across tables: commitments, and the audit at the game's end.

During a game with hidden information across two tables (docs/tables.md, "Hidden
information"), a table publishes, for its set-up and for each of its turns, a commitment:
the hash of the turn's full text (its hidden steps included) with a fresh salt. It answers the
rules' questions about its own Ninjas in the public text (a Lantern's ``L3+``/``L3-``, a
strike's ``+``/``-``, ``xN`` when a pawn lands on one). At the end each table opens every
commitment (text and salt), and each checks the other's:

- an opening that does not hash to its commitment, or a commitment never opened: the table
  changed its Ninjas after the fact (``kind="opening"``);
- the whole game replayed through the rules (``companion.rules.sealed.replay``, public turns
  with the opened ones put back): a turn whose public answer the rules do not give was
  answered falsely by the other seat, the Ninjas' owner (``kind="answer"``); a hidden step the
  rules refuse was made by the mover (``kind="rules"``).

A live game across tables (``companion.rules.shadow_half``) commits to every action with a
hidden part, one by one (its row carries the hash); :func:`audit_rows` checks such a game: the
other table's openings, replayed by the rules with its own Ninjas, must give exactly the rows
it sent, hashes and answers included. :func:`audit` checks per-turn records the same way.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.cards import CardTable
from ..rules.errors import OnitamaError, RecordError
from ..rules.sealed import replay, reveal
from ..rules.sealed_ninjas import Answer, Hidden, commitment, parse_step
from ..rules.shadow import ShadowReferee
from ..rules.shadow_half import HalfReferee

SETUP = "setup"
# The two forms of sealed.replay's refusal: an action the rules refuse at a turn, and a turn
# whose text (its answers) the rules give otherwise.
_REFUSED = re.compile(r"^turn (\d+) '")
_OTHERWISE = re.compile(r"^turn (\d+): the record says")


@dataclass(frozen=True)
class Lie:
    seat: str
    kind: str           # opening | answer | rules
    ply: str            # "setup" or the turn's index (0-based), as in sealed records
    detail: str


def new_salt() -> str:
    return secrets.token_hex(16)


@dataclass(frozen=True)
class Opened:
    """A seat's commitments (ply -> hash) and, at the end, its openings (ply -> (text, salt))."""
    seat: str
    commitments: Mapping[str, str]
    openings: Mapping[str, tuple[str, str]]

    def sealed(self, public: Mapping[str, Any]) -> dict[str, Any]:
        """The seat's sealed record, as its openings give it."""
        setup = self.openings.get(SETUP)
        turns = {ply: text for ply, (text, _) in self.openings.items()
                 if ply != SETUP and text != public["turns"][int(ply)]}
        return {"format": public["format"], "version": public["version"], "kind": "sealed",
                "seat": self.seat, "header": public["header"],
                "setup": None if setup is None else setup[0], "turns": turns, "pending": None}


def check_openings(game: str, seats: Opened) -> list[Lie]:
    lies = []
    for ply, committed in seats.commitments.items():
        opened = seats.openings.get(ply)
        if opened is None:
            lies.append(Lie(seats.seat, "opening", ply, "a commitment it never opened"))
        elif commitment(game, seats.seat, ply, *opened) != committed:
            lies.append(Lie(seats.seat, "opening", ply,
                            f"opened {opened[0]!r}, which is not what it committed to"))
    for ply in set(seats.openings) - set(seats.commitments):
        lies.append(Lie(seats.seat, "opening", ply, "an opening with no commitment"))
    return lies


def audit(game: str, public: Mapping[str, Any], red: Opened, blue: Opened) -> list[Lie]:
    """Every lie found in a finished game's ``public`` record and both seats' openings."""
    lies = check_openings(game, red) + check_openings(game, blue)
    if lies:
        return lies             # a false opening already names its table; the replay would too
    full = reveal(dict(public), red.sealed(public), blue.sealed(public))
    try:
        ref = replay(full)
    except RecordError as exc:
        return lies + _blame(full, str(exc))
    # The opened texts agree with the rules; the answers announced at the table must too.
    for ply, (turn, said) in enumerate(zip(ref.log, public["turns"])):
        if turn.public != said and turn.seat is not None:
            lies.append(Lie(_other(turn.seat), "answer", str(ply),
                            f"turn {ply + 1}: announced {said!r}, the rules give {turn.public!r}"))
    return lies


def _blame(full: Mapping[str, Any], why: str) -> list[Lie]:
    """Who lied where the replay stopped: the mover, for a hidden step the rules refuse; the
    other seat, whose Ninjas every answer in a turn is about; at the set-up, each seat whose
    own set-up the rules refuse on its own."""
    refused, otherwise = _REFUSED.match(why), _OTHERWISE.match(why)
    first = full["header"]["start"].split()[1]
    if refused is None and otherwise is None:
        return [Lie(seat, "rules", SETUP, why) for seat, text in full["setup"].items()
                if not _legal_setup(full, seat, text)]
    ply = int((refused or otherwise).group(1)) - 1              # type: ignore[union-attr]
    mover = first if ply % 2 == 0 else _other(first)
    return [Lie(mover, "rules", str(ply), why) if refused else Lie(_other(mover), "answer", str(ply), why)]


def _other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def _legal_setup(full: Mapping[str, Any], seat: str, text: str) -> bool:
    alone = {**full, "header": {**full["header"], "result": None}, "setup": {seat: text},
             "turns": []}
    try:
        replay(alone)
    except RecordError:
        return False
    return True


def audit_rows(game: str, whole: ShadowReferee, rows: list[tuple[str, str]], seat: str,
               openings: Mapping[str, tuple[str, str]]) -> list[Lie]:
    """The lies of the table that played ``seat`` in a finished game across tables: ``rows``
    as both tables saved them, ``whole`` the game as dealt, ``openings`` what that table
    opened at the end (action number -> text, salt). Its opened steps are replayed by the
    rules with its own Ninjas: each must give exactly the row it sent (an ``opening`` lie
    when the hash differs, ``rules`` when the rules refuse it or give another public form),
    and each answer must be the rules' (``answer``)."""
    salts = {int(n): s for n, (_, s) in openings.items() if n.isdigit()}
    ref = HalfReferee(whole, seat, game, lambda n: salts.get(n, ""))
    hidden = {n for n, (who, text) in enumerate(rows) if who == seat and "#" in text}
    lies = [Lie(seat, "opening", n, "an opening with no commitment")
            for n in sorted(set(openings) - {str(n) for n in hidden})]
    for n, (who, text) in enumerate(rows):
        told = text
        if n in hidden:
            if str(n) not in openings:
                return lies + [Lie(seat, "opening", str(n), "a commitment it never opened")]
            told = openings[str(n)][0]
        try:
            ref.act(who, told)
        except OnitamaError as exc:
            if who != seat:
                raise RecordError(f"row {n} of the other table does not replay: {exc}") from None
            kind = "answer" if isinstance(parse_step(text, None, whole.cards), Answer) else "rules"
            return lies + [Lie(seat, kind, str(n), f"{told!r}: {exc}")]
        if who == seat and ref.rows[n][1] != text:
            return lies + [_differs(seat, n, text, ref.rows[n][1], whole.cards)]
    return lies


def _differs(seat: str, n: int, sent: str, given: str, cards: CardTable) -> Lie:
    """A row sent otherwise than its opening gives: another hash (the text is not what was
    committed) or another public form."""
    sent_step, given_step = parse_step(sent, None, cards), parse_step(given, None, cards)
    if isinstance(sent_step, Hidden) and isinstance(given_step, Hidden) and sent_step == given_step:
        return Lie(seat, "opening", str(n), "opened a text that is not what it committed to")
    return Lie(seat, "rules", str(n), f"sent {sent!r}, the rules give {given!r}")

"""Scoring what a recognizer understood of a generated game, as issue 21 measures it: on the
moves that stand after the recognizer's own amendments, against the game actually played.

The record is rebuilt from the output: each ``move`` pushes, each ``takeback`` (an amendment's
included) pops. A game is **exact** when

- the record at the end is the game played, move for move;
- it is not **wedged**: a ``mismatch`` reported with no ``synced`` after it (the mat out of sync
  from some point to the end, though every hand was legal);
- no commit came **before rest** (below);
- every turn the mat settles alone was committed at most ``limit`` (0.5 s) after its rest.

Definitions:

- **wrong commits**: entries of the final record that are not the move played at that place
  (a move committed that was not played and never corrected; after a first wrong entry, every
  later one counts too, since it was read on a wrong board).
- **before rest**: a ``move`` or ``takeback`` output at time t is premature unless one of
  (a) the mat had been still before t for about the settle time: no switch transition in
      (t - settle, t - 0.045] (a transition reaches the recognizer debounced: 25 ms after the
      last bounce of its burst, plus up to a 10 ms scan), noise left out (a brush, an
      onlooker's hand: transitions the generator marks as not the hands playing);
  (b) an answer (a button or a phone input) came in [t - 0.05, t];
  (c) it commits the turn played just before a turn whose hands had started by t (the next
      player's lift ends the turn before it).
  So a turn committed while its own hands are still at work (a Wind Spirit card's pawn step the
  instant its Spirit is lifted) is premature, and a pawn left for longer than the settle time
  on a wrong square, committed and then amended, is not.
- **rest-to-commit**: for each turn that stands in both records, from the turn's rest (its last
  switch transition), or from its answer when one was given at once, or from the rest of the
  reply that settles it when that reply started on its squares before it could be committed
  (``Turn.decided_by``), to the output that put it in the record for good. Turns whose commit may rightly wait longer (a question left open,
  or a turn played while one is) are not timed (``untimed``).
- **questions**: raised by the recognizer / called for by the rules (the generator's
  expectations); information only, since a recognizer may ask less when the next hands settle
  a question.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from companion.tracetool import SETTLE_S

# The events a recognizer decides that are not moves: they say how the mat looks (waiting, out
# of sync), and are counted apart.
SIDE_EVENTS = ("waiting", "mismatch", "synced", "prompt_cancelled")
DEBOUNCE_LAG = 0.045
ANSWER_MARGIN = 0.05


@dataclass
class Score:
    """What the companion understood of generated games, against what was played."""
    games: int = 0
    exact: int = 0              # games exact (record, no wedge, no commit before rest, timely)
    moves: int = 0              # turns that stand in the game played
    committed: int = 0          # of which the record has at the same place
    wrong: int = 0              # entries of the final record not played there
    wrong_games: int = 0
    wedged: int = 0             # games ending in a mismatch
    early: int = 0              # commits before rest
    early_games: int = 0
    late: int = 0               # timed turns committed more than ``limit`` after rest
    derailed: int = 0           # games not exact without a wrong commit
    untimed: int = 0            # turns whose commit may rightly wait (not timed)
    prompts_expected: int = 0
    prompts_raised: int = 0
    amended: int = 0
    side: dict[str, int] = field(default_factory=dict)   # waiting, mismatch, ... counts
    delays: list[float] = field(default_factory=list)    # rest -> commit, per timed turn
    problems: list[str] = field(default_factory=list)

    COUNTS = ("games", "exact", "moves", "committed", "wrong", "wrong_games", "wedged", "early",
              "early_games", "late", "derailed", "untimed", "prompts_expected", "prompts_raised",
              "amended")

    def merge(self, other: "Score") -> None:
        for name in self.COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for k, v in other.side.items():
            self.side[k] = self.side.get(k, 0) + v
        self.delays += other.delays
        self.problems += other.problems

    def add(self, seed: int, game, output: list[dict], limit: float = 0.5,
            settle: float = SETTLE_S) -> None:
        self.games += 1
        name = f"{game.category} game {seed}"
        found: list[str] = []
        for event in output:
            side = next((k for k in SIDE_EVENTS if k in event), None)
            if side:
                self.side[side] = self.side.get(side, 0) + 1
        self.prompts_raised += sum("prompt" in e for e in output)
        self.prompts_expected += sum("prompt" in e.event for e in game.expect)
        self.amended += sum(bool(e.get("amended")) for e in output)

        record = _record(output)
        played = game.played
        turns = game.record_turns()
        self.moves += len(played)
        wrong = 0
        for i, (move, t) in enumerate(record):
            if i >= len(played) or move != played[i]:
                wrong += 1
                if wrong == 1:
                    found.append(f"{name}: move {i + 1} recorded as {move} at {t}, played "
                                 f"{played[i] if i < len(played) else 'nothing'}")
                continue
            self.committed += 1
            turn = turns[i]
            if turn.untimed:
                self.untimed += 1
                continue
            delay = t - (turn.answered if turn.answered is not None else turn.decided_by or turn.rest)
            self.delays.append(delay)
            if delay > limit:
                self.late += 1
                found.append(f"{name}: {move} committed {delay:.3f} s after rest")
        if len(record) < len(played) and not wrong:
            found.append(f"{name}: {played[len(record)]} and {len(played) - len(record) - 1} more "
                         "never recorded")
        self.wrong += wrong

        mismatches = [i for i, e in enumerate(output) if "mismatch" in e]
        synced = [i for i, e in enumerate(output) if "synced" in e]
        if mismatches and (not synced or synced[-1] < mismatches[-1]):
            self.wedged += 1
            found.append(f"{name}: wedged from {output[mismatches[-1]]}")

        early = _premature(game, output, settle)
        self.early += len(early)
        self.early_games += bool(early)
        found += [f"{name}: {e} before rest" for e in early[:1]]

        self.problems += found
        if not found:
            self.exact += 1
        elif not wrong:
            self.derailed += 1
        else:
            self.wrong_games += 1


def _record(output: list[dict]) -> list[tuple[str, float]]:
    """The moves that stand after the output's takebacks and amendments, with the time each was
    committed."""
    record: list[tuple[str, float]] = []
    for event in output:
        if "move" in event:
            record.append((event["move"], event["t"]))
        elif "takeback" in event and record:
            record.pop()
    return record


def _premature(game, output: list[dict], settle: float) -> list[dict]:
    """The commits made before rest (see the module's docstring)."""
    noise = set(game.noise)
    edges = [e["t"] for e in game.events if ("on" in e or "off" in e) and e["t"] not in noise]
    answers = [e["t"] for e in game.events if "button" in e or "press" in e or "input" in e]
    # A turn's commit is due once the next turn's hands start.
    ended = {}
    for before, after in zip(game.turns, game.turns[1:]):
        if after.start is not None:
            ended.setdefault(before.move, []).append(after.start)
    early = []
    for event in output:
        if "move" in event:
            name = event["move"]
        elif "takeback" in event and not event.get("amend"):
            # (An amendment is judged by its move, which comes at the same time.)
            name = f"takeback {event['takeback']}"
        else:
            continue
        t = event["t"]
        seen = t - DEBOUNCE_LAG
        last = bisect_right(edges, seen) - 1
        still = last < 0 or edges[last] <= t - settle
        answered = any(t - ANSWER_MARGIN <= a <= t for a in answers)
        next_lift = any(s <= t for s in ended.get(name, []))
        if not (still or answered or next_lift):
            early.append(event)
    return early

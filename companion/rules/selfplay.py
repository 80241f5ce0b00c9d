"""``onitama-companion selfplay``: random legal games of any way, one JSON line per game.

    onitama-companion selfplay --way shadow --games 100 --seed 1   (--variant: its older name)

Each line: ``variant``, ``game``, ``seed`` (the deal's), ``winner`` (a seat, or null for a
draw or an unfinished game), ``how`` (stone, stream, ninjas, draw, unfinished), ``plies``
(finished turns) and ``leak``.

``leak`` comes from twin worlds. Whenever a seat does something in secret (places a Ninja,
steps it or not without capturing, the Shadow Master's choice of Ninja, a first commitment
in simultaneous play), a twin of the game takes another secret choice the rules allow
there; from then on both games receive the same actions for as long as they stay legal in
both and announce the same things. Every other seat's view, and the public view, must be
identical in the two worlds; any difference is a leak.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any, Sequence

from .actions import Action, NinjaMove, Place, Skip
from .errors import OnitamaError, VariantError
from .moves import Move
from .jsondata import JsonObject
from .position import COLORS
from .referee import SEATS, Event, Referee
from .shadow import ShadowReferee
from .variants import SimultaneousReferee
from .ways import WAYS, new_referee

MAX_TWINS = 2


# Referee[Any]: self-play drives the referee of any mode (the state's type is the mode's).
def secret_alternatives(ref: Referee[Any], seat: str, action: Action) -> list[Action]:
    """The other choices ``seat`` could make now that nobody else may tell apart from
    ``action``, by the rules (not by the views, which are what is being checked)."""
    if isinstance(ref, SimultaneousReferee):
        if len(ref.to_act()) < 2:
            return []   # the second commitment resolves the turn at once
        return [a for a in ref.legal_actions(seat) if a != action]
    if not isinstance(ref, ShadowReferee):
        return []
    st = ref.state
    c = COLORS.index(seat)
    enemy = st.pos.pawns(1 - c)

    def quiet(a: Action) -> bool:
        if isinstance(a, Place):
            return True
        if isinstance(a, NinjaMove):
            return not enemy >> a.to & 1
        if st.phase == "ninja":
            return isinstance(a, Skip)
        # The Shadow Master's pass in Way of the Light looks like a quiet step.
        return isinstance(a, Move) and a.is_pass and st.phase == "move" and c != ref.light

    if not quiet(action):
        return []
    card = getattr(action, "card", None)
    return [a for a in ref.legal_actions(seat)
            if a != action and quiet(a) and (card is None or getattr(a, "card", card) == card)]


def _observed(ref: Referee[Any], hidden: str) -> list[JsonObject]:
    return [ref.view(o) for o in (*[s for s in SEATS if s != hidden], None)]


def _told(events: Sequence[Event], hidden: str) -> list[list[JsonObject]]:
    return [[e.as_dict() for e in events if e.reaches(o)]
            for o in (*[s for s in SEATS if s != hidden], None)]


def play_game(variant: str, seed: int, *, max_plies: int = 200, check_leaks: bool = True) -> JsonObject:
    """One random legal game; the result as ``selfplay`` prints it."""
    rng = random.Random(seed)
    # Self-play is nobody's secret: the hidden order repeats with the seed too.
    ref = new_referee(variant, seed=seed, hidden_seed=seed)
    twins: list[tuple[Referee[Any], str]] = []
    leak = False
    while ref.result is None and len(ref.log) < max_plies:
        seat = rng.choice(ref.to_act())
        action = rng.choice(ref.legal_actions(seat))
        fresh = None
        if check_leaks:
            others = secret_alternatives(ref, seat, action)
            if others:
                twin = ref.copy()
                fresh = (twin, seat, twin.act(seat, rng.choice(others)))
        events = ref.act(seat, action)
        if not check_leaks:
            continue
        kept: list[tuple[Referee[Any], str]] = []
        for twin, hidden in twins:
            if seat not in twin.to_act() or action not in twin.legal_actions(seat):
                continue
            if _told(twin.act(seat, action), hidden) != _told(events, hidden):
                continue    # a public announcement tells the worlds apart: a legal difference
            kept.append((twin, hidden))
        if fresh is not None:
            twin, hidden, twin_events = fresh
            leak |= _told(twin_events, hidden) != _told(events, hidden)
            kept.append((twin, hidden))
        twins = kept[-MAX_TWINS:]
        if ref.result is None:
            for twin, hidden in twins:
                leak |= twin.result is not None or _observed(twin, hidden) != _observed(ref, hidden)
    result = ref.result
    return {"variant": variant, "seed": seed,
            "winner": None if result is None else result.winner,
            "how": "unfinished" if result is None else result.how,
            "plies": len(ref.log), "leak": leak}


def game_seed(seed: int, game: int) -> int:
    return (seed * 1_000_003 + game) % 2**31


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="onitama-companion selfplay",
                                     description="play random legal games and report as JSON lines")
    parser.add_argument("--way", "--variant", dest="way", default="base",
                        help=f"one of {', '.join(WAYS)}, or several comma-separated, or all")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=200,
                        help="turns after which a game counts as unfinished")
    parser.add_argument("--no-leak-check", action="store_true",
                        help="skip the twin-world check (faster; leak is then always false)")
    args = parser.parse_args(argv)
    variants = tuple(WAYS) if args.way == "all" else tuple(args.way.split(","))
    unknown = [v for v in variants if v not in WAYS]
    if unknown:
        raise VariantError(f"unknown way {unknown[0]!r} (known: {', '.join(WAYS)}, all)")
    if args.games < 0 or args.max_plies < 1:
        raise OnitamaError("--games must be 0 or more and --max-plies 1 or more")
    for variant in variants:
        for game in range(args.games):
            line = play_game(variant, game_seed(args.seed, game), max_plies=args.max_plies,
                             check_leaks=not args.no_leak_check)
            print(json.dumps({"variant": line.pop("variant"), "game": game, **line}), flush=True)
    return 0

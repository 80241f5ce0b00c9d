"""Hidden information: the belief agent against the same search fed other guesses of where
the enemy's Ninjas are.

    nice -n 10 python benchmarks/hidden_match.py --mode shadow --opponent uniform --deals 50

``uniform``: the enemy's hidden Ninjas on random squares without pawns (revealed ones where
they stand), nothing learnt from the record (what onitama.app's later commits do), and the
enemy's replies see its own Ninjas (plain determinization).
``cheat``: the opponent sees the true squares (the gap the belief leaves), with the search of
commit cc51677 (it does not count the second turn's ambushes, ``companion/ai/ambush.py``).
``random``: any legal action, drawn at random (as ``tests/table/test_computer.py``'s human).
``today``: the belief agent of commit cc51677, which does not count them either (in Way of the
Light its Shadow Master is the cheat's: the Light Master has no Ninjas to hide). Each deal is played
twice with the seats swapped (in Way of the Light: Light and Shadow swapped). Both sides get
the level's node budget without its clock, so a run repeats exactly.

The tally by side: in Way of the Light only the Light Master has hidden pieces against it
(the Shadow Master sees the whole board), so "belief as Light" is the Light Master's score
with the belief agent playing it, and 100 % minus "belief as Shadow" the Light Master's score
with the baseline playing it; in Way of the Shadow, the belief agent moving first or second.
"""

import argparse
import random
import re
import time

from ai_common import elo

from companion.ai.agent import Player
from companion.ai.odds import MODELS
from companion.ai.hidden import HiddenPlayer
from companion.ai.levels import level as get_level
from companion.ai.view import SeatView
from companion.rules.position import COLORS
from companion.rules.shadow import ShadowReferee
from companion.rules.squares import square_name


NINJA_STEP = re.compile(r"[NS][a-e][1-5][a-e][1-5]$")   # a Ninja's step or strike (Nd5c4, Sd1e2)


class Cheat(HiddenPlayer):
    """Benchmarks only: its one candidate placement is the truth, which ``self.truth()``
    reads from the referee."""

    truth = None

    def candidates(self, view, belief):
        return [self.truth()] if belief.enemy_has_ninjas else []


class Random:
    """Benchmarks only: any legal action, drawn at random (the table test's human)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> str:
        return self.rng.choice(view.legal)


def make(kind: str, level: str, seed: int, nodes: int | None, ref_box: list, pi_factor: float = 0.0,
         watched: tuple[str, ...] | None = None, belief: str | None = None, eval_scale: int | None = None):
    """``pi_factor``: the player thinks on the level's seconds, on a clock that runs at this
    process's CPU time times it (a Pi's pace, as ``bench_ai.py`` times it), not on nodes.
    ``belief``: how the belief agent's Light Master weighs its belief (belief.MODELS);
    ``eval_scale``: its worlds' evaluation against its shares of lost games (None: the agent's)."""
    if kind == "random":
        return Random(seed)
    player = Player(level, seed=seed, nodes=None if pi_factor else nodes)
    clock = (lambda: time.process_time() * pi_factor) if pi_factor else time.perf_counter
    if kind == "uniform":
        player._hidden = HiddenPlayer(player, uniform=True)
    elif kind == "today":
        player._hidden = HiddenPlayer(player, ambush=False, clock=clock)
    elif kind == "belief":
        player._hidden = HiddenPlayer(player, ambush=True, clock=clock, belief=belief, eval_scale=eval_scale)
    elif kind == "tree":        # the Light Master's information-set tree (companion/ai/infoset.py)
        player._hidden = HiddenPlayer(player, ambush=True, clock=clock, tree=True, belief=belief)
    elif kind == "cheat":
        cheat = Cheat(player, ambush=False)
        cheat.truth = lambda: tuple(sorted(ref_box[0].state.ninjas[1 - COLORS.index(ref_box[1])]))
        player._hidden = cheat
    if watched is not None:     # the modes whose enemy it takes to see its Ninjas (hidden.WATCHED)
        player._hidden.watched = watched
    return player


def count_ends(ends: dict[str, int], ref: ShadowReferee, me: str, other: str, last: dict[str, str]) -> None:
    """The belief agent's Ninjas lost and the enemy's taken, and how its lost games ended:
    its master taken by a Ninja (the winner's last action a Ninja's step or strike), by a
    pawn, or the enemy's master at its temple."""
    lost = ref.state.lost
    for key, n in (("own Ninjas lost", lost[COLORS.index(me)]), ("enemy Ninjas taken", lost[COLORS.index(other)])):
        ends[key] = ends.get(key, 0) + n
    if ref.result is not None and ref.result.winner == other and ref.mode == "shadow":
        how = ("lost at the temple" if ref.result.how == "stream" else
               "lost to a Ninja" if NINJA_STEP.match(last[other]) else "lost to a pawn")
        ends[how] = ends.get(how, 0) + 1


def side_name(mode: str, belief_seat: str, ref: ShadowReferee) -> str:
    """The belief agent's side for the per-side tally: in Way of the Light, Light or Shadow
    (only the Light Master has hidden Ninjas against it); in Way of the Shadow, whether it
    moved first."""
    if mode == "light":
        return "Light" if belief_seat == "red" else "Shadow"
    return "first" if COLORS[ref.start.turn] == belief_seat else "second"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("shadow", "light"), default="shadow")
    parser.add_argument("--opponent", choices=("uniform", "cheat", "today", "random"), default="uniform")
    parser.add_argument("--player", choices=("belief", "today", "tree"), default="belief",
                        help="the agent measured: today's belief agent, the agent of cc51677, or the "
                             "belief agent whose Light Master searches one information-set tree")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--nodes", type=int,
                        help="node budget per decision (default: the level's, without its clock, so a run repeats)")
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--pi-factor", type=float, default=0.0,
                        help="the measured player thinks on its level's seconds on a clock this many "
                             "times its CPU time (a Pi's pace: 10), not on nodes; the opponent on nodes")
    parser.add_argument("--watched",
                        help="the modes, comma-separated, in which the belief agent takes the enemy to see "
                             "its Ninjas ('none': blind in every mode; default: the agent's own, hidden.WATCHED)")
    parser.add_argument("--belief", choices=sorted(MODELS),
                        help="how the belief agent's Light Master weighs its belief (default: "
                             "belief.LIGHT_MODEL); benchmarks/belief_calibration.py compares them")
    parser.add_argument("--eval-scale", type=int,
                        help="the belief agent's Light Master's worlds' evaluation times this, against its "
                             "shares of lost games (default: hidden.LIGHT_EVAL_SCALE; 1: as before session 36)")
    parser.add_argument("--trace", action="store_true",
                        help="print every action with the board and the true Ninjas (to read lost games)")
    parser.add_argument("--seats", default="red,blue",
                        help="the belief agent's seats in each deal (Way of the Light: red is Light)")
    args = parser.parse_args()
    if args.nodes is None:
        args.nodes = get_level(args.level).nodes
    points = 0.0
    games = 0
    by_side: dict[str, list[float]] = {}    # side -> [points, games]
    ends: dict[str, int] = {}               # how the games went, seen from the belief agent
    started = time.time()
    for deal in range(args.deals):
        seed = args.seed + deal
        for belief_seat in args.seats.split(","):
            # Way of the Light: the belief agent plays Light in one game, Shadow in the other.
            ref = ShadowReferee.deal(args.mode, seed=seed, light="red")
            box = [ref, None]
            watched = (None if args.watched is None else
                       () if args.watched == "none" else tuple(args.watched.split(",")))
            agents = {belief_seat: make(args.player, args.level, seed, args.nodes, box, args.pi_factor, watched,
                                        args.belief, args.eval_scale)}
            other = "blue" if belief_seat == "red" else "red"
            agents[other] = make(args.opponent, args.level, seed + 1, args.nodes, box)
            last = {}                       # each seat's last action
            while ref.result is None and len(ref.log) < 200:
                seat = ref.to_act()[0]
                box[1] = seat
                action = last[seat] = agents[seat].choose(SeatView.from_view(ref.view(seat)))
                ref.act(seat, action)
                if args.trace:
                    tag = "belief" if seat == belief_seat else args.opponent
                    ninjas = [" ".join(square_name(s) for s in n) for n in ref.state.ninjas]
                    print(f"  {seat:4} {tag:7} {action:16} -> {ref.state.pos}  ninjas red [{ninjas[0]}] "
                          f"blue [{ninjas[1]}]", flush=True)
            winner = None if ref.result is None else ref.result.winner
            got = 1.0 if winner == belief_seat else 0.5 if winner is None else 0.0
            points += got
            games += 1
            tally = by_side.setdefault(side_name(args.mode, belief_seat, ref), [0.0, 0])
            tally[0] += got
            tally[1] += 1
            count_ends(ends, ref, belief_seat, other, last)
            print(f"{args.mode} seed {seed} belief as {belief_seat}: winner {winner} "
                  f"({'unfinished' if ref.result is None else ref.result.how}) in {len(ref.log)} plies",
                  flush=True)
    d, lo, hi = elo(points, games)
    print(f"\n{args.player} vs {args.opponent} in {args.mode} ({args.level}): {points:g}/{games} "
          f"({100 * points / games:.1f} %), Elo {d:+.0f} [{lo:+.0f}, {hi:+.0f}], "
          f"{(time.time() - started) / 60:.1f} min")
    print("  " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
    for side, (p, n) in sorted(by_side.items()):
        d, lo, hi = elo(p, n)
        print(f"  belief as {side}: {p:g}/{n} ({100 * p / n:.1f} %), Elo {d:+.0f} [{lo:+.0f}, {hi:+.0f}]")


if __name__ == "__main__":
    main()

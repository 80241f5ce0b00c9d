"""``onitama-companion bestmove`` and ``onitama-companion match``.

    onitama-companion bestmove "<position>" [--time S] [--level L] [--nodes N]
    onitama-companion match --way W --games N --red L1 --blue L2 --seed S [--time S|--nodes N]

``bestmove`` prints the search's depth, score and line, then the chosen move on its last line
(``docs/positions.md`` notation; a pass is ``<Card> pass``). ``match`` plays games between
levels (or ``random``) and prints one JSON line per game, as ``selfplay`` does: ``variant``,
``game``, ``seed``, ``red``, ``blue``, ``winner`` (null: a draw or unfinished), ``how``,
``plies``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from companion.rules.board import engine_move
from companion.rules.errors import OnitamaError
from companion.rules.position import NO_SQUARE, parse_position
from companion.rules.selfplay import game_seed
from companion.rules.variants import ClassicReferee
from companion.rules.ways import WAYS, new_referee

from .agent import Player, how_played
from .levels import NAMES
from .search import mate_in
from .view import SeatView


def _budget(args) -> dict:
    if args.time is not None and args.time <= 0:
        raise OnitamaError("--time must be more than 0 seconds")
    if args.nodes is not None and args.nodes < 1:
        raise OnitamaError("--nodes must be 1 or more")
    return {"seconds": args.time, "nodes": args.nodes}


def _level(name: str, allow_random: bool = False) -> str:
    if name in NAMES or (allow_random and name == "random"):
        return name
    known = ", ".join(NAMES + (("random",) if allow_random else ()))
    raise OnitamaError(f"unknown level {name!r} (known: {known})")


def bestmove(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="onitama-companion bestmove",
                                     description="the computer's move in a position")
    parser.add_argument("position", help="a position string (docs/positions.md)")
    parser.add_argument("--level", default="hard", help=f"one of {', '.join(NAMES)}")
    parser.add_argument("--time", type=float, help="seconds to think (the hard level's default 0.5)")
    parser.add_argument("--nodes", type=int, help="a node budget instead of the clock (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="for the weaker levels' choice")
    args = parser.parse_args(argv)
    player = Player(_level(args.level), seed=args.seed, **_budget(args))
    pos = parse_position(args.position)
    if pos.winner() is not None:
        raise OnitamaError("the game in this position is over")
    ref = ClassicReferee(pos, "base" if pos.spirit == NO_SQUARE else "wind")
    view = SeatView.from_view(ref.view(ref.to_act()[0]))
    text = player.choose(view)
    result = player.last
    if result is not None:
        st = player.state(view)
        line, cur = [], st
        searcher = player.searcher(view)
        h = searcher.key(cur)
        for mv in result.pv:
            line.append(str(engine_move(searcher.cards, cur, mv[:6])))
            cur, h = searcher.make(cur, h, mv)
        forced = mate_in(result.score)
        score = (f"win in {forced}" if forced and forced > 0 else f"loss in {-forced}" if forced
                 else f"{result.score:+d}")
        print(f"depth {result.depth}  score {score}  nodes {result.nodes}  "
              f"{result.seconds:.2f} s  pv {' | '.join(line)}")
    print(text)
    return 0


def play_match_game(variant: str, seed: int, red: str, blue: str, *, seconds: float | None = None,
                    nodes: int | None = None, max_plies: int = 200) -> dict:
    """One game between two levels (or ``random``); the result as ``match`` prints it."""
    ref = new_referee(variant, seed=seed)
    players = {}
    for i, (seat, name) in enumerate((("red", red), ("blue", blue))):
        players[seat] = (random.Random(seed * 2 + i) if name == "random"
                         else Player(name, seed=seed * 2 + i, seconds=seconds, nodes=nodes))
    while ref.result is None and len(ref.log) < max_plies:
        seat = ref.to_act()[0]
        player = players[seat]
        if isinstance(player, random.Random):
            ref.act(seat, player.choice(ref.legal_actions(seat)))
        else:
            ref.act(seat, player.choose(SeatView.from_view(ref.view(seat))))
    result = ref.result
    return {"variant": variant, "seed": seed, "red": red, "blue": blue,
            "winner": None if result is None else result.winner,
            "how": "unfinished" if result is None else result.how, "plies": len(ref.log)}


def match(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="onitama-companion match",
                                     description="play games between levels, one JSON line per game")
    parser.add_argument("--way", "--variant", dest="way", default="base",
                        help="a way the computer plays: " + ", ".join(
                            name for name, entry in WAYS.items() if entry.computer is not None))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--red", default="medium", help=f"one of {', '.join(NAMES)}, random")
    parser.add_argument("--blue", default="medium")
    parser.add_argument("--seed", type=int, default=0)
    budget_options = parser.add_mutually_exclusive_group()
    budget_options.add_argument("--time", type=float, help="seconds per move for the hard level")
    budget_options.add_argument("--nodes", type=int, help="nodes per move (repeatable games)")
    parser.add_argument("--max-plies", type=int, default=200, help="turns after which a game is unfinished")
    args = parser.parse_args(argv)
    how_played(args.way)          # UnsupportedMode names a way it does not play
    if args.games < 0 or args.max_plies < 1:
        raise OnitamaError("--games must be 0 or more and --max-plies 1 or more")
    red, blue = _level(args.red, True), _level(args.blue, True)
    budget = _budget(args)
    for game in range(args.games):
        line = play_match_game(args.way, game_seed(args.seed, game), red, blue,
                               max_plies=args.max_plies, **budget)
        print(json.dumps({"variant": line.pop("variant"), "game": game, **line}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(match(sys.argv[1:]))

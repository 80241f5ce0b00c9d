"""``onitama-companion``: the command line. Each subcommand reports bad input as one line on
stderr and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time

from companion.rules.cards import CARDS, CardTable, load_card_file
from companion.rules.errors import OnitamaError
from companion.rules.ways import WAYS
from companion.table.errors import REFUSALS

# Subcommands that live in their own modules: "module" runs ``module.main(argv) -> int``,
# "module:function" runs that function.
EXTERNAL = {
    "serve": ("companion.serve", "run the companion service (on the Pi: the systemd unit)"),
    "sim": ("companion.serve:main_sim", "the desktop simulation: the companion on simulated hardware"),
    "selftest": ("firmware.selftest", "test the mat's hardware (LEDs, switches, OLED, buttons)"),
    "trace": ("companion.tracetool", "replay a mat trace and print what the companion understood"),
    "selfplay": ("companion.rules.selfplay", "play random legal games and report as JSON lines"),
    "bestmove": ("companion.ai.cli:bestmove", "the computer's move in a position"),
    "match": ("companion.ai.cli:match", "play games between computer levels, one JSON line per game"),
    "export": ("companion.table.backup:main_export", "write every saved game to one file (a backup)"),
    "import": ("companion.table.backup:main_import", "read saved games back from an export"),
    "report": ("companion.report", "bundle versions, board, settings, last game and log for a bug report"),
}


def _cards(path: str | None) -> CardTable:
    return CARDS.with_cards(load_card_file(path)) if path else CARDS


def cmd_cards(args) -> int:
    table = _cards(args.custom)
    if args.json:
        # One card a line: readable in a terminal and easy to grep.
        print("[\n" + ",\n".join(" " + json.dumps(c.as_dict()) for c in table) + "\n]")
        return 0
    for card in table:
        pattern = card.moves if card.moves is not None else f"master {card.master_moves} student {card.student_moves}"
        extra = "".join(f"  {label} {list(offsets)}" for label, offsets in (
            ("wind", card.wind_moves or ()), ("move-only", card.move_only),
            ("capture-only", card.capture_only)) if offsets)
        print(f"{card.name:<12} {card.set:<13} {card.stamp or '?':<5} {pattern}{extra}")
    return 0


def cmd_perft(args) -> int:
    from companion.rules.board import Board, engine_move
    board = Board(args.position, cards=_cards(args.custom))
    engine = board.engine
    st = engine.state(board.position)
    if args.depth < 0:
        raise OnitamaError("depth must be 0 or more")
    started = time.perf_counter()
    if args.divide and args.depth >= 1 and not board.is_game_over():
        total = 0
        for mv, leaves in engine.divide(st, args.depth):
            print(f"{engine_move(board.cards, st, mv)}: {leaves}")
            total += leaves
    else:
        total = engine.perft(st, args.depth)
    if args.time:
        elapsed = time.perf_counter() - started
        print(f"{elapsed:.3f} s, {total / max(elapsed, 1e-9):,.0f} leaves/s", file=sys.stderr)
    print(total)
    return 0


def cmd_replay(args) -> int:
    from companion.rules.record import GameRecord, replay
    record = GameRecord.load(args.file)
    result = replay(record)
    if result.error:
        print(result.error)
        print(result.position)
        return 1
    outcome = result.result
    print(f"{len(record.moves)} moves, all legal" +
          (f"; {outcome.winner} won by {outcome.how}" if outcome else "; the game goes on"))
    print(result.position)
    return 0


def cmd_deal(args) -> int:
    from companion.rules.deal import fixed_deal
    from companion.rules.position import format_position
    from companion.rules.ways import new_referee, way
    table = _cards(args.custom)
    if args.cards:
        parts = args.cards.split()
        if len(parts) != 3:
            raise OnitamaError("--cards takes 'RED1,RED2 BLUE1,BLUE2 SIDE'")
        red, blue, side = parts[0].split(","), parts[1].split(","), parts[2]
        # Without --way, Wind Spirit cards among them imply the Way of the Wind.
        name = args.way or fixed_deal(red, blue, side, cards=table).variant
        ref = way(name).fixed(red, blue, side, first=args.first, cards=table)
    else:
        ref = new_referee(args.way or "base", seed=args.seed, sets=tuple(args.sets.split(",")),
                          wind_cards=args.wind_cards, first=args.first, cards=table)
    print(format_position(ref.start))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="onitama-companion",
                                     description="Onitama mat companion")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("cards", help="list every card")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--custom", metavar="FILE", help="add players' own cards from FILE")
    p.set_defaults(run=cmd_cards)

    p = sub.add_parser("perft", help="count the leaves of the game tree")
    p.add_argument("position", help="a position string (see docs/positions.md)")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="the count below each first move")
    p.add_argument("--time", action="store_true", help="report the time on stderr")
    p.add_argument("--custom", metavar="FILE", help="add players' own cards from FILE")
    p.set_defaults(run=cmd_perft)

    p = sub.add_parser("replay", help="check a game record move by move")
    p.add_argument("file")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("deal", help="deal a new game and print its starting position")
    # Every way of playing deals its own game (--variant: the older name of --way).
    p.add_argument("--way", "--variant", dest="way", choices=list(WAYS), metavar="WAY",
                   help="base (the default); " + "; ".join(f"{name}: {entry.title}"
                                                         for name, entry in WAYS.items()))
    p.add_argument("--sets", default="base", help="card sets, comma-separated (see 'cards')")
    p.add_argument("--wind-cards", type=int, default=2, help="Wind Spirit cards, 0-5")
    p.add_argument("--seed", type=int, help="repeat a deal")
    p.add_argument("--first", choices=("red", "blue"), help="override the stamp")
    p.add_argument("--cards", help="fixed cards: 'RED1,RED2 BLUE1,BLUE2 SIDE'")
    p.add_argument("--custom", metavar="FILE", help="add players' own cards from FILE")
    p.set_defaults(run=cmd_deal)

    for name, (_, help_text) in EXTERNAL.items():
        p = sub.add_parser(name, help=help_text, add_help=False)
        p.set_defaults(run=None)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in EXTERNAL:
            module, _, function = EXTERNAL[argv[0]][0].partition(":")
            return getattr(importlib.import_module(module), function or "main")(argv[1:])
        args = build_parser().parse_args(argv)
        return args.run(args)
    except REFUSALS as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

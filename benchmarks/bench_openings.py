"""Exact values of base-game openings: the start position with its deal, solved as far as an
exact search reaches, with a deal's endgame table at the leaves.

    nice -n 10 python benchmarks/bench_openings.py [--deals 4] [--seed 1] [--plies 11]
        [--nodes 200000000] [--students 3] [--check 300]

For each of ``--deals`` base-game deals (``new_referee("base", seed=...)``, the seeds
``--seed`` on, as the service deals them: the cards in the hands, the side card, and who
moves first), ``opening_prover.c`` (compiled here with ``endgame.c``) solves the table of
``--students`` students for the deal's cards (0: none), then asks, for n = 1, 3, 5, ... up
to ``--plies``: can the side to move force a win within n plies, and can the other side
within n + 1? Each is a full-width AND-OR search with no evaluation and no pruning but proof
(a table of proven bounds per position), so a "yes" is a proven forced win and a "no" a
proven bound. A question past ``--nodes`` nodes stops the deal.

First, ``--check`` positions of the first deal's four-piece table, with values up to 11
plies, are asked the same questions without the table: the prover's first "yes" must be
the table's value (its move generator against the retrograde solver's).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.ai import endgame  # noqa: E402
from companion.rules.cards import CARDS  # noqa: E402
from companion.rules.engine import Engine  # noqa: E402
from companion.rules.position import BLUE  # noqa: E402
from companion.rules.ways import new_referee  # noqa: E402

NATIVE = ROOT / "companion" / "ai" / "native"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def compile_prover(out: Path) -> None:
    subprocess.run([os.environ.get("CC", "gcc"), "-O3", "-std=gnu99", f"-I{NATIVE}", "-o", str(out),
                    str(ROOT / "benchmarks" / "opening_prover.c"), str(NATIVE / "endgame.c")], check=True)


def prove(prover: Path, reach_file: Path, students: int, plies: int, nodes: int,
          fields: tuple[int, ...]) -> list[str]:
    """The prover's lines for one position (card state, masters, students' masks)."""
    run = subprocess.run([str(prover), str(reach_file), str(students), str(plies), str(nodes),
                          *map(str, fields)], check=True, capture_output=True, text=True)
    return run.stdout.splitlines()


def first_result(lines: list[str]) -> int:
    """The table's convention from the prover's lines: the plies of the first forced win
    (odd) or loss (even) found, 0 for none within the plies."""
    for line in lines:
        words = line.split()
        if words[0] == "plies":
            if words[3] == "1":
                return int(words[1])
            if words[5] == "1":
                return int(words[1]) + 1
    return 0


def start_fields(seed: int) -> tuple[tuple[str, ...], tuple[int, ...], str]:
    """A dealt base game's cards (sorted, the table's order), its start position as
    ``endgame.c`` stores it (Red to move; turned when Blue moves first), and the deal in words."""
    ref = new_referee("base", seed=seed)
    st = Engine.state(ref.position())
    own, opp, mo, mp, _, color, ho, hp, side = st[:9]
    cards = tuple(sorted((*ho, *hp, *side)))
    layout = endgame.Layout(cards, 0)
    os_, ps = own & ~(1 << mo), opp & ~(1 << mp)
    if color == BLUE:
        mo, mp, os_, ps = 24 - mo, 24 - mp, endgame._turn(os_), endgame._turn(ps)
    hand = (1 << layout.number[ho[0]]) | (1 << layout.number[ho[1]])
    cs = layout.card_state[(hand, layout.number[side[0]])]
    mover = "Blue" if color == BLUE else "Red"
    words = f"{mover} moves first with {' + '.join(ho)}; the other side holds {' + '.join(hp)}; side {side[0]}"
    return cards, (cs, mo, mp, os_, ps), words


def check(prover: Path, tmp: Path, cards: tuple[str, ...], count: int, seed: int) -> bool:
    reach_file = tmp / "check.txt"
    reach_file.write_text(" ".join(map(str, endgame.reach(cards))))
    table = endgame.solve(cards, students=2)
    rng = random.Random(seed)
    wrong = 0
    kinds: dict[str, int] = {}
    for _ in range(count):
        while True:
            i = rng.randrange(table.layout.size)
            v = table.values[i]
            if v != endgame.INVALID and v <= 11:
                break
        found = first_result(prove(prover, reach_file, 0, 11, 10**9, table.layout.decode(i)))
        wrong += found != v
        kind = "no result within 11" if not v else "win" if v & 1 else "loss"
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"check on {', '.join(cards)}: {count - wrong} of {count} four-piece positions agree with the "
          f"table ({kinds})", flush=True)
    return wrong == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=11)
    parser.add_argument("--nodes", type=int, default=200_000_000)
    parser.add_argument("--students", type=int, default=3, choices=(0, 1, 2, 3, 4))
    parser.add_argument("--check", type=int, default=300)
    args = parser.parse_args(argv)
    print(load(), flush=True)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        prover = tmp / "opening_prover"
        compile_prover(prover)
        if args.check and not check(prover, tmp, start_fields(args.seed)[0], args.check, args.seed):
            print("THE PROVER DISAGREES WITH THE TABLE", flush=True)
            return 1
        for seed in range(args.seed, args.seed + args.deals):
            cards, fields, words = start_fields(seed)
            reach_file = tmp / "reach.txt"
            reach_file.write_text(" ".join(map(str, endgame.reach(cards))))
            wall = time.perf_counter()
            lines = prove(prover, reach_file, args.students, args.plies, args.nodes, fields)
            print(f"seed {seed}: {words} ({time.perf_counter() - wall:.0f} s wall)", flush=True)
            for line in lines:
                print(f"  {line}", flush=True)
    print(load(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A fast, repeatable slice of the tactics suite (``benchmarks/tactics.py`` runs the long
one): positions where the exact prover finds a forced win in N plies; ``hard``'s search
finds it within a node budget and plays a move that keeps it."""

import pytest

from companion.ai.search import Limits, Searcher, mate_in, search_state
from companion.ai.solve import Prover
from companion.rules.engine import Engine
from companion.rules.position import parse_position

# (position, N): made by benchmarks/tactics.py from random games, proved by the prover.
SUITE = [
    ("5/4r/bBb1r/5/b1R1r blue Rooster,Tiger Horse,Ox Mantis", 3),
    ("b2Bb/W1b2/4R/1br2/3rr blue Goose,Scorpion Ox,Mantis Spider", 3),
    ("4b/r4/3bB/3r1/1r2R blue Horse,Eel Rabbit,Crane Ox", 5),
    ("1WB1b/2bb1/br3/3r1/R4 blue Ox,Mantis Eagle,Spider Crab", 5),
    ("B1r1r/5/W1b2/1R3/5 red Elephant,Rhinoceros Crane,Spider Rooster", 7),
    ("2Bb1/bb1b1/5/R2rr/rr3 blue Rabbit,Horse Dragon,Crane Crab", 7),
]


@pytest.mark.parametrize("text,n", SUITE)
def test_hard_finds_the_forced_win(text, n):
    pos = parse_position(text)
    st = Engine.state(pos)
    prover = Prover(Engine(Searcher().cards))
    assert prover.shortest_win(st, n) == n          # the suite's claim, proved again
    result = Searcher().search(search_state(pos), Limits(nodes=60_000))
    assert mate_in(result.score) == n
    assert result.move[:6] in prover.winning_moves(st, n)

"""The types of the search's tuples (:mod:`companion.ai.search`).

The search works on the move generator's own state and move tuples
(``companion.rules.engine.State`` and ``EngineMove``), changed in two ways: the state's last
field holds both side stacks, ``(mover's stack, other's stack)``, and a Knowledge move has a
seventh field, the index of the card it takes. The generator's functions take these tuples as
they are (they read only the fields they share), so the search types them as tuples of any
fields: a field-by-field type would not match the generator's and would need a cast at every
call into it on the hot path.
"""

from typing import Any

# (own, opp, own_master, opp_master, spirit, colour, own_hand, opp_hand, (mine, theirs))
SearchState = tuple[Any, ...]
# (slot, from, to, spirit_from, spirit_to, wins[, take])
SearchMove = tuple[Any, ...]
# A transposition table entry: (depth, flag, score, best move)
TTEntry = tuple[int, int, int, SearchMove]

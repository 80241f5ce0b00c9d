"""What a Lantern held is worth to the Light Master: the option of spending it later.

A Lantern spent now saves the share of the ambush count its answer saves now
(:func:`~companion.ai.ambush.lantern`'s gain). A Lantern held can be spent at any later Lantern
phase, on what that phase offers; with the game lost or won first, never. So a Lantern is worth
spending when its gain now is at least what holding it is expected to save later, which depends
on how many Lanterns are left and how much of the game is: the last one is worth more than the
first, and both are worth less as the game goes on. Spent on any gain over a small floor (as
until session 36), the second Lantern went at the Light Master's 9th move on average in the
games it lost, about ten moves before its master was taken (docs/ai-strength.md, session 35).

Optimal stopping over the phases to come, with each later phase's best gain taken as a draw
from the gains the Light Master was offered in traced games (:data:`GAINS`), and the game going
on from one of its Lantern phases to the next as often as traced games did (:data:`GOING`):
with ``U[k][p]`` what ``k`` Lanterns held after the phase at ply ``p`` are expected to save,

    U[k][p] = P(a phase at p + 2 | one at p) * E[max(G + U[k - 1][p + 2], U[k][p + 2])],

and a Lantern is spent at ply ``p`` with ``k`` left when its gain is at least
``U[k][p] - U[k - 1][p]`` (:func:`bar`). The traces are the table's Light Master's
(``mild-spare20``, spending on a gain of 2 %) against the benchmarks' ``today`` on seeds
7100-7199 (``docs/ai-strength.md``, session 36); all inputs are public (the ply, the Lanterns
left), so twin worlds get the same bar.
"""

from __future__ import annotations

# The best Lantern's gain at the Light Master's 905 Lantern phases of the traced games (100, of
# which it won 47): (gain, share of the phases), by bins (under 0.25 %, 1 %, 2 %, 3 %, 5 %, 8 %,
# 12 %, 16 %, and over), each bin's mean gain.
GAINS = ((0.0001, 0.6829), (0.0059, 0.0707), (0.0146, 0.0652), (0.0254, 0.032), (0.0392, 0.0442),
         (0.0616, 0.0519), (0.096, 0.0232), (0.1421, 0.0144), (0.2114, 0.0155))
# The share of the traced games going on from a Lantern phase at ply 2 * i to the next (the
# Light Master's Lantern phases are at even plies), for the first plies; after them, TAIL's (the
# games' plies from 16 on pooled).
ON = (1.0, 0.99, 0.97, 0.958, 0.967, 0.989, 0.955, 0.952)
TAIL = 0.9
# The phases looked ahead: the benchmarks' games stop at 200 plies.
HORIZON = 100


def _bars() -> tuple[tuple[float, ...], tuple[float, ...]]:
    """For one and two Lanterns left, the least gain to spend one at each even ply (by ply // 2)."""
    n = HORIZON
    held = [[0.0] * (n + 1) for _ in range(3)]      # held[k][i]: U[k] after the phase at ply 2 * i
    for i in range(n - 1, -1, -1):
        on = ON[i] if i < len(ON) else TAIL
        for k in (1, 2):
            spend, keep = held[k - 1][i + 1], held[k][i + 1]
            held[k][i] = on * sum(share * max(g + spend, keep) for g, share in GAINS)
    return (tuple(held[1][i] - held[0][i] for i in range(n)),
            tuple(held[2][i] - held[1][i] for i in range(n)))


BARS = _bars()


def bar(left: int, ply: int) -> float:
    """The least gain for which the Light Master spends one of its ``left`` Lanterns at ``ply``
    (what holding it is expected to save later)."""
    if left <= 0:
        return 0.0
    row = BARS[min(left, 2) - 1]
    return row[min(ply // 2, len(row) - 1)]

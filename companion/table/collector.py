"""The cyclic garbage collector, run by the game thread between its events.

Left to itself, the collector runs inside whichever call's allocations cross its threshold: on
the game thread that is a scan's recognizer call, which pays a young pass (about 0.1 ms) or a
generation-1 pass (about 0.7 ms, a third of the recognizer's p99 per call; a full one more).
The service turns the automatic collector off once its start-up is frozen (``take_over``), and
the game thread runs the pass that is due after each event it has handled (``collect_due``),
between the recognizer's calls: the same passes by the same thresholds, the same work, at a
moment nothing waits on (docs/recognizer-hypotheses.md, session 39). The collector only finds
reference cycles (everything else is freed by its reference count at once), so a pass that
comes a few events later than it would have frees the same objects a little later.
"""

from __future__ import annotations

import gc


def take_over() -> None:
    """From now on the collector runs only when ``collect_due`` runs it."""
    gc.disable()


def collect_due() -> int | None:
    """Run the pass the automatic collector would run now (by ``gc.get_threshold``): the
    oldest generation whose count is over its threshold, once the youngest's is; the
    generation collected, or None when no pass is due. (CPython's own full pass also waits
    for a quarter of the long-lived objects to be new; with the start-up frozen, the heap a
    full pass scans is what the game made.)"""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    if counts[0] <= thresholds[0]:
        return None
    generation = 2 if counts[2] > thresholds[2] else 1 if counts[1] > thresholds[1] else 0
    gc.collect(generation)
    return generation

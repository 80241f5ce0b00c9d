"""The native search core: C through cffi (``core.c``, built by ``build.py``), wrapped as a
:class:`companion.ai.search.Searcher` that gives the Python search's moves, scores and node
counts, faster. Without the compiled module everything runs on the Python search."""

from .searcher import NativeSearcher, available, new_searcher

__all__ = ["NativeSearcher", "available", "new_searcher"]

"""Python's cycle collector paused while kg makes many objects that hold no cycles.

Resolution (``kg.resolve``) and reading a store's answer back (``kg.remote.load``) use it.

Resolution makes hundreds of thousands of small objects (name groups, cues, keys, counters)
beside the corpus's extractions, and almost none of them in reference cycles: reference
counting frees them. The cycle collector still runs every few hundred allocations and, now
and then, walks every object alive — the extractions of every article included — and on the
whole BBC corpus pausing it took resolution from 10.81 to 9.09 s of CPU, and from 11.57 to
10.83 s in another round (``bench/RESULTS.md``), leaving 126 objects in cycles for later
collections, with the same peak memory (352 → 353 MiB).

>>> import gc
>>> with cycles_uncollected():
...     inside = gc.isenabled()
>>> inside, gc.isenabled()
(False, True)
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycles_uncollected() -> Iterator[None]:
    """The block run with the cycle collector off, and on again after it if it was on (a
    collection is then due at the next allocations, as before: nothing is lost, only
    deferred)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

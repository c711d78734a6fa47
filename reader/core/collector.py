"""Python's cyclic garbage collector, paused while big data is made."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic garbage collection inside: loading or importing a catalogue makes
    hundreds of thousands of objects (parsed JSON, Papers) and no cycles, and each
    of the collector's passes over them would be wasted (seconds at 100k papers).
    Reference counting still frees everything. Nests: the outermost restores."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

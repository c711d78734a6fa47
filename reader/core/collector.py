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


#: whether hold() stopped the collector (and release() is to restart it)
_held = False


def hold() -> None:
    """Stop the collector until release(): the window's start-up (some 60 modules
    imported, then the widgets built) makes objects that live as long as the program,
    and the collector's full passes over them cost ~15 ms before the first paint."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """Restart the collector if hold() stopped it (a no-op otherwise)."""
    global _held
    if _held:
        _held = False
        gc.enable()

"""Work done a step at a time: a generator yields between its steps and returns what
it made, so that the window can take a step per event-loop turn."""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any, TypeVar

T = TypeVar("T")


def run_steps(
    steps: Generator[Any, None, T], deadline: float | None = None
) -> tuple[bool, T | None]:
    """Take `steps` until they are done, (True, what they return), or until `deadline`
    (time.perf_counter()) has passed after a step, (False, None): call again to go on."""
    try:
        while True:
            next(steps)
            if deadline is not None and time.perf_counter() > deadline:
                return False, None
    except StopIteration as done:
        return True, done.value

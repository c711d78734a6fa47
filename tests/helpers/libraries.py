"""Libraries as the tests open them."""

from pathlib import Path

from reader.core.library import Library
from reader.opening import open_library


def fresh(library_dir: Path) -> Library:
    """The library in `library_dir` as a program opening it now sees it."""
    return open_library(library_dir).library

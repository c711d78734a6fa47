"""PySide6's import hook is told about our modules instead of reading their sources."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reader.ui.import_hook import our_modules, uses_qt

REPO = Path(__file__).parents[2]

# a fresh interpreter: spy on the hook's source reads, then start as the program does
SPY = """
import inspect, sys
read = []
real = inspect.getsource
def spy(obj):
    read.append(getattr(obj, "__name__", "?"))
    return real(obj)
inspect.getsource = spy
before = set(sys.modules)
import reader.ui  # imports PySide6, whose own start-up the hook sees before we can answer
start = len(read)
import reader.ui.app, reader.core.index, reader.render.notes  # window, then search, then notes
import markdown  # not ours, loaded after PySide6: the hook still reads it
ours = [n for n in read if n == "reader" or n.startswith("reader.")]
assert not ours, ours
early = sorted(set(read[start:]) & before)
assert not early, early
assert "markdown" in read, read
from shibokensupport.feature import pyside_feature_dict as table
assert table["reader.ui.sidebar"] == 0 and table["reader.core.index"] == -1, table
"""


def test_the_hook_reads_none_of_our_sources_nor_those_loaded_before_pyside():
    from reader.ui.import_hook import spare_source_reads

    if not spare_source_reads():
        pytest.skip("this PySide6 keeps no table of modules: its hook reads sources as it will")
    subprocess.run([sys.executable, "-c", SPY], check=True, cwd=REPO)


def test_our_modules_are_found_by_listing_folders():
    names = our_modules(REPO / "reader")
    assert {
        "reader",
        "reader.ui",
        "reader.ui.app",
        "reader.core.index",
        "reader.store.journal",
        "reader.formats.bibtex",
        "reader.cli",
        "reader.ui.import_hook",
    } <= set(names)
    assert not [n for n in names if "__" in n or n.endswith(".py")]
    assert len(names) == len(set(names))


def test_only_the_window_package_counts_as_using_qt():
    assert uses_qt("reader.ui") and uses_qt("reader.ui.sidebar")
    assert not uses_qt("reader.core.index") and not uses_qt("reader.uix") and not uses_qt("reader")

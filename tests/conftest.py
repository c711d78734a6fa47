"""Headless and isolated: offscreen Qt, a fresh temporary library per test."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.pop("READER_DATA_DIR", None)
# every test program is one device (its files: devices/this-device/), never one made
# in ~/.config; tests of several devices name theirs
os.environ["READER_DEVICE_ID"] = "this-device"
# the command line speaks English whatever the machine's locale (reader.language: LANGUAGE
# comes first); tests of other languages set theirs
os.environ["LANGUAGE"] = "en"
# the catalogue's and the search's indexes go to a throwaway folder, never ~/.cache
os.environ["READER_CACHE_DIR"] = tempfile.mkdtemp(prefix="reader-test-cache-")

import pytest
from hypothesis import settings

# CI tries the same examples on every run (one newly found there would block a change
# that has nothing to do with it); a developer's `make test` goes on exploring
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def qapp_args(pytestconfig):
    """The program's own Qt arguments (reader.ui.app.make_qapplication): the tests see
    the Fusion style the program has."""
    from reader.ui.app import QT_ARGS

    return [pytestconfig.getini("qt_qapp_name"), *QT_ARGS]


@pytest.fixture
def library_dir(tmp_path: Path) -> Path:
    """An empty folder for a library (seeded on first open)."""
    return tmp_path / "library"


@pytest.fixture
def opened(library_dir: Path):
    from reader.opening import open_library

    return open_library(library_dir)


@pytest.fixture
def library(opened):
    return opened.library


@pytest.fixture
def two(library_dir: Path):
    """Two libraries on one folder, as two programs would have it open: (a, b, the ids)."""
    from tests.helpers.libraries import fresh

    a = fresh(library_dir)
    b = fresh(library_dir)
    return a, b, a.paper_ids()


@pytest.fixture
def computers(tmp_path: Path) -> dict[str, Path]:
    """Two computers with the same seeded library (each its own copy of the folder, as
    a file syncer keeps them): {device: folder}."""
    import shutil

    from reader.opening import open_library

    first = tmp_path / "laptop"
    open_library(first).folder.close()
    second = tmp_path / "desktop"
    shutil.copytree(first, second)
    return {"laptop": first, "desktop": second}


@pytest.fixture
def run(library_dir, capsys):
    """Run the command line in-process on `library_dir`; `expect` is the exit code."""
    from reader.cli import main

    def run(*args, expect=0):
        argv = ["--data-dir", str(library_dir), *args]
        if expect:
            with pytest.raises(SystemExit) as info:
                main(argv)
            assert info.value.code == expect
        else:
            assert main(argv) == 0
        return capsys.readouterr()

    return run

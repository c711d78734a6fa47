"""Libraries as the tests open them."""

from pathlib import Path

from reader.core.library import Library
from reader.opening import open_library


def fresh(library_dir: Path) -> Library:
    """The library in `library_dir` as a program opening it now sees it."""
    return open_library(library_dir).library


#: the device every test program is (tests/conftest.py sets READER_DEVICE_ID)
DEVICE = "this-device"


def own_file(folder: Path, name: str = "annotations.json") -> Path:
    """The file `name` of this device's own folder in the library `folder`
    (devices/this-device/: annotations.json, annotations.journal, ...)."""
    return folder / "devices" / DEVICE / name


def own_backups(folder: Path) -> Path:
    """This device's backups folder in the library `folder`."""
    return folder / "backups" / DEVICE


class MemoryStore:
    """A library store that keeps everything in memory (nothing saved): for tests of
    what reads a Library, not of its files."""

    def __init__(self, papers, annotations=()):
        self.papers = list(papers)
        self.annotations = {a.paper_id: a for a in annotations}

    def load_papers(self):
        return list(self.papers)

    def load_annotations(self):
        return dict(self.annotations)

    def write_annotations(self, changes):
        pass

    def add_papers(self, papers):
        pass

    def reload_annotations(self):
        return None

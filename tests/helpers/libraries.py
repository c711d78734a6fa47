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


def catalogue_files(folder: Path) -> dict[str, bytes]:
    """Every device's catalogue files in the library `folder`, by name: their bytes."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.glob("devices/*/papers/*.jsonl"))
    }


def catalogue_ids(folder: Path) -> list[str]:
    """The ids of the papers in the catalogue files of `folder`, file by file, in order."""
    import json

    ids = []
    for raw in catalogue_files(folder).values():
        ids += [json.loads(line)["id"] for line in raw.splitlines()[1:]]
    return ids

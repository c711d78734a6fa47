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

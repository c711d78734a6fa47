"""Spare PySide6's import hook from reading our sources.

Once PySide6 is imported, its hook on `__import__` asks of every module it has not
seen yet, the first time any import statement names it, whether the module's source
mentions "PySide6" (`inspect.getsource`, so the whole file is read and split into
lines), and keeps the answer in a table: 0 for a module that uses PySide, -1 for one
that does not. The answer only matters to a module that selects PySide features
(`from __feature__ import snake_case`), and none of ours or of our dependencies does.

At start-up that was 44 files before the first paint (typing and pathlib among
them), about 6 ms, and more at the first search and the first note. We fill in the
table ourselves: -1 (no PySide, so no feature selection) for every module loaded
before PySide6, and for our own package what our layering rule says (only
`reader.ui` uses Qt). Either answer leaves a module without feature selections as it
was; the hook still asks about everything else.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE = "reader"
#: the only part of our package that imports Qt (tests/unit/test_layers.py)
QT_PACKAGE = "reader.ui"


def our_modules(root: Path, package: str = PACKAGE) -> list[str]:
    """The dotted names of the modules and packages under `root` (our package's
    folder), found by listing folders, not by importing."""
    names = [package]
    with os.scandir(root) as entries:
        for entry in entries:
            if entry.name.startswith(("_", ".")):
                continue
            if entry.is_dir() and os.path.isfile(os.path.join(entry.path, "__init__.py")):
                names += our_modules(Path(entry.path), f"{package}.{entry.name}")
            elif entry.name.endswith(".py"):
                names.append(f"{package}.{entry.name[:-3]}")
    return names


def uses_qt(name: str) -> bool:
    return name == QT_PACKAGE or name.startswith(QT_PACKAGE + ".")


def spare_source_reads() -> bool:
    """Fill PySide's table of modules (imports PySide6.QtCore). False when this
    PySide keeps no such table: its hook then reads our sources as before."""
    import PySide6.QtCore  # noqa: F401  (installs the hook and makes its table)

    feature = sys.modules.get("shibokensupport.feature")
    table = getattr(feature, "pyside_feature_dict", None)
    if not isinstance(table, dict):
        return False
    try:
        ours = our_modules(Path(__file__).resolve().parent.parent)
    except OSError:  # (not a folder of files: a zipped or frozen install)
        return False
    for name in ours:
        table.setdefault(name, 0 if uses_qt(name) else -1)
    for name in list(sys.modules):
        table.setdefault(name, -1)
    return True

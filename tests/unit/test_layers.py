"""Qt stays at the edge: the domain, store, formats and render load no PySide6."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "package",
    [
        "reader.core",
        "reader.store",
        "reader.formats",
        "reader.render",
        "reader.cli",
        "reader.opening",
    ],
)
def test_imports_without_qt(package):
    code = (
        "import importlib, pkgutil, sys\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.walk_packages(getattr(pkg, '__path__', []), pkg.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6')))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_core_depends_on_nothing_of_ours():
    code = (
        "import importlib, pkgutil, sys, reader.core as pkg\n"
        "for m in pkgutil.walk_packages(pkg.__path__, 'reader.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules\n"
        "             if m.startswith('reader.') and not m.startswith('reader.core'))\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)

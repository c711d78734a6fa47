"""The window: Qt lives here and only here."""

# The window's modules that do not use Qt are imported here, before the window's
# modules import PySide6: once PySide6 is imported, its import hook reads the source
# of every module imported after it (looking for `from __feature__ import ...`), about
# 0.4 ms a module, some 60 modules at start-up. (Where PySide6 is imported first, as
# in bench/run.py, this changes nothing.)
import reader.core.facets
import reader.core.index
import reader.core.sorting
import reader.core.tex
import reader.opening
import reader.render
import reader.store.search_cache
import reader.store.spill  # noqa: F401

"""The window: Qt lives here and only here."""

# The window's modules that do not use Qt are imported here, before the window's
# modules import PySide6: once PySide6 is imported, its import hook reads the source
# of every module it has not seen yet (looking for `from __feature__ import ...`),
# about 0.15 ms a module. (The search, reader.core.index and its modules, is imported
# after the first paint: see reader.ui.sidebar.) The same holds for what opening the
# library imports as it runs (orjson, with uuid and platform; platformdirs for the
# device id) and for what the window's modules import beside PySide6 (html,
# reader.language).
import html  # noqa: F401

import orjson  # noqa: F401
import platformdirs  # noqa: F401

import reader.core.facets
import reader.core.sorting
import reader.core.tex
import reader.language
import reader.opening
import reader.render
import reader.ui.resources  # noqa: F401  (no Qt until it is asked for an icon)

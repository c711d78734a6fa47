"""Where the library lives: --data-dir, then READER_DATA_DIR, then the user data dir."""

from __future__ import annotations

import functools
import os
from pathlib import Path

ENV_VAR = "READER_DATA_DIR"
APP_NAME = "paper-reader"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The library folder to use. Nothing is created here."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


@functools.cache  # a search of the import path: the style sheets and icon ask for it in turn
def package_folder(package: str, source_folder: str) -> Path:
    """A data folder shipped inside the installed package as `package` (see
    pyproject.toml), or the top-level `source_folder` of a source checkout."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parents[1] / source_folder


def bundled_sample() -> Path:
    """The ICML 2025 sample shipped inside the package."""
    return package_folder("reader.data", "data") / "seed_papers.json"

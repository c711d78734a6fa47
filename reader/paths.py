"""Where the library lives: --data-dir, then READER_DATA_DIR, then the user data dir."""

from __future__ import annotations

import functools
import os
import stat
import sys
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


def _is_private(folder: Path) -> bool:
    """A directory of this user's that no one else may enter or write."""
    try:
        st = os.stat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def runtime_dir() -> Path | None:
    """A folder only this user can use, for the window's local socket (POSIX only).

    `$XDG_RUNTIME_DIR` (`$TMPDIR` on macOS, a per-user folder there) if it is a directory
    of this user's with no access for others, else `paper-reader/run` in the user cache
    dir, created with mode 0700. None when that folder exists but belongs to someone else
    or is open to others (or cannot be made): then there is no private place at all.
    """
    shared = os.environ.get("TMPDIR" if sys.platform == "darwin" else "XDG_RUNTIME_DIR")
    if shared and os.path.isabs(shared) and _is_private(Path(shared)):
        return Path(shared)
    import platformdirs

    own = Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "run"
    try:
        own.parent.mkdir(parents=True, exist_ok=True)
        own.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    return own if _is_private(own) else None

"""Before the window opens on Linux/X11: one line naming what Qt's xcb plugin would lack."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from reader.cli_lang import _

#: runs `ldd` on the files and gives its standard output, or None if it could not run
Runner = Callable[[Sequence[Path]], str | None]

LDD_TIMEOUT = 5.0  # seconds; ~10 ms is usual

#: soname -> the Debian/Ubuntu package that has it (checked with `dpkg -S` or `apt-cache show` on
#: Debian 12): every library that Qt's xcb plugin, libQt6XcbQpa and libQt6Gui load
#: from the system; the first block is the one a minimal install tends to lack
PACKAGES: Mapping[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libexpat.so.1": "libexpat1",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
    "libbrotlidec.so.1": "libbrotli1",
    "libbrotlicommon.so.1": "libbrotli1",
    "libpcre2-8.so.0": "libpcre2-8-0",
    "libbsd.so.0": "libbsd0",
    "libmd.so.0": "libmd0",
    "libsystemd.so.0": "libsystemd0",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)


def no_display_message(env: Mapping[str, str]) -> str:
    if env.get("QT_QPA_PLATFORM"):
        why = _("QT_QPA_PLATFORM={platform} needs DISPLAY, which is not set").format(
            platform=env["QT_QPA_PLATFORM"]
        )
    else:
        why = _("neither DISPLAY nor WAYLAND_DISPLAY is set")
    return _(
        "paper-reader: there is no display to open the window on ({why}). Run it inside a"
        " desktop session, or for headless use set QT_QPA_PLATFORM=offscreen; the"
        " sub-commands (paper-reader --help) need no display."
    ).format(why=why)


def uses_xcb(env: Mapping[str, str], platform: str) -> bool:
    """Whether Qt would open the window through its xcb (X11) plugin alone: on Linux
    with QT_QPA_PLATFORM unset or naming only xcb. Qt tries Wayland first when
    WAYLAND_DISPLAY or XDG_SESSION_TYPE=wayland is set, so then xcb is not needed."""
    if not platform.startswith("linux"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "")
    if chosen:
        names = {part.split(":", 1)[0].strip() for part in chosen.split(";")}
        return names == {"xcb"}
    return not env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE", "") != "wayland"


def qt_folder() -> Path | None:
    """PySide6's bundled Qt folder, found without importing Qt."""
    try:
        spec = importlib.util.find_spec("PySide6")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "Qt"


def xcb_files(qt: Path) -> list[Path]:
    """The xcb platform plugin and the libQt6XcbQpa library beside Qt's other libraries
    (none: a PySide6 that uses the system's Qt, which its packages bring in)."""
    plugin = qt / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return []
    return [plugin, *sorted((qt / "lib").glob("libQt6XcbQpa.so*"))[:1]]


def run_ldd(files: Sequence[Path]) -> str | None:
    try:
        done = subprocess.run(
            ["ldd", *map(str, files)],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=LDD_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames that `ldd` reported as "=> not found", each once, in order."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def package_for(soname: str) -> str:
    """The Debian/Ubuntu package that provides `soname` (the soname itself if unknown)."""
    return PACKAGES.get(soname, soname)


def missing_message(missing: Iterable[str], *, has_apt: bool = True) -> str:
    sonames = list(missing)
    line = _("paper-reader: the window needs system libraries that are missing: {names}.")
    line = line.format(names=", ".join(sonames))
    packages = " ".join(dict.fromkeys(PACKAGES[s] for s in sonames if s in PACKAGES))
    if packages:
        line += (
            _(" Install them with: sudo apt-get install {packages}")
            if has_apt
            else _(" Install the packages that provide them (on Debian/Ubuntu: {packages})")
        ).format(packages=packages)
    unknown = ", ".join(s for s in sonames if s not in PACKAGES)
    if unknown:
        where = "apt-file search" if has_apt else _("your distribution's package search")
        line += (
            _("; find the package of {names} with {where}")
            if packages
            else _(" Find the package of {names} with {where}")
        ).format(names=unknown, where=where)
    return line


def check(
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    qt: Path | None = None,
    runner: Runner = run_ldd,
) -> str | None:
    """One line telling why the window cannot open, or None (also whenever unsure)."""
    env = os.environ if env is None else env
    if not uses_xcb(env, sys.platform if platform is None else platform):
        return None
    if not env.get("DISPLAY"):
        return no_display_message(env)
    if env.get("QT_QPA_PLATFORM_PLUGIN_PATH"):
        return None  # Qt loads its platform plugins from elsewhere
    qt = qt_folder() if qt is None else qt
    files = xcb_files(qt) if qt is not None else []
    if not files:
        return None
    output = runner(files)
    missing = missing_libraries(output) if output else []
    if not missing:
        return None
    return missing_message(missing, has_apt=shutil.which("apt-get") is not None)

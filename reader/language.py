"""Which language the program speaks: English or Simplified Chinese.

No Qt here: the command line decides its language the same way as the window. The order
is the one a user expects: `--lang`, then what View -> Language remembered for the
library folder (its window.ini), then the system's locale, then English.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

#: code -> the language's name in itself (as the View -> Language menu shows it)
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}

#: the key in the library folder's window.ini ([General]) where View -> Language
#: remembers the choice ("" or absent: follow the system)
LANGUAGE_KEY = "language"

#: the window's settings file inside the library folder (reader.ui.settings.SETTINGS_FILE)
_SETTINGS_FILE = "window.ini"
#: window.ini holds a few hundred bytes of window state; a bigger one is not ours to read
_MAX_SETTINGS_BYTES = 1 << 20

#: Chinese written in Traditional characters: not what zh_CN is
_TRADITIONAL = {"hant", "tw", "hk", "mo"}


def normalise(name: str | None) -> str | None:
    """The code in LANGUAGES that a locale or language name means, or None.

    'zh_CN', 'zh-CN', 'zh_CN.UTF-8', 'zh', 'zh_Hans_CN', 'zh-Hans' -> 'zh_CN';
    'en', 'en_US.UTF-8', 'C', 'POSIX' -> 'en'; anything else (or None/'') -> None.
    """
    if not name:
        return None
    # language[_territory][.codeset][@modifier], with '-' as well as '_' between parts
    base = name.strip().split(".", 1)[0].split("@", 1)[0]
    parts = [part.lower() for part in base.replace("-", "_").split("_")]
    if not parts[0]:
        return None
    if parts[0] in ("c", "posix") and len(parts) == 1:
        return "en"
    if parts[0] == "en":
        return "en"
    if parts[0] == "zh" and not _TRADITIONAL.intersection(parts[1:]):
        return "zh_CN"
    return None


def from_environment(env: Mapping[str, str] = os.environ) -> str:
    """The language the environment asks for, in POSIX order.

    LANGUAGE (the first of its ':' list that normalises), then LC_ALL, LC_MESSAGES, LANG:
    the first of these set decides; 'en' when none is set or none is known.
    """
    for wanted in env.get("LANGUAGE", "").split(":"):
        code = normalise(wanted)
        if code is not None:
            return code
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if value:
            return normalise(value) or "en"
    return "en"


def remembered(folder: Path) -> str | None:
    """What View -> Language chose for the library folder `folder`, or None.

    Its window.ini read with configparser ([General], LANGUAGE_KEY); None if absent,
    unreadable, empty or unknown. Never raises.
    """
    try:
        with open(Path(folder) / _SETTINGS_FILE, "rb") as file:
            data = file.read(_MAX_SETTINGS_BYTES + 1)
    except (OSError, ValueError):
        return None
    if len(data) > _MAX_SETTINGS_BYTES or LANGUAGE_KEY.encode() not in data:
        return None  # (most often: configparser, ~1 ms of the start, is not needed)
    import configparser

    try:
        parser = configparser.ConfigParser(interpolation=None, strict=False)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read_string(data.decode("utf-8", errors="replace"))
        value = parser.get("General", LANGUAGE_KEY, fallback="")
    except (OSError, ValueError, configparser.Error):
        return None
    # QSettings quotes a string it would otherwise not read back the same
    return normalise(value.strip().strip('"'))


def resolve(explicit: str | None, folder: Path | None, system: str | None = None) -> str:
    """The language to use.

    `explicit` (--lang) if it normalises, then remembered(folder), then `system` (the
    window passes QLocale.system().name()), then from_environment().
    """
    code = normalise(explicit)
    if code is None and folder is not None:
        code = remembered(folder)
    if code is None:
        code = normalise(system)
    return code if code is not None else from_environment()

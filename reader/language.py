"""TEMPORARY stand-in for the CLI helper's reader/language.py (branch i18n-cli); deleted
when that branch is merged. Same interface (see the shared lang_interface)."""

from __future__ import annotations

import configparser
import os
from collections.abc import Mapping
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}
LANGUAGE_KEY = "language"


def normalise(name: str | None) -> str | None:
    if not name:
        return None
    base = name.split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if base in ("C", "POSIX"):
        return "en"
    parts = base.split("_")
    if parts[0].lower() == "en":
        return "en"
    if parts[0].lower() == "zh" and all(p.upper() in ("CN", "HANS", "SG") for p in parts[1:]):
        return "zh_CN"
    return None


def from_environment(env: Mapping[str, str] = os.environ) -> str:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            for part in value.split(":") if name == "LANGUAGE" else [value]:
                code = normalise(part)
                if code:
                    return code
            if name != "LANGUAGE":
                return "en"
    return "en"


def remembered(folder: Path) -> str | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read(Path(folder) / "window.ini", encoding="utf-8")
        return normalise(parser.get("General", LANGUAGE_KEY, fallback=None))
    except (OSError, configparser.Error, UnicodeDecodeError):
        return None


def resolve(explicit: str | None, folder: Path | None, system: str | None = None) -> str:
    return (
        normalise(explicit)
        or (remembered(folder) if folder is not None else None)
        or normalise(system)
        or from_environment()
    )

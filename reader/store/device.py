"""This device's id: one user account on one computer, kept outside the library folder.

Each device writes only files of its own inside the library folder
(`devices/<id>/`), so a file syncer never sees two computers write one file. The
id is made once (the host's name and random hex) and kept in the user's config
folder; READER_DEVICE_ID overrides it (tests, or two "devices" on one computer).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

ENV_VAR = "READER_DEVICE_ID"
DEVICES_DIR = "devices"
_VALID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def valid(name: str) -> bool:
    """Whether `name` can be a device id (a plain folder name: no dots, no slashes)."""
    return _VALID.fullmatch(name) is not None


def _config_file() -> Path:
    import platformdirs

    # (reader.paths.APP_NAME: the store stays below the program)
    return Path(platformdirs.user_config_dir("paper-reader", appauthor=False)) / "device.json"


def _new_id() -> str:
    import secrets  # (once per device: hmac and OpenSSL take ~3 ms to load, socket ~2)
    import socket

    host = re.sub(r"[^A-Za-z0-9-]+", "-", socket.gethostname()).strip("-")[:24] or "device"
    return f"{host}-{secrets.token_hex(4)}"


def device_id() -> str:
    """This device's id: READER_DEVICE_ID, else the one kept in the config folder
    (made and kept there the first time). A config folder that cannot be written
    gives an id for this run only (edits are still kept: under that id)."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        if not valid(env):
            raise ValueError(f"{ENV_VAR}={env!r}: a device id is letters, digits, - and _")
        return env
    path = _config_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        known = data.get("id") if isinstance(data, dict) else None
        if isinstance(known, str) and valid(known):
            return known
    except (OSError, ValueError):
        pass
    made = _new_id()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(path.name + ".tmp")
        temp.write_text(json.dumps({"id": made}) + "\n", encoding="utf-8")
        os.replace(temp, path)
    except OSError:
        pass
    return made

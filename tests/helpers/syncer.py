"""A file syncer between library folders, as Syncthing or Dropbox would carry them.

Each computer has its own copy of the library folder; `sync(src, dst)` copies what
`src` holds of the other devices' folders (`devices/<id>/`) to `dst`, newest
version first (by the modification time the owner gave the file: copy2 keeps it),
never a device's own files back onto that device. It can also misbehave the ways
real syncers do: leave a file half copied, or write it as a conflict copy beside
the one there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Collection
from pathlib import Path

DEVICES = "devices"


def device_files(folder: Path) -> dict[tuple[str, str], Path]:
    """(device, file name) -> path of every file in a library's device folders, and
    of their catalogue files ("papers/000001.jsonl")."""
    out = {}
    root = folder / DEVICES
    if not root.is_dir():
        return out
    for device in sorted(os.listdir(root)):
        for name in sorted(os.listdir(root / device)):
            path = root / device / name
            if path.is_file():
                out[(device, name)] = path
        papers = root / device / "papers"
        if papers.is_dir():
            for name in sorted(os.listdir(papers)):
                if (papers / name).is_file():
                    out[(device, f"papers/{name}")] = papers / name
    return out


def sync(
    src: Path,
    dst: Path,
    *,
    owner: str,
    half: Collection[tuple[str, str]] = (),
    conflict: Collection[tuple[str, str]] = (),
) -> list[tuple[str, str]]:
    """Copy to `dst` (the folder of device `owner`) the files of other devices that
    `src` has newer; those named in `half` are left half written (in place, as a
    syncer writing straight into the file would), those in `conflict` are written
    as a Syncthing conflict copy beside the file there. What was copied."""
    copied = []
    there = device_files(dst)
    for key, path in device_files(src).items():
        device, name = key
        if device == owner:
            continue  # the owner's own files are newest on the owner's computer
        target = dst / DEVICES / device / name
        old = there.get(key)
        if old is not None and os.stat(old).st_mtime_ns >= os.stat(path).st_mtime_ns:
            continue
        if old is not None and old.read_bytes() == path.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if key in half:
            raw = path.read_bytes()
            target.write_bytes(raw[: len(raw) // 2])
            os.utime(target, ns=(0, 0))  # older than any: the next sync completes it
        elif key in conflict and old is not None:
            stem, dot, ext = target.name.partition(".")
            shutil.copy2(
                path, target.with_name(f"{stem}.sync-conflict-20261203-101010-ABCDEFG.{ext}")
            )
        else:
            temp = target.with_name(f".syncthing.{target.name}.tmp")
            shutil.copy2(path, temp)
            os.replace(temp, target)
        copied.append(key)
    return copied


def full_sync(folders: dict[str, Path]) -> None:
    """Every computer gets every other's files, newest version (twice round: files
    relayed through a third computer arrive too)."""
    for _ in range(2):
        for owner, dst in folders.items():
            for src_owner, src in folders.items():
                if src_owner != owner:
                    sync(src, dst, owner=owner)

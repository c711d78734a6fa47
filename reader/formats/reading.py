"""Reading an import file, bounded: a regular file only, no bigger than a limit, never blocking.

A paper list is untrusted input, and so is its path: a FIFO named `papers.json` would
block an open() forever, a symlink to /dev/zero or /dev/urandom would be read until memory
runs out, a sparse file claims terabytes. What is not a regular file is refused by its kind
before it is opened, and again on the descriptor itself once opened (the path may have been
swapped meanwhile), so no open can block (O_NONBLOCK) and no device is read; a file over
the size limit is refused before a byte is read, and one that grows past it while being read
is refused as soon as it does. The file is read in chunks, asking `cancelled()` between them.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

from reader.core import say
from reader.formats.common import FormatError, display_name

#: the largest file an import reads unless told otherwise (1 GiB)
DEFAULT_MAX_BYTES = 1 << 30
#: the environment variable that sets the limit (as --max-size does on the command line)
MAX_SIZE_ENV = "READER_MAX_IMPORT_SIZE"
#: how much is read between two looks at cancelled()
CHUNK_BYTES = 4 << 20

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", re.IGNORECASE)


class ReadCancelled(Exception):
    """cancelled() said so while the file was being read."""


def parse_size(text: str) -> int:
    """Bytes from "1073741824", "512M", "1.5G", "2GiB", "100 kB" (powers of 1024).
    ValueError for anything else, or for no bytes at all."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (for example 500M, 2G or 1048576)")
    size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if size <= 0:
        raise ValueError(f"not a size: {text!r} (it must be more than 0 bytes)")
    return size


def format_size(size: int) -> str:
    """1073741824 -> "1 GiB", 1536 -> "1.5 KiB", 100 -> "100 bytes"."""
    for unit, factor in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor:
            return f"{size / factor:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} byte" + ("" if size == 1 else "s")


def max_import_bytes(environ: os._Environ[str] | dict[str, str] | None = None) -> int:
    """The size limit: $READER_MAX_IMPORT_SIZE if set (and valid), else DEFAULT_MAX_BYTES.
    ValueError (naming the variable) for a value that is not a size."""
    value = (os.environ if environ is None else environ).get(MAX_SIZE_ENV, "").strip()
    if not value:
        return DEFAULT_MAX_BYTES
    try:
        return parse_size(value)
    except ValueError as exc:
        raise ValueError(f"${MAX_SIZE_ENV}: {exc}") from None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return say._("a folder")
    if stat.S_ISFIFO(mode):
        return say._("a FIFO (named pipe)")
    if stat.S_ISCHR(mode):
        return say._("a character device")
    if stat.S_ISBLK(mode):
        return say._("a block device")
    if stat.S_ISSOCK(mode):
        return say._("a socket")
    return say._("not a regular file")


def _cannot_read(shown: str, exc: OSError) -> str:
    return say._("{name}: cannot read: {error}").format(name=shown, error=exc.strerror or exc)


def _refuse(shown: str, mode: int, size: int, limit: int) -> None:
    if not stat.S_ISREG(mode):
        why = say._("{name}: cannot read: {kind}, not a regular file")
        raise FormatError(why.format(name=shown, kind=_kind(mode)))
    if size > limit:
        why = say._(
            "{name}: not read: {size}, over the import limit of {limit} (set a larger one"
            " with --max-size or ${variable})"
        )
        size_text, limit_text = format_size(size), format_size(limit)
        raise FormatError(
            why.format(name=shown, size=size_text, limit=limit_text, variable=MAX_SIZE_ENV)
        )


_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in after the check: open() returns
    | getattr(os, "O_NOCTTY", 0)  # a terminal never becomes ours
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def read_bounded(
    path: Path | str,
    *,
    limit: int | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them (None: the
    configured limit, max_import_bytes()). FormatError (one line naming the file) for
    what is not a regular file, a file over the limit, or a read that fails;
    ReadCancelled when `cancelled()` turns true between two chunks."""
    shown = display_name(str(path))
    if limit is None:
        try:
            limit = max_import_bytes()
        except ValueError as exc:
            why = say._("{name}: not read: {error}")
            raise FormatError(why.format(name=shown, error=exc)) from None
    try:
        before = os.stat(path)  # by its kind first: a FIFO or a device is never opened
        _refuse(shown, before.st_mode, before.st_size, limit)
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise FormatError(_cannot_read(shown, exc)) from None
    try:
        opened = os.fstat(fd)  # what was opened, whatever the path names now
        _refuse(shown, opened.st_mode, opened.st_size, limit)
        chunks: list[bytes] = []
        total = 0
        while True:
            if cancelled is not None and cancelled():
                raise ReadCancelled()
            chunk = os.read(fd, min(CHUNK_BYTES, limit + 1 - total))
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # it grew while being read
                _refuse(shown, opened.st_mode, total, limit)
            chunks.append(chunk)
    except OSError as exc:
        raise FormatError(_cannot_read(shown, exc)) from None
    finally:
        os.close(fd)
    return b"".join(chunks)

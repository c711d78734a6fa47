"""Bounded reads of import files: only regular files, never over the size limit, never
blocking, cancellable; a failed import leaves the library folder byte-identical outside
backups/ (issue 17, items 2 and 7). Real files on disk, the real command line."""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from reader.formats import FormatError, read_papers
from tests.helpers.libraries import own_file

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices and sockets")

#: the longest any single read or command here may take: a hang fails, it never blocks the run
BOUND_S = 20


def _bounded(fn: Callable[[], Any], timeout: float = BOUND_S) -> Any:
    """fn() on a daemon thread: its result or exception, or a failure if it blocks."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # handed to the test
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"blocked for over {timeout} s"
    if "error" in out:
        raise out["error"]
    return out.get("value")


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder with a short path (a Unix socket's path has ~100 bytes at most)."""
    folder = Path(tempfile.mkdtemp(prefix="rd-", dir="/tmp"))
    yield folder
    for child in folder.iterdir():
        child.unlink() if not child.is_dir() else child.rmdir()
    folder.rmdir()


def _special(kind: str, folder: Path) -> tuple[Path, str]:
    """(a path named like a paper list that is no regular file, the word the refusal says)."""
    path = folder / "papers.json"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "FIFO"
    if kind == "zero":
        path.symlink_to("/dev/zero")
        return path, "character device"
    if kind == "urandom":
        path.symlink_to("/dev/urandom")
        return path, "character device"
    if kind == "folder":
        path.mkdir()
        return path, "folder"
    if kind == "socket":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(path))
        sock.close()  # (the socket file stays)
        return path, "socket"
    raise AssertionError(kind)


KINDS = ["fifo", "zero", "urandom", "folder", "socket"]


@pytest.mark.parametrize("kind", KINDS)
def test_what_is_not_a_regular_file_is_refused_in_one_line(kind: str, short_dir: Path) -> None:
    path, word = _special(kind, short_dir)
    with pytest.raises(FormatError) as info:
        _bounded(lambda: read_papers(path))
    message = str(info.value)
    assert "\n" not in message and str(path) in message and word in message, message
    assert "not a regular file" in message


def test_a_fifo_swapped_in_after_the_check_never_blocks(
    short_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path is checked, then opened: if a FIFO replaced the file in between, the
    open does not wait for a writer (O_NONBLOCK) and the descriptor's own kind refuses it."""
    from reader.formats import reading
    from reader.formats.reading import read_bounded

    regular = short_dir / "regular.json"
    regular.write_text("[]")
    fifo = short_dir / "papers.json"
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(
        reading.os, "stat", lambda p, *a, **k: real_stat(regular if p == fifo else p, *a, **k)
    )
    with pytest.raises(FormatError, match="FIFO"):
        _bounded(lambda: read_bounded(fifo))


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reader.formats import reading

    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(3 << 20)  # sparse: 3 MiB of nothing
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(reading.os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with pytest.raises(FormatError) as info:
        read_papers(big, max_bytes=1 << 20)
    assert str(info.value) == (
        f"{big}: not read: 3 MiB, over the import limit of 1 MiB"
        " (set a larger one with --max-size or $READER_MAX_IMPORT_SIZE)"
    )
    assert reads == []
    monkeypatch.setenv("READER_MAX_IMPORT_SIZE", "2M")
    with pytest.raises(FormatError, match="over the import limit of 2 MiB"):
        read_papers(big)
    assert reads == []


def test_a_file_under_the_limit_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = tmp_path / "small.json"
    small.write_text('[{"title": "Under the limit"}]')
    monkeypatch.setenv("READER_MAX_IMPORT_SIZE", "1k")
    assert [p.title for p in read_papers(small).records] == ["Under the limit"]
    assert [p.title for p in read_papers(small, max_bytes=small.stat().st_size).records]


def test_sizes() -> None:
    from reader.formats.reading import parse_size

    assert parse_size("1073741824") == 1 << 30
    assert parse_size("512M") == parse_size("512MiB") == 512 << 20
    assert parse_size("1.5g") == 3 << 29
    assert parse_size(" 100 kB ") == 100 << 10
    for bad in ("", "0", "-1M", "lots", "1X"):
        with pytest.raises(ValueError):
            parse_size(bad)


def test_a_read_stops_at_the_first_look_at_cancel_after_it(tmp_path: Path) -> None:
    from reader.formats import reading
    from reader.formats.reading import ReadCancelled, read_bounded
    from reader.importing import ImportCancelled, prepare_import

    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(64 * reading.CHUNK_BYTES)
    looks: list[int] = []

    def cancelled() -> bool:
        looks.append(1)
        return len(looks) >= 3

    with pytest.raises(ReadCancelled):
        read_bounded(big, cancelled=cancelled)
    assert len(looks) == 3  # two chunks read of 64: the rest never was
    looks.clear()
    with pytest.raises(ImportCancelled):
        prepare_import({}, [big], cancelled=cancelled)
    assert len(looks) == 3


# --- the command line -----------------------------------------------------------------------


def _cli(*args: str, env: dict[str, str] | None = None, **kw: Any) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "reader", *args],
        capture_output=True,
        text=True,
        errors="replace",
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        timeout=BOUND_S * 3,  # a hang fails
        **kw,
    )


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A library folder, seeded (so an import's stderr is its own)."""
    from reader.opening import open_library

    folder = tmp_path / "lib"
    open_library(folder)
    return folder


@pytest.mark.parametrize("kind", KINDS)
def test_the_command_line_refuses_such_a_file_in_one_line(
    kind: str, short_dir: Path, seeded: Path
) -> None:
    path, word = _special(kind, short_dir)
    done = _cli("--data-dir", str(seeded), "import", str(path))
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and word in done.stderr and str(path) in done.stderr


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def test_the_command_line_refuses_a_huge_file_before_reading_it(
    tmp_path: Path, seeded: Path
) -> None:
    """8 GiB (sparse) under a 3 GiB memory limit: read, it would be a MemoryError."""
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        fh.truncate(8 << 30)
    done = _cli("--data-dir", str(seeded), "import", str(huge), preexec_fn=_limit_memory)
    assert done.returncode != 0 and done.stderr.count("\n") == 1, done.stderr
    assert f"{huge}: not read: 8 GiB, over the import limit of 1 GiB" in done.stderr


def test_the_command_line_limit_is_settable(tmp_path: Path, seeded: Path) -> None:
    paper = tmp_path / "one.json"
    paper.write_text('[{"title": "A paper of forty-odd bytes"}]')
    done = _cli("--data-dir", str(seeded), "import", "--max-size", "16", str(paper))
    assert done.returncode != 0 and "over the import limit of 16 bytes" in done.stderr
    done = _cli(
        "--data-dir", str(seeded), "import", str(paper), env={"READER_MAX_IMPORT_SIZE": "1"}
    )
    assert done.returncode != 0 and "over the import limit of 1 byte " in done.stderr
    done = _cli(
        "--data-dir", str(seeded), "import", str(paper), env={"READER_MAX_IMPORT_SIZE": "x"}
    )
    assert done.returncode != 0 and done.stderr.count("\n") == 1
    assert "READER_MAX_IMPORT_SIZE" in done.stderr
    done = _cli("--data-dir", str(seeded), "import", "--max-size", "1k", str(paper))
    assert done.returncode == 0 and "1 added" in done.stdout, done.stderr


# --- a failed import changes nothing outside backups/ ---------------------------------------


def folder_bytes(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) of a library folder but backups/."""
    out: dict[str, bytes | None] = {}
    for root, dirs, files in os.walk(folder):
        rel = Path(root).relative_to(folder)
        if rel == Path("."):
            dirs[:] = [d for d in dirs if d != "backups"]
        for d in dirs:
            out[str(rel / d) + "/"] = None
        for f in files:
            out[str(rel / f)] = (Path(root) / f).read_bytes()
    return out


def _latin1_named(folder: Path, text: str) -> Path:
    name = os.fsencode(folder) + b"/lat\xe9.csv"
    with open(name, "w", encoding="utf-8") as fh:
        fh.write(text)
    return Path(os.fsdecode(name))


#: papers and annotations (tags, a note) to import, as CSV
CARRYING = "title,tags,note\nA paper that carries tags,x;y,a note\nAnother one,z,\n"


def failing_import(kind: str, folder: Path, work: Path) -> Path:
    """Make `kind` of import fail on the library in `folder`: the file to import."""
    if kind == "junk":
        path = work / "junk.json"
        path.write_bytes(b"\x00\x01\x02 not a list")
    elif kind == "no papers":
        path = work / "keys.json"
        path.write_text('{"no papers here": 1}')
    elif kind == "missing":
        path = work / "missing.json"
    elif kind == "fifo":
        path = work / "fifo.json"
        os.mkfifo(path)
    elif kind == "device":
        path = work / "zero.json"
        path.symlink_to("/dev/zero")
    elif kind == "too big":
        path = work / "big.json"
        with open(path, "wb") as fh:
            fh.truncate((1 << 30) + 1)
    elif kind == "read-only annotations":  # the papers could be written, the tags not
        path = _latin1_named(work, CARRYING)
        own_file(folder).chmod(0o444)
    elif kind == "read-only papers":
        path = work / "carrying.csv"
        path.write_text(CARRYING)
        own_file(folder, "papers").chmod(0o555)
    else:
        raise AssertionError(kind)
    return path


FAILURES = [
    "junk",
    "no papers",
    "missing",
    "fifo",
    "device",
    "too big",
    "read-only annotations",
    "read-only papers",
]


@pytest.fixture
def written(tmp_path: Path) -> Path:
    """A library folder with the user's own writing in it: a tag, a note (in the journal)."""
    folder = tmp_path / "lib"
    for args in (("tag", "rl"), ("note", "--set", "mine")):
        pid = _cli("--data-dir", str(folder), "list").stdout.split("\t", 1)[0]
        done = _cli("--data-dir", str(folder), args[0], pid, *args[1:])
        assert done.returncode == 0, done.stderr
    return folder


@pytest.mark.parametrize("kind", FAILURES)
def test_a_failed_command_line_import_changes_nothing_outside_backups(
    kind: str, written: Path, tmp_path: Path
) -> None:
    path = failing_import(kind, written, tmp_path)
    before = folder_bytes(written)
    assert any(name.endswith(".journal") for name in before)  # a fold would change it
    done = _cli("--data-dir", str(written), "import", str(path))
    assert done.returncode != 0, done.stdout
    assert done.stderr.strip().splitlines()[-1].startswith("paper-reader: error: ")
    assert folder_bytes(written) == before


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_write_that_fails_midway_leaves_nothing_behind(
    written: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The disk fills up while the import's catalogue file is written: none is left,
    whole or in part, and no temporary file either."""
    from reader.cli import main

    path = tmp_path / "carrying.csv"
    path.write_text(CARRYING)
    real_fsync = os.fsync

    def full(fd: int) -> None:
        target = Path(os.readlink(f"/proc/self/fd/{fd}"))
        if target.parent == own_file(written, "papers") and stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    before = folder_bytes(written)
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", str(written), "import", str(path)])
    assert info.value.code != 0
    assert "No space left on device" in capsys.readouterr().err
    assert folder_bytes(written) == before

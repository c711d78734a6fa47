"""Real processes against one library: a saver SIGKILLed at random moments, two writers.

Used by tests/unit/test_crash_kill.py, tests/unit/test_two_writers.py and
bench/stress.py. Run as a script it is the child side:
`store_harness.py zygote` (forks one saver per "go" line on stdin) or
`store_harness.py writer FOLDER NAME N`. Imports reader.core and reader.store only:
no Qt, so a child starts in milliseconds.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from reader.core.library import Library
from reader.core.models import Paper
from reader.importing import import_files
from reader.store import catalogue_db, journal, paper_files
from reader.store.backups import Backups
from reader.store.device import DEVICES_DIR, device_id
from reader.store.files import ANNOTATIONS_FILE, BACKUPS_DIR, LibraryFolder
from reader.store.journal import JOURNAL_FILE, scan
from reader.store.migrations import migrate
from reader.store.storage import parse_document

_FILLER = (
    "We study the sample complexity of learning with noisy labels and show that a "
    "simple reweighting recovers the clean risk at a rate of $O(1/\\sqrt{n})$. "
)


def synthetic_papers(
    n: int, *, prefix: str = "p", start: int = 0, abstract_chars: int = 0
) -> list[Paper]:
    """`n` made-up catalogue entries with ids prefix000000, prefix000001, ..."""
    abstract = (_FILLER * (abstract_chars // len(_FILLER) + 1))[:abstract_chars]
    return [
        Paper(
            id=f"{prefix}{i:06d}",
            title=f"Synthetic paper {i} on learning",
            authors=("Ada Author", "Bo Writer"),
            abstract=abstract,
            venue="BENCH 2025",
            year=2025,
            source="synthetic",
        )
        for i in range(start, start + n)
    ]


def device_dir(folder: Path) -> Path:
    """This device's own folder in the library `folder` (devices/<device>/: its
    annotations.json, annotations.journal and their damaged copies)."""
    return folder / DEVICES_DIR / device_id()


def device_backups_dir(folder: Path) -> Path:
    """This device's backups folder in the library `folder` (backups/<device>/)."""
    return folder / BACKUPS_DIR / device_id()


def device_backups(folder: Path, **kwargs: Any) -> Backups:
    """The Backups of this device's annotations.json in the library `folder`, as
    LibraryFolder(folder).backups has them, with the caller's `keep`, `clock`..."""
    return Backups(
        folder,
        source=device_dir(folder) / ANNOTATIONS_FILE,
        into=device_backups_dir(folder),
        **kwargs,
    )


def make_library(folder: Path, papers: list[Paper]) -> None:
    """A library holding `papers`, schema recorded, no annotations."""
    store = LibraryFolder(folder)
    store.add_papers(papers)
    migrate(store)
    store.close()


# -- the saver that gets killed ------------------------------------------------

KILL_TARGETS = [p.id for p in synthetic_papers(5, prefix="k")]
CATALOGUE_SLOTS = 20
#: the savers fold the journal into annotations.json past this size: every few saves
KILL_FOLD_BYTES = 48 * 1024


def op(seq: int) -> tuple[str, str]:
    """What save number `seq` does: (kind, target). Deterministic, so the parent
    knows what every acknowledged number wrote. Notes and tags are journal lines
    (some folding the journal); a paper is written to the catalogue directly, or by
    an import of a JSON file (read, matched, written, as `paper-reader import`
    does); a saved search rewrites annotations.json with the journal folded in; a
    backup folds the journal first."""
    r = seq % 20
    if r < 8:
        return "note", KILL_TARGETS[seq % 5]
    if r < 14:
        return "tags", KILL_TARGETS[seq % 5]
    if r < 16:
        return "paper", f"x{seq % CATALOGUE_SLOTS:06d}"
    if r < 17:
        return "import", f"i{seq:06d}"  # a new paper (an import keeps a known one)
    if r < 18:
        return "search", "kill"
    return "backup", ""


def _save(lib: Library, backups: Backups, seq: int, folder: Path) -> None:
    kind, target = op(seq)
    if kind == "note":  # sizes vary so kills land in short and long writes
        lib.set_note(target, f"{seq}|" + "x" * (seq * 7919 % 30_000))
    elif kind == "tags":
        lib.set_tags(target, [f"s{seq}", "kill"])
    elif kind == "paper":
        lib.add_papers([Paper(id=target, title=str(seq))])
    elif kind == "import":
        source = folder.parent / f"import-{seq}.json"
        source.write_text(f'[{{"id": "{target}", "title": "{seq}"}}]', "utf-8")
        import_files(lib, [source])
    elif kind == "search":
        lib.save_search(target, str(seq))
    else:
        backups.take("kill", force=True)


def _saver(folder: Path, first_seq: int, ack_path: str) -> None:
    journal.FOLD_BYTES = KILL_FOLD_BYTES
    # the catalogue's SQLite index kept in the cache folder (and killed while it is
    # written), as a library of more than a few papers has it: a small one is
    # indexed in memory at each open
    catalogue_db.SMALL_LIBRARY_BYTES = 0
    ack = os.open(ack_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    store = LibraryFolder(folder)
    lib = Library(store)
    backups = store.backups
    seq = first_seq
    while True:
        _save(lib, backups, seq, folder)
        os.write(ack, f"{seq}\n".encode())  # only once the save has returned
        seq += 1


def _zygote() -> None:
    # Forking from a process that already imported everything makes each saver
    # start in a few milliseconds instead of ~150 ms for a fresh interpreter.
    print("ready", flush=True)
    for line in sys.stdin:
        _, folder, first, ack_path = line.split()
        pid = os.fork()
        if pid == 0:
            try:
                _saver(Path(folder), int(first), ack_path)
            except BaseException:  # noqa: BLE001 (report anything, then exit non-zero)
                traceback.print_exc()
                sys.stderr.flush()
                os._exit(3)
            os._exit(0)
        print(f"pid {pid}", flush=True)
        _, status = os.waitpid(pid, 0)
        print(f"exit {status}", flush=True)


@dataclass
class KillReport:
    kills: int = 0
    survived: int = 0
    acknowledged: int = 0
    lost: int = 0
    temp_files_left: int = 0
    #: kills that left an unfinished journal line (cut off by the next save)
    torn_journal: int = 0
    #: unfinished journal lines the harness left before a saver started
    torn_injected: int = 0
    #: kills that left journal lines already folded into annotations.json
    folded_not_emptied: int = 0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "kills": self.kills,
            "survived": self.survived,
            "acknowledged": self.acknowledged,
            "lost": self.lost,
            "kills_leaving_temp_files": self.temp_files_left,
            "kills_leaving_a_torn_journal_line": self.torn_journal,
            "torn_journal_lines_injected": self.torn_injected,
            "kills_between_fold_and_emptying": self.folded_not_emptied,
            "problems": self.problems[:10],
        }


class KillHarness:
    """Starts savers on one library, SIGKILLs each at a random moment, then checks
    that both files parse and that every acknowledged save is on disk."""

    def __init__(self, workdir: Path, seed: int = 0) -> None:
        self.folder = workdir / "library"
        self.workdir = workdir
        make_library(self.folder, synthetic_papers(5, prefix="k"))
        self.rng = random.Random(seed)
        self.report = KillReport()
        self.expected: dict[tuple[str, str], int] = {}
        self.next_seq = 0
        self.stderr_path = workdir / "zygote.stderr"
        self._stderr = open(self.stderr_path, "w")  # noqa: SIM115 (lives as long as the zygote)
        self.zygote = subprocess.Popen(
            [sys.executable, __file__, "zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
        )
        self._expect("ready")

    def _expect(self, word: str) -> str:
        assert self.zygote.stdout is not None
        line = self.zygote.stdout.readline().split()
        if not line or line[0] != word:
            raise AssertionError(f"zygote said {line!r}, expected {word}; see {self.stderr_path}")
        return line[1] if len(line) > 1 else ""

    def kill_once(self, max_delay_s: float = 0.025) -> None:
        assert self.zygote.stdin is not None
        ack_path = self.workdir / "acks"
        first = self.next_seq
        if self.rng.random() < 0.1:
            self._tear_journal()
        self.zygote.stdin.write(f"go {self.folder} {first} {ack_path}\n")
        self.zygote.stdin.flush()
        pid = int(self._expect("pid"))
        time.sleep(self.rng.uniform(0, max_delay_s))
        os.kill(pid, signal.SIGKILL)
        status = int(self._expect("exit"))
        if not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL):
            raise AssertionError(f"the saver stopped by itself ({status}); see {self.stderr_path}")
        text = ack_path.read_text() if ack_path.exists() else ""
        acked = [int(line) for line in text.splitlines(keepends=True) if line.endswith("\n")]
        ack_path.unlink(missing_ok=True)
        in_flight = (acked[-1] if acked else first - 1) + 1
        self.next_seq = in_flight + 1
        for seq in acked:
            kind, target = op(seq)
            if kind != "backup":
                self.expected[(kind, target)] = seq
        self.report.kills += 1
        self.report.acknowledged += len(acked)
        lost_before = self.report.lost
        self._verify(in_flight)
        if self.report.lost == lost_before:
            self.report.survived += 1

    def _temp_files(self) -> list[Path]:
        """Temp files of unfinished atomic writes: of this device's catalogue files, its
        annotations.json and its backups."""
        places = (
            self.folder,
            device_dir(self.folder),
            device_dir(self.folder) / paper_files.PAPERS_DIR,
            device_backups_dir(self.folder),
        )
        return [temp for place in places for temp in place.glob(".tmp-*")]

    def _verify(self, in_flight: int) -> None:
        path = device_dir(self.folder) / ANNOTATIONS_FILE
        parse_document(path, path.read_bytes())  # DamagedFileError if torn
        for name in paper_files.catalogue_files(self.folder):  # each one whole
            torn: list[str] = []
            if paper_files.read_file(self.folder, name, torn) is None or torn:
                self.report.problems.append(f"{name} is not whole: {torn}")
        self._check_journal()
        if self._temp_files():
            self.report.temp_files_left += 1
        small, catalogue_db.SMALL_LIBRARY_BYTES = catalogue_db.SMALL_LIBRARY_BYTES, 0
        try:  # (the index the savers wrote, as they left it)
            store = LibraryFolder(self.folder)
        finally:
            catalogue_db.SMALL_LIBRARY_BYTES = small
        left = self._temp_files()
        if left:
            self.report.problems.append(f"temp files not cleaned up: {left}")
        lib = Library(store)
        for info in store.backups.list():
            store.backups.check(info)  # every kept backup parses
        in_key = op(in_flight)
        keys = set(self.expected) | ({in_key} if in_key[0] != "backup" else set())
        for key in keys:
            acked = self.expected.get(key)
            disk = _on_disk(lib, *key)
            allowed = {acked} | ({in_flight} if key == in_key else set())
            if disk not in allowed:
                self.report.lost += 1
                self.report.problems.append(f"{key}: acknowledged {acked}, on disk {disk}")
            elif disk is not None:
                self.expected[key] = disk  # the in-flight save landed: it must stay
        store.close()

    def _tear_journal(self) -> None:
        """Leave what a crash mid-append leaves (a SIGKILL cannot: the kernel finishes
        a write() it started): the start of a line, or zeros where the file grew.
        The next save must cut it off, and nothing acknowledged may go."""
        line = journal.encode({KILL_TARGETS[0]: {"note": "torn|never acknowledged"}})
        junk = (
            line[: self.rng.randrange(1, len(line) - 1)] if self.rng.random() < 0.7 else b"\0" * 512
        )
        with open(device_dir(self.folder) / JOURNAL_FILE, "ab") as file:
            file.write(junk)
        self.report.torn_injected += 1

    def _check_journal(self) -> None:
        path = device_dir(self.folder) / JOURNAL_FILE
        found = scan(path.read_bytes() if path.exists() else b"")
        if found.damaged:
            self.report.problems.append(f"damaged journal: {found.damaged}")
        if not found.clean:
            self.report.torn_journal += 1
        own = device_dir(self.folder) / ANNOTATIONS_FILE
        ann = parse_document(own, own.read_bytes())
        table = ann.get("annotations", {})
        # every line already in annotations.json: a kill between a fold's rewrite
        # and the journal's emptying (replaying them must change nothing); the lines
        # and the file both hold this device's stamped records
        if found.changes and all(
            all(
                table.get(pid, {}).get(k) == v
                for k, v in (fields or {}).items()
                if k not in ("paper_id", "created")
            )
            for changes in found.changes
            for pid, fields in changes.items()
        ):
            self.report.folded_not_emptied += 1

    def close(self) -> None:
        if self.zygote.stdin:
            self.zygote.stdin.close()
        self.zygote.wait(timeout=30)
        if self.zygote.stdout:
            self.zygote.stdout.close()
        self._stderr.close()


def _on_disk(lib: Library, kind: str, target: str) -> int | None:
    if kind in ("paper", "import"):
        return int(lib.paper(target).title) if target in lib else None
    if kind == "search":
        query = lib.prefs.saved_searches().get(target)
        return int(query) if query else None
    ann = lib.annotation(target)
    if kind == "note":
        return int(ann.note.split("|")[0]) if ann.note else None
    tags = [t for t in ann.tags if t.startswith("s")]
    return int(tags[0][1:]) if tags else None


# -- two writers ---------------------------------------------------------------

HOT = "hot000000"


def _writer(folder: Path, name: str, n: int, fold_bytes: int) -> None:
    journal.FOLD_BYTES = fold_bytes
    lib = Library(LibraryFolder(folder))
    print("ready", flush=True)
    sys.stdin.readline()  # both start together
    for i in range(n):
        lib.set_note(f"own{name}{i:06d}", f"{name}{i}")
        shared = f"sh{i:06d}"
        if name == "A":  # A writes notes, B tags: different fields of one annotation
            lib.set_note(shared, f"A{i}")
            lib.set_note(HOT, f"A{i}")
        else:
            lib.set_tags(shared, [f"B{i}"])
            lib.set_tags(HOT, [f"B{i}"])
    print("done", flush=True)


def run_two_writers(folder: Path, n: int, fold_bytes: int = journal.FOLD_BYTES) -> dict[str, Any]:
    """Two real processes, `n` rounds each of three updates; returns what was lost.
    Each folds the journal into annotations.json when it passes `fold_bytes`."""
    papers = [
        *synthetic_papers(n, prefix="ownA"),
        *synthetic_papers(n, prefix="ownB"),
        *synthetic_papers(n, prefix="sh"),
        *synthetic_papers(1, prefix="hot"),
    ]
    make_library(folder, papers)
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "writer", str(folder), name, str(n), str(fold_bytes)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in "AB"
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        if proc.returncode != 0 or "done" not in out:
            raise AssertionError(f"a writer failed with {proc.returncode}")
    lib = Library(LibraryFolder(folder))
    problems = []
    for i in range(n):
        for name in "AB":
            if lib.annotation(f"own{name}{i:06d}").note != f"{name}{i}":
                problems.append(f"own{name}{i:06d}")
        shared = lib.annotation(f"sh{i:06d}")
        if shared.note != f"A{i}":
            problems.append(f"sh{i:06d} note")
        if shared.tags != (f"B{i}",):
            problems.append(f"sh{i:06d} tags")
    hot = lib.annotation(HOT)
    if hot.note != f"A{n - 1}" or hot.tags != (f"B{n - 1}",):
        problems.append(f"{HOT}: {hot.note!r} {hot.tags!r}")
    return {"updates": 6 * n, "lost": len(problems), "problems": problems[:10]}


if __name__ == "__main__":
    if sys.argv[1] == "zygote":
        _zygote()
    elif sys.argv[1] == "writer":
        _writer(Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))

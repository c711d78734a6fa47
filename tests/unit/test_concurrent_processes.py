"""Processes editing one paper at once for a few seconds lose no acknowledged edit
(issue 18): two command lines in loops (`tag`, `note --set`, `status`; exit 0 is the
acknowledgement), one on this device and one on another, and one long-lived Library
as the window's controller uses it, refreshed as the window's poll does. The longer
version, with the real window: `python bench/stress.py concurrent --window`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from reader.core.library import Library
from reader.store.files import LibraryFolder
from tests.helpers.libraries import DEVICE, fresh

REPO = Path(__file__).resolve().parents[2]
#: how long the writers edit (the whole test: about two seconds more)
SECONDS = 2.5

# Each writer: "ready" on stdout, the seconds to edit for on stdin, then edits until
# then, each acknowledged edit a JSON line (op, value, start, ack) in its file.
_COMMON = textwrap.dedent(
    """
    import json, random, subprocess, sys, time
    folder, pid, name, path = sys.argv[1:5]
    out = open(path, "a", encoding="utf-8")

    def record(**entry):
        out.write(json.dumps(entry) + "\\n")
        out.flush()

    def edit(i):
        op = ("tag", "tag", "note", "tag", "status")[i % 5]
        value = {"tag": f"{name}-t{i}", "note": f"note {i} by {name}"}.get(op)
        return op, value or random.Random(f"{name}{i}").choice(["unread", "reading", "read"])
    """
)

_CLI = _COMMON + textwrap.dedent(
    """
    print("ready", flush=True)
    deadline = time.monotonic() + float(sys.stdin.readline())
    i = 0
    while time.monotonic() < deadline:
        op, value = edit(i)
        i += 1
        args = {"tag": ["tag", pid, value], "note": ["note", pid, "--set", value],
                "status": ["status", pid, value]}[op]
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "reader", "--data-dir", folder, *args],
            capture_output=True, text=True, timeout=60,
        )
        if done.returncode == 0:
            record(op=op, value=value, start=start, ack=time.monotonic())
        else:
            record(op=op, value=value, failed=done.stderr[-1000:])
    """
)

_LIBRARY = _COMMON + textwrap.dedent(
    """
    from pathlib import Path
    from reader.core.models import Status
    from reader.opening import open_library

    lib = open_library(Path(folder)).library
    print("ready", flush=True)
    deadline = time.monotonic() + float(sys.stdin.readline())
    polled, i = time.monotonic(), 0
    while time.monotonic() < deadline:
        if time.monotonic() - polled >= 1.0:  # the window's poll
            lib.refresh()
            polled = time.monotonic()
        op, value = edit(i)
        i += 1
        start = time.monotonic()
        if op == "tag":
            lib.add_tags([pid], [value])
        elif op == "note":
            lib.set_note(pid, value)
        else:
            lib.set_status([pid], Status(value))
        record(op=op, value=value, start=start, ack=time.monotonic())
        time.sleep(random.uniform(0, 0.03))
    """
)


def _spawn(script: str, device: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "READER_DEVICE_ID": device}
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        cwd=REPO,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )


def _could_be_last(writes: list[dict], final: str) -> bool:
    """Whether `final` can be the last of `writes` (last writer wins): edits run one
    at a time under the lock, so the last one ran was acknowledged no earlier than
    the latest start of any."""
    if not writes:
        return True
    last_start = max(w["start"] for w in writes)
    return final in {w["value"] for w in writes if w["ack"] >= last_start}


def test_command_lines_and_a_library_editing_one_paper_lose_no_acknowledged_edit(
    library_dir, tmp_path
):
    pid = fresh(library_dir).paper_ids()[0]  # seeded with the sample first: no writer seeds
    writers = [
        (_CLI, DEVICE, "cli-here"),
        (_CLI, "other-device", "cli-other"),
        (_LIBRARY, DEVICE, "library"),
    ]
    files = {name: tmp_path / f"{name}.acks" for _, _, name in writers}
    procs = [
        _spawn(script, device, str(library_dir), pid, name, str(files[name]))
        for script, device, name in writers
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:  # all open: the edits start together
            assert proc.stdin is not None
            proc.stdin.write(f"{SECONDS}\n")
            proc.stdin.flush()
        for proc in procs:
            proc.communicate(timeout=90)
            assert proc.returncode == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    records = {
        name: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for name, path in files.items()
    }
    failed = [r for rs in records.values() for r in rs if "failed" in r]
    assert not failed
    done = [r for rs in records.values() for r in rs]
    tags = {r["value"] for r in done if r["op"] == "tag"}
    for name, rs in records.items():  # every writer got edits in, among the others'
        assert any(r["op"] == "tag" for r in rs), name
    for device in (DEVICE, "other-device", "newcomer"):  # each device sees them all
        store = LibraryFolder(library_dir, device=device)
        try:
            ann = Library(store).annotation(pid)
        finally:
            store.close()
        assert sorted(tags - set(ann.tags)) == [], f"acknowledged tags lost, seen on {device}"
        assert set(ann.tags) == tags  # and nothing nobody wrote
        notes = [r for r in done if r["op"] == "note"]
        statuses = [r for r in done if r["op"] == "status"]
        assert _could_be_last(notes, ann.note), (device, ann.note)
        assert _could_be_last(statuses, ann.status.value), (device, ann.status)

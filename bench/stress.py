"""Storage stress: SIGKILLed savers, two writers, durable save time at 19 and 100k papers,
and N processes (command lines in loops, optionally a real window) editing one paper."""

# Not a timed test. Progress goes to stderr; the last line of stdout is one JSON object:
#   python bench/stress.py --kills 1000                 (every mode)
#   python bench/stress.py concurrent --writers 4 --seconds 30 --window
# Modes: kills, two-writers, save, concurrent (none named: all of them). The exit code
# is 1 if the concurrent mode lost an acknowledged edit (a tag, or a note or status
# older than the last one acknowledged).

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "helpers")]

from store_harness import KillHarness, make_library, run_two_writers, synthetic_papers

from reader.core.library import Library, SaveFailed
from reader.core.models import Status
from reader.store import journal
from reader.store.files import LibraryFolder


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def kills(n: int, workdir: Path, seed: int) -> dict[str, object]:
    workdir.mkdir()
    harness = KillHarness(workdir, seed=seed)
    start = time.perf_counter()
    try:
        for i in range(n):
            harness.kill_once(max_delay_s=0.08)
            if (i + 1) % 100 == 0:
                log(
                    f"  {i + 1} kills, {harness.report.acknowledged} acknowledged, "
                    f"{harness.report.lost} lost, "
                    f"{harness.report.torn_injected} torn journal lines left "
                    f"before a saver, {harness.report.folded_not_emptied} kills between a fold and "
                    "emptying the journal"
                )
    finally:
        harness.close()
    return {**harness.report.as_dict(), "seconds": round(time.perf_counter() - start, 1)}


def two_writers(runs: int, updates: int, workdir: Path) -> dict[str, object]:
    total, lost, problems = 0, 0, []
    for run in range(runs):
        # every other run folds the journal often, between the other writer's appends
        fold_bytes = 2048 if run % 2 else journal.FOLD_BYTES
        result = run_two_writers(workdir / f"run{run}", updates, fold_bytes=fold_bytes)
        total += int(result["updates"])
        lost += int(result["lost"])
        problems += result["problems"]
        log(
            f"  run {run + 1} (journal folded past {fold_bytes} bytes): "
            f"{result['updates']} updates, {result['lost']} lost"
        )
    return {"runs": runs, "updates": total, "lost": lost, "problems": problems[:10]}


def build(folder: Path, n_papers: int) -> tuple[Library, dict[str, float]]:
    start = time.perf_counter()
    make_library(folder, synthetic_papers(n_papers, abstract_chars=1000))
    built = time.perf_counter()
    lib = Library(LibraryFolder(folder))
    loaded = time.perf_counter()
    return lib, {
        "generate_s": round(built - start, 2),
        "open_s": round(loaded - built, 2),
        "catalogue_mb": round(
            sum(p.stat().st_size for p in folder.glob("devices/*/papers/*.jsonl")) / 1e6, 1
        ),
    }


def save_times(sizes: list[int], samples: int, workdir: Path) -> dict[str, object]:
    libs = {}
    for n in sizes:
        libs[n], info = build(workdir / f"save-{n}", n)
        log(f"  {n} papers: {info}")
    # ids picked once: building a 100k list between saves would evict the CPU caches
    # and bill the big library for the benchmark's own work
    ids = {n: lib.paper_ids()[:19] for n, lib in libs.items()}
    wall: dict[int, list[float]] = {n: [] for n in sizes}
    cpu: dict[int, list[float]] = {n: [] for n in sizes}
    for i in range(samples + 10):
        # interleaved, order swapped every round: disk noise and the journal commit
        # left by the previous save hit both sizes alike
        for n in sizes if i % 2 else sizes[::-1]:
            lib = libs[n]
            pid = ids[n][i % 19]
            start, start_cpu = time.perf_counter(), time.process_time()
            lib.set_note(pid, f"note {i}: " + "words " * 50)
            if i >= 10:  # the first saves warm caches
                wall[n].append((time.perf_counter() - start) * 1000)
                cpu[n].append((time.process_time() - start_cpu) * 1000)
    out: dict[str, object] = {
        str(n): {
            "median_ms": round(statistics.median(wall[n]), 2),
            "p90_ms": round(statistics.quantiles(wall[n], n=10)[-1], 2),
            "cpu_median_ms": round(statistics.median(cpu[n]), 2),
            "samples": len(wall[n]),
        }
        for n in sizes
    }
    small, big = sizes[0], sizes[-1]
    out["ratio_median"] = round(statistics.median(wall[big]) / statistics.median(wall[small]), 2)
    out["ratio_cpu_median"] = round(statistics.median(cpu[big]) / statistics.median(cpu[small]), 2)
    return out


# -- concurrent: N processes editing one paper ----------------------------------------

#: writer k's i-th edit: mostly tags (each one checked), a note and a status between
SCHEDULE = ("tag", "tag", "note", "tag", "status")
STATUSES = tuple(s.value for s in (Status.UNREAD, Status.READING, Status.READ))
#: the window-like writers take in outside changes this often (the window's poll)
POLL_S = 1.0
#: the window's edits come this often (its QTimer), the Library writer's a pause of
#: up to this apart
WINDOW_EDIT_MS = 5
API_PAUSE_S = 0.03


def nth_edit(name: str, i: int) -> tuple[str, str]:
    """Writer `name`'s i-th edit: (tag|note|status, a value no other edit has)."""
    op = SCHEDULE[i % len(SCHEDULE)]
    if op == "tag":
        return op, f"{name}-t{i}"
    if op == "note":
        return op, f"note {i} by {name}"
    return op, random.Random(f"{name}-{i}").choice(STATUSES)


class Acks:
    """A writer's record, one JSON line each, flushed at once: every acknowledged edit
    (op, value, start, ack: time.monotonic(), one clock for every process on a
    machine), every failed one, and whatever the program told (store problems)."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("a", encoding="utf-8")

    def write(self, **entry: object) -> None:
        self._file.write(json.dumps(entry) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def _ready_then_go() -> float:
    """Tell the parent this writer is ready; its deadline (from the parent's go line)."""
    print("ready", flush=True)
    seconds = float(sys.stdin.readline())
    return time.monotonic() + seconds


def _child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def cli_writer(job: dict[str, Any], acks: Acks) -> None:
    """`python -m reader tag|note|status` in a loop: exit 0 is the acknowledgement."""
    folder, pid, name = job["folder"], job["pid"], job["name"]
    deadline = _ready_then_go()
    i = 0
    while time.monotonic() < deadline:
        op, value = nth_edit(name, i)
        i += 1
        args = {
            "tag": ["tag", pid, value],
            "note": ["note", pid, "--set", value],
            "status": ["status", pid, value],
        }[op]
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "reader", "--data-dir", folder, *args],
            cwd=REPO,
            env=_child_env(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode == 0:
            acks.write(op=op, value=value, start=start, ack=time.monotonic())
            if done.stderr.strip():
                acks.write(told=done.stderr.strip()[-2000:])
        else:
            acks.write(op=op, value=value, start=start, failed=done.stderr.strip()[-2000:])


def api_writer(job: dict[str, Any], acks: Acks) -> None:
    """One long-lived Library, edited the way the window's controller does (add_tags,
    set_note, set_status), refreshed every POLL_S as the window's poll does."""
    from reader.opening import open_library

    pid, name = job["pid"], job["name"]
    opened = open_library(Path(job["folder"]))
    lib = opened.library
    rng = random.Random(name)
    deadline = _ready_then_go()
    polled = time.monotonic()
    i = 0
    while time.monotonic() < deadline:
        if time.monotonic() - polled >= POLL_S:
            lib.refresh()
            polled = time.monotonic()
        op, value = nth_edit(name, i)
        i += 1
        start = time.monotonic()
        try:
            if op == "tag":
                lib.add_tags([pid], [value])
            elif op == "note":
                lib.set_note(pid, value)
            else:
                lib.set_status([pid], Status(value))
        except (SaveFailed, OSError, ValueError) as exc:
            acks.write(op=op, value=value, start=start, failed=str(exc))
        else:
            acks.write(op=op, value=value, start=start, ack=time.monotonic())
        for told in opened.folder.take_problems():
            acks.write(told=told)
        time.sleep(rng.uniform(0, API_PAUSE_S))
    if lib.pending_count() and not lib.retry_pending():
        acks.write(pending=lib.pending_count())
    opened.folder.close()


def window_writer(job: dict[str, Any], acks: Acks) -> None:
    """The real window (reader.ui.app.build, offscreen), its pane driven by a QTimer:
    the tag field's tags_added, the status buttons' status_chosen, text typed into
    the note editor and committed. An edit is acknowledged if no save failed meanwhile
    and nothing is left pending."""
    from PySide6.QtCore import QSettings, QTimer

    from reader.ui.app import build, make_qapplication

    pid, name = job["pid"], job["name"]
    qapp = make_qapplication([sys.argv[0]])
    settings = QSettings(str(Path(job["acks"]).with_suffix(".ini")), QSettings.Format.IniFormat)
    app = build(Path(job["folder"]), settings)
    window, controller = app.window, app.controller
    lib, pane = controller.library, controller.pane
    warn = window.warn

    def warned(message: str) -> Any:
        acks.write(told=message)
        return warn(message)

    window.warn = warned  # type: ignore[method-assign]
    failures: list[str] = []
    controller.save_failed.connect(failures.append)
    window.show()
    if not controller.sidebar.select_paper(pid):
        raise SystemExit(f"{pid} not in the window's list")
    controller.show_current()
    deadline = _ready_then_go()
    i = 0

    def step() -> None:
        nonlocal i
        if time.monotonic() >= deadline:
            timer.stop()
            if lib.pending_count() and not controller.retry_saves():
                acks.write(pending=lib.pending_count())  # (closing would ask: not closed)
            else:
                window.close()
            qapp.quit()
            return
        op, value = nth_edit(name, i)
        i += 1
        if pane.paper_id != pid:  # (never expected: the pane shows the paper throughout)
            acks.write(op=op, value=value, failed=f"the pane shows {pane.paper_id!r}")
            return
        before = len(failures)
        start = time.monotonic()
        if op == "tag":
            pane.tags_added.emit([value])
        elif op == "status":
            pane.status_chosen.emit(Status(value))
        else:
            pane.note_editor.editor.setPlainText(value)
            pane.note_editor.flush()
        if len(failures) == before and lib.pending_count() == 0:
            acks.write(op=op, value=value, start=start, ack=time.monotonic())
        else:
            acks.write(op=op, value=value, start=start, failed=" / ".join(failures[before:]))

    timer = QTimer(interval=WINDOW_EDIT_MS)
    timer.timeout.connect(step)
    timer.start()
    qapp.exec()
    app.poll.stop()


WRITERS = {"cli": cli_writer, "api": api_writer, "window": window_writer}


def writer_main(spec: str) -> int:
    """The child side: `stress.py --writer JSON` (kind, folder, pid, name, acks)."""
    job = json.loads(spec)
    acks = Acks(Path(job["acks"]))
    try:
        WRITERS[job["kind"]](job, acks)
    finally:
        acks.close()
    return 0


def read_acks(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


#: what the offscreen platform says on every window shown: nothing of ours
QT_NOISE = ("This plugin does not support propagateSizeHints()",)


def stderr_lines(path: Path) -> list[str]:
    """A writer's stderr, without the offscreen platform's noise."""
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    return [line for line in text.splitlines() if line.strip() and line not in QT_NOISE]


def last_write_check(
    writes: list[dict[str, Any]], final: str, attempted: set[str]
) -> dict[str, object]:
    """Whether `final` (a note, a status) can be the last of the acknowledged `writes`
    (last writer wins). Edits run one at a time under the lock, so the one that ran
    last was acknowledged no earlier than the last start of any: if X started after
    W was acknowledged, X saw W and came after it."""
    if not writes:
        return {"writes": 0, "final": final, "ok": True}
    last_start = max(w["start"] for w in writes)
    candidates = {w["value"] for w in writes if w["ack"] >= last_start}
    out: dict[str, object] = {
        "writes": len(writes),
        "final": final,
        "could_be_last": len(candidates),
        "ok": final in candidates,
    }
    if final not in candidates:
        acked = {w["value"] for w in writes}
        how = "acknowledged, not last" if final in acked else None
        out["final_was_written"] = how or ("unacknowledged" if final in attempted else "never")
    return out


def verify(folder: Path, pid: str, device: str, acks: list[dict[str, Any]]) -> dict[str, object]:
    """The library opened fresh as `device`: which acknowledged edits it shows."""
    store = LibraryFolder(folder, device=device)
    try:
        lib = Library(store)
        ann = lib.annotation(pid)
        conflicts = lib.note_conflicts(pid)
        problems = store.take_problems()
    finally:
        store.close()
    done = [a for a in acks if "ack" in a]
    acked_tags = [a["value"] for a in done if a["op"] == "tag"]
    attempted = {a["value"] for a in acks if "op" in a}
    present = set(ann.tags)
    lost = sorted(set(acked_tags) - present)
    return {
        "acknowledged": len(acked_tags),
        "present": len(present & set(acked_tags)),
        "lost": len(lost),
        "lost_tags": lost[:20],
        "unexpected_tags": sorted(present - attempted)[:20],
        "note": last_write_check([a for a in done if a["op"] == "note"], ann.note, attempted),
        "status": last_write_check(
            [a for a in done if a["op"] == "status"], ann.status.value, attempted
        ),
        "note_conflicts": len(conflicts),
        "problems": problems[:5],
    }


def concurrent(
    writers: int, seconds: float, window: bool, api: bool, devices: str, workdir: Path
) -> dict[str, object]:
    """`writers` processes edit the same paper for `seconds`: command lines in loops,
    writer 0 the real window (`window`) or a long-lived Library (`api`). Each records
    what was acknowledged; the library is then opened fresh and checked."""
    from reader.opening import sample_papers
    from reader.store.migrations import migrate

    workdir.mkdir()
    folder = workdir / "library"
    device_of = [("stress" if devices == "one" else f"stress{k}") for k in range(writers)]
    papers = sample_papers()  # the bundled sample, as a first launch seeds it
    store = LibraryFolder(folder, device=device_of[0])
    store.add_papers(papers)
    migrate(store)
    store.close()
    pid = papers[0].id
    kinds = ["window" if window else "api" if api else "cli"] + ["cli"] * (writers - 1)
    procs = []
    me = str(Path(__file__).resolve())
    started = time.perf_counter()
    try:
        for k, kind in enumerate(kinds):
            job = {
                "kind": kind,
                "folder": str(folder),
                "pid": pid,
                "name": f"w{k}{kind[0]}",
                "acks": str(workdir / f"w{k}.acks"),
            }
            env = {
                **_child_env(),
                "READER_DEVICE_ID": device_of[k],
                "READER_CACHE_DIR": str(workdir / "cache"),
                "QT_QPA_PLATFORM": "offscreen",
            }
            with (workdir / f"w{k}.err").open("w") as err:
                procs.append(
                    subprocess.Popen(
                        [sys.executable, me, "--writer", json.dumps(job)],
                        cwd=REPO,
                        env=env,
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        stderr=err,
                        text=True,
                    )
                )
        for proc in procs:  # everyone open and ready: the edits start together
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()
            if line != "ready":
                proc.wait(timeout=60)
                why = "\n".join(stderr_lines(workdir / f"w{procs.index(proc)}.err")[-10:])
                raise RuntimeError(f"a writer did not start (said {line!r}):\n{why}")
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(f"{seconds}\n")
            proc.stdin.flush()
        codes = [proc.wait(timeout=seconds + 120) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    elapsed = time.perf_counter() - started
    per_writer = []
    acks: list[dict[str, Any]] = []
    for k, (kind, code) in enumerate(zip(kinds, codes, strict=True)):
        mine = read_acks(workdir / f"w{k}.acks")
        acks += mine
        failed = [a["failed"] for a in mine if "failed" in a]
        per_writer.append(
            {
                "kind": kind,
                "device": device_of[k],
                "exit": code,
                "acknowledged": sum("ack" in a for a in mine),
                "failed": len(failed),
                "first_failures": failed[:3],
                "told": [a["told"] for a in mine if "told" in a][:3],
                "left_pending": sum(int(a.get("pending", 0)) for a in mine),
                "stderr": stderr_lines(workdir / f"w{k}.err")[:5],
            }
        )
    result: dict[str, object] = {
        "writers": writers,
        "devices": devices,
        "seconds": seconds,
        "paper": pid,
    }
    views = {device: verify(folder, pid, device, acks) for device in dict.fromkeys(device_of)}
    outside = verify(folder, pid, "stress-verifier", acks)
    first = views[device_of[0]]
    result.update(
        acknowledged=first["acknowledged"],
        present=first["present"],
        lost=max(int(v["lost"]) for v in [*views.values(), outside]),
        edits_acknowledged=sum(int(w["acknowledged"]) for w in per_writer),
        edits_per_s=round(sum(int(w["acknowledged"]) for w in per_writer) / elapsed, 1),
        # a note or status older than the last one acknowledged is a lost edit too
        last_writes_ok=all(
            v[field]["ok"] for v in [*views.values(), outside] for field in ("note", "status")
        ),
        per_writer=per_writer,
        views={**views, "outside device": outside},
    )
    return result


MODES = ("kills", "two-writers", "save", "concurrent")


def main() -> int:
    if sys.argv[1:2] == ["--writer"]:  # a child of the concurrent mode
        return writer_main(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("modes", nargs="*", metavar="MODE", help=f"any of {', '.join(MODES)}")
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--two-writer-runs", type=int, default=5)
    parser.add_argument("--updates", type=int, default=200, help="rounds per writer per run")
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--writers", type=int, default=3, help="concurrent: processes at once (1-4)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="concurrent: how long")
    writer0 = parser.add_mutually_exclusive_group()
    writer0.add_argument(
        "--window",
        action="store_true",
        help="concurrent: writer 0 is the real window (offscreen), driven by a QTimer",
    )
    writer0.add_argument(
        "--api",
        action="store_true",
        help="concurrent: writer 0 is one long-lived Library, as the window's controller uses",
    )
    parser.add_argument(
        "--devices",
        choices=("one", "each"),
        default="one",
        help="concurrent: every writer one device (one computer), or each its own",
    )
    parser.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    args = parser.parse_args()
    modes = args.modes or list(MODES)
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode {unknown[0]!r} (modes: {', '.join(MODES)})")
    if not 1 <= args.writers <= 4:
        parser.error("--writers: 1 to 4")
    workdir = Path(tempfile.mkdtemp(prefix="stress-", dir=args.dir))
    start = time.perf_counter()
    result: dict[str, object] = {}
    try:
        if "kills" in modes:
            log(f"kills: {args.kills} in {workdir}")
            result["kills"] = kills(args.kills, workdir / "kills", args.seed)
        if "two-writers" in modes:
            log(f"two writers: {args.two_writer_runs} runs of {args.updates} rounds each")
            result["two_writers"] = two_writers(args.two_writer_runs, args.updates, workdir / "two")
        if "save" in modes:
            log(f"durable save time at 19 and {args.papers} papers")
            result["save"] = save_times([19, args.papers], args.samples, workdir)
        if "concurrent" in modes:
            first = "the window" if args.window else "a Library" if args.api else "a command line"
            log(
                f"concurrent: {args.writers} writers ({first} and command lines, devices: "
                f"{args.devices}) on one paper for {args.seconds} s"
            )
            result["concurrent"] = concurrent(
                args.writers,
                args.seconds,
                args.window,
                args.api,
                args.devices,
                workdir / "concurrent",
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))
    checked = result.get("concurrent")
    if isinstance(checked, dict) and (checked["lost"] or not checked["last_writes_ok"]):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Small hostile inputs: overlong integers in JSON, characters that reorder or hide text,
files of nothing but unusable items, file names that are not UTF-8, `note --edit` killed."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reader.core.normalise import normalise_tag, normalise_tags
from reader.formats import FormatError, export_papers, read_papers

LIMIT = sys.get_int_max_str_digits()  # 4,300 unless the environment says otherwise
HUGE = "7" * (LIMIT + 700)


def _cli(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    """The command line in a process of its own (the signal tests need one)."""
    return subprocess.run(
        [sys.executable, "-m", "reader", *args],
        capture_output=True,
        text=True,
        errors="replace",
        env={**os.environ, **(env or {})},
        timeout=120,
        **kw,
    )


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# --- 1. integers longer than Python converts --------------------------------------------


def test_an_overlong_year_is_read_as_empty_with_a_warning(tmp_path: Path) -> None:
    path = _write(tmp_path, "big.json", f'[{{"title": "A paper", "year": {HUGE}}}]')
    result = read_papers(path)
    [paper] = result.records
    assert (paper.title, paper.year) == ("A paper", None)
    assert [str(w) for w in result.warnings] == [
        f"big.json: 1 number of over {LIMIT:,} digits read as empty"
    ]


def test_an_overlong_id_is_read_as_empty_the_paper_kept(tmp_path: Path) -> None:
    text = json.dumps(
        [{"title": "One", "id": 0}, {"title": "Two", "id": 1, "year": 2024, "n": [2, 3]}]
    )
    text = text.replace(": 0", ": " + HUGE).replace("[2, 3]", f"[{HUGE}, -{HUGE}]")
    result = read_papers(_write(tmp_path, "ids.json", text))
    assert [(p.title, p.year) for p in result.records] == [("One", None), ("Two", 2024)]
    assert HUGE[:50] not in result.records[0].id  # no id of its own: one made from the title
    assert [str(w) for w in result.warnings] == [
        f"ids.json: 3 numbers of over {LIMIT:,} digits read as empty"
    ]


def test_an_overlong_integer_in_our_own_export(tmp_path: Path) -> None:
    text = json.dumps(
        {
            "format": "paper-reader",
            "version": 1,
            "papers": [{"id": "p1", "title": "T", "year": 0}],
            "annotations": [{"paper_id": "p1", "rating": 0, "note": "n"}],
        }
    ).replace(": 0", ": " + HUGE)
    result = read_papers(_write(tmp_path, "ours.json", text))
    assert [(p.id, p.year) for p in result.records] == [("p1", None)]
    assert [(a.paper_id, a.rating, a.note) for a in result.annotations] == [("p1", 0, "n")]


def test_the_command_line_imports_an_overlong_integer_without_a_traceback(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, "big.json", f'[{{"title": "A paper", "year": {HUGE}}}]')
    done = _cli("--data-dir", str(tmp_path / "lib"), "import", str(path))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[:2] == [
        f"{path}: 1 added, 0 updated, 0 unchanged, 0 skipped",
        f"big.json: 1 number of over {LIMIT:,} digits read as empty",
    ]


# --- 2. bidi controls and invisible format characters ------------------------------------

RLO, PDF, LRI, PDI, ZWSP, BOM = "\u202e", "\u202c", "\u2066", "\u2069", "\u200b", "\ufeff"
#: real text that needs its invisible characters: RLM in Hebrew, ZWNJ in Persian, a ZWJ
#: emoji sequence, a soft hyphen, England's flag (tag characters)
KEPT = [
    "שלום\u200f (2024)",
    "می\u200cخواهم",
    "\U0001f469\u200d\U0001f52c lab",
    "Hyphen\u00adation",
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f team",
]


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"Invoice {RLO}fdp.exe", "Invoice fdp.exe"),
        (f"{LRI}Nested{PDI} {RLO}over{PDF}ride", "Nested override"),
        (f"Zero{ZWSP}width{BOM} words \u2060joined", "Zerowidth words joined"),
        ("Smuggled\U000e0041\U000e0042 text", "Smuggled text"),
        *[(text, text) for text in KEPT],
    ],
)
def test_titles_authors_venues_lose_what_reorders_or_hides_text(
    tmp_path: Path, raw: str, shown: str
) -> None:
    items = [
        {"title": raw, "authors": [raw], "venue": raw},  # our own keys: the quick path
        {"Title": raw, "author": raw, "journal": raw},  # aliases: the careful path
    ]
    result = read_papers(_write(tmp_path, "bidi.json", json.dumps(items, ensure_ascii=False)))
    for paper in result.records:
        assert (paper.title, paper.authors, paper.venue) == (shown, (shown,), shown)


def test_every_format_drops_a_right_to_left_override(tmp_path: Path) -> None:
    title = f"Report {RLO}gnp.exe"
    abstract = f"An abstract {RLO}long enough to be one, with a few more words in it."
    files = {
        "a.csv": f"title,authors,venue,tags\n{title},Ann {RLO}Lee,{RLO}ICML,x{RLO}y\n",
        "a.ris": f"TY  - JOUR\nTI  - {title}\nAU  - Lee, {RLO}Ann\nER  - \n",
        "a.bib": f"@article{{k,\n  title = {{{title}}},\n  author = {{Ann {RLO}Lee}}\n}}\n",
        "a.txt": abstract + "\n",
        "a.json": json.dumps(
            {
                "format": "paper-reader",
                "version": 1,
                "papers": [{"id": "p", "title": title, "authors": [f"A{RLO}nn"]}],
                "annotations": [{"paper_id": "p", "tags": [f"t{RLO}ag"], "note": f"my {RLO}"}],
                "tag_colours": {f"t{RLO}ag": "#ff0000"},
            }
        ),  # ASCII with "\u202e" escapes, as our export writes it
    }
    for name, text in files.items():
        result = read_papers(_write(tmp_path, name, text))
        for paper in result.records:
            assert RLO not in repr(paper), name
        tags = [tag for annotation in result.annotations for tag in annotation.tags]
        assert RLO not in "".join(tags) + "".join(result.tag_colours), name
    assert read_papers(tmp_path / "a.csv").annotations[0].tags == ("xy",)
    native = read_papers(tmp_path / "a.json")
    assert native.annotations[0].note == f"my {RLO}"  # the user's own note: kept as written


def test_tags_lose_what_reorders_or_hides_text() -> None:
    assert normalise_tag(f" to{RLO}do{PDF} ") == "todo"
    assert normalise_tags([f"{LRI}a{PDI}", "a", f"b{ZWSP}"]) == ["a", "b"]
    assert normalise_tags(KEPT) == KEPT


def test_markdown_file_names_come_from_the_cleaned_titles(tmp_path: Path) -> None:
    text = json.dumps([{"title": f"Invoice {RLO}fdp.exe"}], ensure_ascii=False)
    [paper] = read_papers(_write(tmp_path, "x.json", text)).records
    names = export_papers([(paper, None)], "markdown")
    assert list(names) == ["Invoice fdp.exe.md"]


# --- 3. a file of nothing but unusable items ---------------------------------------------


def test_a_million_numbers_are_counted_and_the_first_few_named(tmp_path: Path) -> None:
    path = _write(tmp_path, "nums.json", json.dumps(list(range(1_000_000))))
    with pytest.raises(FormatError) as info:
        read_papers(path)
    assert str(info.value) == (
        "nums.json: no papers found as JSON: item 1: not an object but int; item 2: not an"
        " object but int; item 3: not an object but int; and 999,997 more (1,000,000 items"
        " skipped, none usable)"
    )


def test_a_million_objects_without_title_or_abstract(tmp_path: Path) -> None:
    items = [{"id": "x"}, {"authors": ["A"]}, {"title": " "}] + [{"year": 2020}] * 999_997
    path = _write(tmp_path, "empty.json", json.dumps(items))
    started = time.perf_counter()
    with pytest.raises(FormatError) as info:
        read_papers(path)
    took = time.perf_counter() - started
    assert str(info.value) == (
        "empty.json: no papers found as JSON: item 1: no title and no abstract; item 2: no"
        " title and no abstract; item 3: no title and no abstract; and 999,997 more"
        " (1,000,000 items skipped, none usable)"
    )
    assert took < 60  # (~1-4 s, 14 s before; a bound for a loaded machine)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "rows.csv",
            "title,venue\n" + " ,ICML\n" * 5,
            "rows.csv: no papers found as CSV: rows.csv:line 2: no title and no abstract;"
            " rows.csv:line 3: no title and no abstract; rows.csv:line 4: no title and no"
            " abstract; and 2 more (5 items skipped, none usable)",
        ),
        (
            "two.json",
            '[1, {"id": "x"}]',
            "two.json: no papers found as JSON: item 1: not an object but int; item 2: no"
            " title and no abstract",
        ),
        (
            "short.txt",
            "Tiny.\n\nSmall.\n",
            "short.txt: no papers found as Plain text abstracts: short.txt:line 1: too short"
            " for an abstract: 'Tiny.'; short.txt:line 3: too short for an abstract: 'Small.'",
        ),
    ],
)
def test_none_usable_in_other_formats(tmp_path: Path, name: str, text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        read_papers(_write(tmp_path, name, text))
    assert str(info.value) == message


def test_the_command_line_says_it_in_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "nums.json", json.dumps(list(range(10))))
    done = _cli("--data-dir", str(tmp_path / "lib"), "import", str(path))
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "paper-reader: error: nums.json: no papers found as JSON: item 1: not an object but"
        " int; item 2: not an object but int; item 3: not an object but int; and 7 more"
        " (10 items skipped, none usable)"
    )


# --- 6. file names that are not UTF-8 -----------------------------------------------------

needs_bytes_names = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="file names there are always Unicode"
)


def _latin1_named(tmp_path: Path, suffix: str, text: str) -> Path:
    folder = os.fsencode(tmp_path)
    name = folder + b"/lat\xe9" + suffix.encode()
    with open(name, "w", encoding="utf-8") as fh:
        fh.write(text)
    return Path(os.fsdecode(name))


@needs_bytes_names
@pytest.mark.parametrize(
    ("suffix", "text"),
    [
        (".json", '[{"title": "From a Latin-1 name", "year": 2024}]'),
        (".csv", "title,year\nFrom a Latin-1 name,2024\n"),
        (".ris", "TY  - JOUR\nTI  - From a Latin-1 name\nER  - \n"),
        (".bib", "@article{k, title = {From a Latin-1 name}}\n"),
        (".txt", "From a Latin-1 name, an abstract long enough to be read as one.\n"),
    ],
)
def test_a_file_name_that_is_not_utf8_becomes_a_shown_source(
    tmp_path: Path, suffix: str, text: str
) -> None:
    result = read_papers(_latin1_named(tmp_path, suffix, text))
    [paper] = result.records
    assert paper.source == f"lat\ufffd{suffix}"
    paper.source.encode("utf-8")  # storable: no lone surrogate


@needs_bytes_names
def test_a_file_name_that_is_not_utf8_is_imported_into_a_library(tmp_path: Path) -> None:
    from reader.importing import import_files
    from reader.opening import open_library

    path = _latin1_named(tmp_path, ".json", '[{"title": "From a Latin-1 name"}]')
    folder = tmp_path / "lib"
    lib = open_library(folder).library
    report = import_files(lib, [path])
    assert report.added == 1
    again = open_library(folder).library  # as read back from papers.json
    [paper] = [p for p in again.papers() if p.title == "From a Latin-1 name"]
    assert paper.source == "lat\ufffd.json"


@needs_bytes_names
def test_the_command_line_imports_and_reports_such_a_file(tmp_path: Path) -> None:
    path = _latin1_named(tmp_path, ".json", '[{"title": "From a Latin-1 name"}]')
    folder = str(tmp_path / "lib")
    done = _cli("--data-dir", folder, "import", str(path), env={"PYTHONIOENCODING": "utf-8"})
    assert (done.returncode, done.stderr.count("\n")) == (0, 1), done.stderr  # (the seeding)
    assert done.stdout.startswith(f"{tmp_path}/lat\ufffd.json: 1 added")


@needs_bytes_names
@pytest.mark.parametrize("fmt", ["json", "bibtex", "csv", "markdown"])
def test_the_command_line_exports_to_such_a_name(tmp_path: Path, fmt: str) -> None:
    folder = str(tmp_path / "lib")
    target = os.fsdecode(os.fsencode(tmp_path) + b"/lat\xe9-" + fmt.encode())
    done = _cli("--data-dir", folder, "export", "--format", fmt, "-o", target)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == f"exported 19 papers to {tmp_path}/lat\ufffd-{fmt}"
    assert os.path.exists(os.fsencode(target))


# --- 4. `note --edit` stopped by a signal ---------------------------------------------------

FAKE_EDITOR = """\
import os, signal, sys, time
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, lambda *_: sys.exit(1))  # quietly, as an editor would
seen, sleep, note = sys.argv[1:]  # (the command's own words, then the file to edit)
with open(seen, "w") as fh:
    fh.write(f"{os.getpid()} {note}")
time.sleep(float(sleep))
with open(note, "a") as fh:
    fh.write("edited")
"""


@pytest.fixture
def edit_env(tmp_path: Path):
    """(library folder, a paper id, a function making the environment of an --edit whose
    editor writes the file it was given to `seen` and sleeps `sleep` seconds)."""
    from reader.opening import open_library

    folder = tmp_path / "lib"
    lib = open_library(folder).library
    pid = sorted(lib.paper_ids())[0]
    script = tmp_path / "fake_editor.py"
    script.write_text(FAKE_EDITOR, encoding="utf-8")
    (tmp_path / "tmp").mkdir()

    def env(seen: Path, sleep: float) -> dict[str, str]:
        return {
            "EDITOR": f"{sys.executable} {script} {seen} {sleep}",
            "VISUAL": "",
            "READER_CACHE_DIR": str(tmp_path / "cache"),
            "TMPDIR": str(tmp_path / "tmp"),
        }

    return folder, pid, env


def _wait_for(path: Path, seconds: float = 60) -> tuple[int, Path]:
    """(pid, file to edit) of the fake editor once it wrote them to `path`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.exists() and path.read_text():
            pid, name = path.read_text().split(" ", 1)
            return int(pid), Path(name)
        time.sleep(0.05)
    raise AssertionError(f"{path} never written")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_note_edit_stopped_by_a_signal_leaves_no_file(tmp_path: Path, edit_env, signum) -> None:
    folder, pid, env = edit_env
    seen, stderr = tmp_path / "seen", tmp_path / "stderr"
    with open(stderr, "wb") as err_file:  # (a file: an editor left running holds no pipe)
        editing = subprocess.Popen(
            [sys.executable, "-m", "reader", "--data-dir", str(folder), "note", pid, "--edit"],
            stdout=subprocess.DEVNULL,
            stderr=err_file,
            env={**os.environ, **env(seen, 60)},
        )
    editor = 0
    try:
        editor, note_file = _wait_for(seen)
        assert note_file.exists()
        editing.send_signal(signum)
        editing.wait(timeout=60)
    finally:
        editing.kill()
        editing.wait()
        if editor:
            with contextlib.suppress(ProcessLookupError):
                os.kill(editor, signal.SIGKILL)  # (one left running: a failure already)
    assert not note_file.exists()
    err = stderr.read_text(encoding="utf-8")
    assert editing.returncode != 0
    name = signal.Signals(signum).name
    assert err.splitlines() == [
        f"paper-reader: error: stopped by {name} while editing; note unchanged"
    ]
    assert note_file.parent == tmp_path / "cache" / "notes"  # not the library, nor /tmp
    assert oct(note_file.parent.stat().st_mode & 0o777) == "0o700"
    assert os.listdir(tmp_path / "cache" / "notes") == []
    assert os.listdir(tmp_path / "tmp") == []
    shown = _cli("--data-dir", str(folder), "show", pid, "--json")
    assert json.loads(shown.stdout)["note"] == ""


@pytest.mark.skipif(sys.platform == "win32", reason="file modes")
def test_note_edit_removes_files_a_killed_edit_left(tmp_path: Path, edit_env) -> None:
    folder, pid, env = edit_env
    notes = tmp_path / "cache" / "notes"
    notes.mkdir(parents=True)
    old, recent = notes / "note-old.md", notes / "note-recent.md"
    for path in (old, recent):
        path.write_text("left behind", encoding="utf-8")
    two_days_ago = time.time() - 2 * 24 * 3600
    os.utime(old, (two_days_ago, two_days_ago))
    done = _cli("--data-dir", str(folder), "note", pid, "--edit", env=env(tmp_path / "seen", 0))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{pid}: note saved (6 characters)\n"
    assert sorted(os.listdir(notes)) == ["note-recent.md"]  # (one of an edit going on, maybe)
    assert _wait_for(tmp_path / "seen")[1].parent == notes


def test_an_annotation_too_big_to_store_is_skipped_the_paper_imported(tmp_path: Path) -> None:
    from reader.core.cleaning import MAX_NOTE_CHARS
    from reader.importing import import_files
    from reader.opening import open_library

    source = tmp_path / "ours.json"
    source.write_text(
        json.dumps(
            {
                "format": "paper-reader",
                "version": 1,
                "papers": [{"id": "p1", "title": "Paper One"}, {"id": "p2", "title": "Paper Two"}],
                "annotations": [
                    {"paper_id": "p1", "note": "n" * (MAX_NOTE_CHARS + 1)},
                    {"paper_id": "p2", "note": "short", "tags": ["ok"]},
                ],
            }
        ),
        encoding="utf-8",
    )
    folder = tmp_path / "lib"
    report = import_files(open_library(folder).library, [source])
    assert (report.added, report.annotations) == (2, 1)
    [skipped] = report.skipped
    assert str(skipped.place) == "the annotations of paper p1"
    assert "over the limit" in str(skipped.reason)
    again = open_library(folder).library
    assert again.annotation("p1").note == "" and "p1" in again
    assert (again.annotation("p2").note, again.tags("p2")) == ("short", ("ok",))

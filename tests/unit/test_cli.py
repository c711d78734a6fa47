"""Every sub-command of the command line, with its error paths."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from reader import __version__
from reader.cli import main
from tests.helpers.libraries import own_file


def listed(run, *query):
    out, _ = run("list", *query, "--json")
    return json.loads(out)


def test_list_json_has_the_fields(run):
    papers = listed(run)
    assert len(papers) == 19
    for p in papers:
        assert {"id", "title", "authors", "status", "tags"} <= set(p)
        assert p["status"] == "unread" and p["tags"] == []


def test_list_text_and_query(run):
    out, _ = run("list", "distillation")
    lines = out.strip().splitlines()
    assert lines and all("\t" in line for line in lines)
    assert any("DA-KD" in line for line in lines)
    assert len(lines) < 19


def test_show_json_round_trips_ids(run):
    pid = listed(run)[0]["id"]
    out, _ = run("show", pid, "--json")
    paper = json.loads(out)
    assert paper["id"] == pid
    assert {
        "title",
        "authors",
        "abstract",
        "venue",
        "year",
        "url",
        "status",
        "tags",
        "note",
    } <= set(paper)


def test_show_text(run):
    pid = listed(run)[0]["id"]
    out, _ = run("show", pid)
    assert pid in out and "status: unread" in out


def test_status_tag_untag_note(run, tmp_path):
    pid = listed(run)[1]["id"]
    run("status", pid, "reading")
    run("tag", pid, "rl", "method/diffusion")
    run("untag", pid, "rl")
    run("note", pid, "--set", "first **note**")
    paper = json.loads(run("show", pid, "--json")[0])
    assert paper["status"] == "reading"
    assert paper["tags"] == ["method/diffusion"]
    assert paper["note"] == "first **note**"
    note_file = tmp_path / "note.md"
    note_file.write_text("from a file ∑\n", encoding="utf-8")
    run("note", pid, "--file", str(note_file))
    assert json.loads(run("show", pid, "--json")[0])["note"] == "from a file ∑\n"
    tagged = listed(run, "tag:method")
    assert [p["id"] for p in tagged] == [pid]


def test_note_edit_uses_editor(run, monkeypatch, tmp_path):
    pid = listed(run)[2]["id"]
    script = tmp_path / "fake_editor.py"
    script.write_text("import sys\nopen(sys.argv[1], 'a').write('edited')\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    run("note", pid, "--edit")
    assert json.loads(run("show", pid, "--json")[0])["note"] == "edited"


def test_id_prefix_is_accepted(run):
    pid = listed(run)[0]["id"]
    run("status", pid[:-2], "read")
    assert json.loads(run("show", pid, "--json")[0])["status"] == "read"


@pytest.mark.parametrize(
    "args, message",
    [
        (("show", "no-such-id"), "no paper with id 'no-such-id'"),
        (("status", "no-such-id", "read"), "no paper"),
        (("tag", "no-such-id", "x"), "no paper"),
        (("note", "no-such-id", "--set", "x"), "no paper"),
    ],
)
def test_unknown_id_fails_cleanly_and_writes_nothing(run, library_dir, args, message):
    run("list")  # seed
    before = own_file(library_dir).read_bytes()
    _, err = run(*args, expect=2)
    assert message in err and len(err.strip().splitlines()) == 1
    assert own_file(library_dir).read_bytes() == before


def test_unknown_status_fails_cleanly(run, library_dir):
    pid = listed(run)[0]["id"]
    before = own_file(library_dir).read_bytes()
    _, err = run("status", pid, "done", expect=2)
    assert "unknown status 'done'" in err
    assert own_file(library_dir).read_bytes() == before


def test_unreadable_data_dir(tmp_path, capsys):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x")
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", str(not_a_dir), "list"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "cannot open library" in err and str(not_a_dir) in err


def test_note_file_missing(run):
    pid = listed(run)[0]["id"]
    _, err = run("note", pid, "--file", "/nonexistent/x.md", expect=2)
    assert "cannot read /nonexistent/x.md" in err


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_real_program_with_env_data_dir(tmp_path):
    env = {**os.environ, "READER_DATA_DIR": str(tmp_path / "lib")}
    out = subprocess.run(
        [sys.executable, "-m", "reader", "list", "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert len(json.loads(out)) == 19
    bad = subprocess.run(
        [sys.executable, "-m", "reader", "status", "zzz", "read"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert bad.returncode != 0 and "no paper with id 'zzz'" in bad.stderr


def test_an_import_writes_a_catalogue_file_and_the_next_open_reads_none(
    run, library_dir, monkeypatch
):
    """An import is one new file in this device's papers/ (nothing rewritten); the next
    open takes the papers from the catalogue's index, no file parsed again."""
    from reader.store import catalogue_db
    from tests.datafiles import ICML_LIST
    from tests.helpers.libraries import catalogue_files

    run("list")  # a new library: the sample's 19 papers
    first = catalogue_files(library_dir)
    run("import", str(ICML_LIST))
    now = catalogue_files(library_dir)
    assert len(now) == 2 and now.items() >= first.items()
    run("import", str(library_dir / "nothing.json"), expect=2)  # a failed import
    run("import", str(ICML_LIST))  # nothing new: no file
    assert catalogue_files(library_dir) == now
    read = []
    monkeypatch.setattr(catalogue_db, "scan_file", lambda *a: read.append(a))
    assert len(listed(run)) > 3000 and read == []


def test_an_import_says_when_it_moved_a_file_named_backups_aside(run, library_dir, tmp_path):
    pid = listed(run)[0]["id"]
    run("tag", pid, "kept")
    backups = library_dir / "backups"
    if backups.exists():  # (with a folder per device in it: backups/this-device/)
        shutil.rmtree(backups)
    backups.write_bytes(b"not a folder")
    source = tmp_path / "more.json"
    source.write_text(json.dumps([{"title": "Imported Afterwards", "authors": ["A. Author"]}]))

    _, err = run("import", str(source))

    [aside] = library_dir.glob("backups.not-a-folder-*")
    assert aside.read_bytes() == b"not a folder"
    assert f"was not a folder: it was moved aside as {aside}" in err
    assert any("Imported Afterwards" in p["title"] for p in listed(run))

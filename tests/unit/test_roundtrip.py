"""A JSON export imported into an empty library reproduces the library exactly."""

from reader import opening
from reader.cli import main
from reader.core.models import Highlight, Status
from reader.exporting import export_to
from reader.importing import import_files
from reader.opening import open_library
from tests.datafiles import ICML_LIST, SEED_TEXT
from tests.helpers.libraries import catalogue_files


def test_json_round_trip_through_cli_is_exact(library, library_dir, tmp_path, capsys, monkeypatch):
    ids = library.paper_ids()
    # the fresh library is seeded with the bundled sample as the first one was, and the
    # import keeps when a paper entered it: seeded in the same second as the first
    monkeypatch.setattr(opening, "now_iso", lambda: library.paper(ids[0]).added)
    library.set_status(ids[:3], Status.READ)
    library.add_tags(ids[1:4], ["method/diffusion", "rl"])
    library.set_note(ids[2], "Note with $\\Theta$ and 中文")
    library.set_highlights(
        ids[2], [Highlight("h1", "knowledge", "a ", " b", "claim", "why?", "2026-01-01")]
    )
    library.set_tag_colours({"rl": "#112233"})
    out = tmp_path / "all.json"
    export_to(library, ids, "json", out)
    fresh_dir = tmp_path / "fresh"
    assert main(["--data-dir", str(fresh_dir), "import", str(out)]) == 0
    fresh = open_library(fresh_dir, seed=False).library
    assert {p.id: p for p in fresh.papers()} == {p.id: p for p in library.papers()}
    for pid in ids:
        assert fresh.annotation(pid) == library.annotation(pid), pid
    assert fresh.tag_colours() == {"rl": "#112233"}


def test_reimport_changes_nothing_and_never_touches_annotations(library, library_dir):
    pid = library.paper_ids()[0]
    library.set_note(pid, "mine")
    report = import_files(library, [SEED_TEXT])
    assert (report.added, report.updated) == (0, 0)
    first = import_files(library, [ICML_LIST])
    before = catalogue_files(library_dir)
    again = import_files(library, [ICML_LIST])
    assert first.added > 3000 and again.added == 0 and again.updated == 0
    assert library.annotation(pid).note == "mine"
    assert catalogue_files(library_dir) == before  # nothing new: no file written


def test_bad_import_leaves_library_byte_identical(library_dir, tmp_path, capsys):
    main(["--data-dir", str(library_dir), "list"])
    junk = tmp_path / "junk.bib"
    junk.write_bytes(bytes(range(256)) * 64)

    def files_of(folder):
        return {
            str(p.relative_to(folder)): p.read_bytes()
            for p in folder.rglob("*")
            if p.is_file() and "backups" not in p.parts
        }

    files = files_of(library_dir)
    capsys.readouterr()
    import pytest

    with pytest.raises(SystemExit) as info:
        main(["--data-dir", str(library_dir), "import", str(junk)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "junk.bib" in err and len(err.strip().splitlines()) == 1
    assert files_of(library_dir) == files


def test_export_cli_formats(library_dir, tmp_path, capsys):
    main(["--data-dir", str(library_dir), "tag", next(iter(_ids(library_dir))), "x"])
    capsys.readouterr()
    assert main(["--data-dir", str(library_dir), "export", "--format", "csv", "tag:x"]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 2  # header + one paper
    folder = tmp_path / "vault"
    assert (
        main(["--data-dir", str(library_dir), "export", "--format", "markdown", "-o", str(folder)])
        == 0
    )
    files = list(folder.glob("*.md"))
    assert len(files) == 19 and all(f.read_text("utf-8").startswith("---\n") for f in files)
    assert capsys.readouterr().err == f"exported 19 papers to {folder}\n"
    one = tmp_path / "one.bib"
    assert (
        main(
            [
                "--data-dir",
                str(library_dir),
                "export",
                "--format",
                "bibtex",
                "-o",
                str(one),
                "tag:x",
            ]
        )
        == 0
    )
    assert capsys.readouterr().err == f"exported 1 paper to {one}\n"


def _ids(library_dir):
    return open_library(library_dir).library.paper_ids()

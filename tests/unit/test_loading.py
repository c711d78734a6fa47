"""A big papers.json is parsed in pieces: exactly what one whole parse gives, or the same
error; a library opens the same either way."""

import json
import sys
from pathlib import Path

import orjson
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import make_library, synthetic_papers

import reader.store.pieces as pieces
from reader.opening import open_library
from reader.store.files import LibraryFolder
from reader.store.storage import DamagedFileError, load_document


@pytest.fixture
def small_pieces(monkeypatch):
    """Piecewise parsing for files of any size, in pieces of 64 bytes (so that these small
    files are read as a big papers.json is; what is checked is what is read)."""
    monkeypatch.setattr(pieces, "PIECEWISE_MIN_BYTES", 1)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 64)


TRICKY = {
    "p1": {"title": 'ends with },"', "authors": ["A"], "ids": {"doi": {"x": 1}, "y": '},"z":{'}},
    "p2": {
        "title": "\\",
        "abstract": '},"p9":{"title":"forged"}',
        "nested": {"a": {"b": {}}, "c": []},
    },
    "p3": {"title": "ünïcödé ∑ 中文 \u2028 😀", "n": [1, 2.5, None, True, {"k": '},"'}]},
    "p,4": {},
    'p"5': {"x": "}}"},
}


def test_pieces_give_exactly_the_whole_parse(tmp_path, small_pieces):
    docs = {**TRICKY, **{f"q{i}": {"title": f"t{i}" + '},"' * (i % 3), "i": i} for i in range(300)}}
    path = tmp_path / "papers.json"
    raw = orjson.dumps({"papers": docs}, option=orjson.OPT_APPEND_NEWLINE)
    path.write_bytes(raw)
    data = load_document(path)
    assert data == json.loads(raw)
    assert list(data["papers"]) == list(docs)  # order kept
    handed: list[int] = []  # the documents load_document's transform is given at a time
    assert load_document(path, lambda docs: handed.append(len(docs)) or docs) == data
    assert len(handed) > 10 and sum(handed) == len(docs)  # really in pieces


@pytest.mark.parametrize(
    "document",
    [
        {"papers": {}},
        {"papers": {"a": {}}},
        {"papers": {"a": {"x": 1}}, "other": {"b": {"y": '},"'}}},  # two tables: whole parse
        {"_default": {}, "papers": {"a": {}}},
        {'p\\a"pers': {"a": {"x": "}}"}}},  # a name with escapes
    ],
)
def test_other_shapes_fall_back_to_a_whole_parse(tmp_path, small_pieces, document):
    path = tmp_path / "papers.json"
    path.write_bytes(orjson.dumps(document))
    assert load_document(path) == document


def test_an_indented_file_reads_the_same(tmp_path, small_pieces):
    path = tmp_path / "papers.json"
    document = {"papers": TRICKY}
    path.write_text(json.dumps(document, indent=2), "utf-8")
    assert load_document(path) == document


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # torn
        lambda raw: raw[:-3],  # the end missing
        lambda raw: raw.replace(b'"q7":{"title":"t7"}', b'"q7":["t7"]', 1),  # not an object
        lambda raw: raw.replace(b'"t9"', b'"t9', 1),  # an unterminated string
        lambda raw: raw + b"garbage",
        lambda raw: raw[:200] + b"\x00" * 4096 + raw[200:],
    ],
    ids=["torn", "no-end", "not-an-object", "unterminated", "trailing-garbage", "nul-run"],
)
def test_a_damaged_big_file_is_damaged_piecewise_too(tmp_path, small_pieces, damage):
    docs = {f"q{i}": {"title": f"t{i}"} for i in range(100)}
    path = tmp_path / "papers.json"
    path.write_bytes(damage(orjson.dumps({"papers": docs}, option=orjson.OPT_APPEND_NEWLINE)))
    with pytest.raises(DamagedFileError, match="papers.json"):
        load_document(path)


def test_a_document_bigger_than_a_piece(tmp_path, small_pieces):
    docs = {"a": {"abstract": "x" * 1000}, "b": {"abstract": '},"' * 500}, "c": {}}
    path = tmp_path / "papers.json"
    path.write_bytes(orjson.dumps({"papers": docs}))
    assert load_document(path) == {"papers": docs}


def test_a_transform_sees_every_document_once(tmp_path, small_pieces):
    docs = {f"q{i}": {"i": i} for i in range(200)}
    path = tmp_path / "papers.json"
    path.write_bytes(orjson.dumps({"papers": docs}))
    seen = []

    def transform(piece):
        seen.extend(piece)
        return {k: v["i"] for k, v in piece.items()}

    assert load_document(path, transform) == {"papers": {f"q{i}": i for i in range(200)}}
    assert seen == list(docs)


@pytest.mark.parametrize("piecewise", [False, True], ids=["whole", "pieces"])
def test_a_library_opens_the_same_whether_its_files_are_read_whole_or_in_pieces(
    tmp_path, monkeypatch, piecewise
):
    if piecewise:
        monkeypatch.setattr(pieces, "PIECEWISE_MIN_BYTES", 1)
        monkeypatch.setattr(pieces, "PIECE_BYTES", 256)
    folder = tmp_path / "library"
    made = synthetic_papers(50, abstract_chars=100)
    make_library(folder, made)
    open_library(folder).library.set_note("p000001", "read me")
    opened = open_library(folder)
    assert opened.library.papers() == made
    assert opened.library.annotation("p000001").note == "read me"
    assert opened.messages == []


def test_an_import_keeps_the_papers_another_process_added_meanwhile(tmp_path):
    folder = tmp_path / "library"
    make_library(folder, synthetic_papers(3))
    mine = open_library(folder)
    other = LibraryFolder(folder)
    other.add_papers(synthetic_papers(1, prefix="other"))
    mine.library.add_papers(synthetic_papers(1, prefix="mine"))
    ids = {p.id for p in LibraryFolder(folder).load_papers()}
    assert ids == {"p000000", "p000001", "p000002", "other000000", "mine000000"}

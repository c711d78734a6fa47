"""reader.core.merge: how an import matches the library and fills only what is missing."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core.merge import (
    FILLABLE,
    ImportPlan,
    abstract_key,
    fill_missing,
    match_key,
    plan_import,
)
from reader.core.models import Paper
from reader.core.normalise import fold_key, make_paper_id, normalise_title
from tests.datafiles import ICML_LIST, SEED_JSON

ABSTRACT = (
    "We propose difficulty-aware knowledge distillation (DA-KD) for efficient LLMs; it "
    "beats prior methods by 2% with half the training cost."
)


def p(pid: str, title: str = "", **fields: object) -> Paper:
    return Paper(id=pid, title=title, **fields)  # type: ignore[arg-type]


def lib(*papers: Paper) -> dict[str, Paper]:
    return {paper.id: paper for paper in papers}


def summary(plan: ImportPlan) -> tuple[list[str], list[str], int, list[str]]:
    return (
        [x.id for x in plan.added],
        [x.id for x in plan.updated],
        plan.unchanged,
        [str(s.place) for s in plan.skipped],
    )


def test_new_papers_are_added() -> None:
    plan = plan_import({}, [p("a", "A"), p("b", "B")])
    assert summary(plan) == (["a", "b"], [], 0, [])


def test_same_id_fills_only_empty_fields() -> None:
    existing = p("a", "Title", venue="ICML 2025", year=None, authors=())
    incoming = p("a", "Other title", venue="NeurIPS", year=2025, authors=("X",), track="main")
    plan = plan_import(lib(existing), [incoming])
    (updated,) = plan.updated
    assert updated == p("a", "Title", venue="ICML 2025", year=2025, authors=("X",), track="main")


def test_nothing_to_fill_is_unchanged() -> None:
    existing = p("a", "Title", venue="ICML 2025")
    plan = plan_import(lib(existing), [p("a", "Title"), p("a", "Title", venue="X")])
    assert summary(plan) == ([], [], 1, ["paper a"])


@pytest.mark.parametrize(
    ("incoming", "how"),
    [
        (p("new", "Different", doi="10.1/ABC"), "doi"),
        (p("new", "Different", arxiv="2501.00001"), "arxiv"),
        (p("new", "  the DA-KD: Difficulty-aware  knowledge distillation!"), "title"),
        (p("new", "Derived…", abstract=ABSTRACT.upper(), title_derived=True), "abstract"),
        (p("new", "", abstract=" ".join(ABSTRACT.replace(";", " ;").split())), "abstract"),
    ],
)
def test_match_kinds(incoming: Paper, how: str) -> None:
    existing = p(
        "old",
        "The DA-KD: Difficulty-Aware Knowledge Distillation",
        doi="10.1/abc",
        arxiv="2501.00001",
        abstract=ABSTRACT,
    )
    plan = plan_import(lib(existing), [incoming])
    assert plan.added == []
    assert plan.id_map == {"new": "old"}
    assert [x.id for x in plan.updated] + ["old"] * plan.unchanged == ["old"]


def test_order_id_before_doi_before_title() -> None:
    a = p("a", "Shared title", doi="10.1/a")
    b = p("b", "Other", doi="10.1/b")
    plan = plan_import(lib(a, b), [p("b", "Shared title", doi="10.1/a")])
    assert plan.id_map == {}  # the id wins
    plan = plan_import(lib(a, b), [p("c", "Other", doi="10.1/a")])
    assert plan.id_map == {"c": "a"}  # the DOI before the title


def test_different_dois_veto_a_title_match() -> None:
    existing = p("a", "Introduction", doi="10.1/a")
    plan = plan_import(lib(existing), [p("b", "Introduction", doi="10.1/b")])
    assert [x.id for x in plan.added] == ["b"]


def test_real_titles_that_differ_are_not_matched_by_abstract() -> None:
    existing = p("a", "Workshop version", abstract=ABSTRACT)
    plan = plan_import(lib(existing), [p("b", "Conference version", abstract=ABSTRACT)])
    assert [x.id for x in plan.added] == ["b"]


def test_derived_title_keeps_the_real_one() -> None:
    existing = p("t-1", "DA-KD: Difficulty-Aware Knowledge Distillation", abstract=ABSTRACT)
    incoming = p("a-1", "We propose difficulty-aware…", abstract=ABSTRACT, title_derived=True)
    plan = plan_import(lib(existing), [incoming])
    assert summary(plan) == ([], [], 1, [])


def test_real_title_replaces_a_derived_one() -> None:
    existing = p("a-1", "We propose difficulty-aware…", abstract=ABSTRACT, title_derived=True)
    incoming = p("t-1", "DA-KD", abstract=ABSTRACT, authors=("Changyi He",), venue="ICML 2025")
    (updated,) = plan_import(lib(existing), [incoming]).updated
    assert (updated.id, updated.title, updated.title_derived) == ("a-1", "DA-KD", False)
    assert updated.authors == ("Changyi He",)


def test_duplicates_within_the_batch() -> None:
    plan = plan_import({}, [p("x", "Same", doi="10.1/x"), p("y", "Same", venue="ICML")])
    assert [x.id for x in plan.added] == ["x"]
    assert plan.added[0].venue == "ICML"  # the repeat still fills what the first lacked
    assert [(str(s.place), str(s.reason)) for s in plan.skipped] == [
        ("paper y", "same paper as x (by title) earlier in this import")
    ]
    assert plan.id_map == {"y": "x"}


def test_reimport_yields_nothing_new() -> None:
    batch = [p("a", "A", abstract=ABSTRACT), p("b", "B", doi="10.1/b"), p("c", "C")]
    first = plan_import({}, batch)
    library = lib(*first.added)
    again = plan_import(library, batch)
    assert summary(again) == ([], [], 3, [])


def test_source_and_added_never_change() -> None:
    existing = p("a", "A", source="bundled sample", added="2025-01-01")
    merged = fill_missing(existing, p("a", "A", source="x.bib", added="2026-01-01", year=2025))
    assert (merged.source, merged.added, merged.year) == ("bundled sample", "2025-01-01", 2025)


def test_match_key_agrees_with_normalise_title() -> None:
    """Without TeX commands or compatibility forms, what the ids hash is what matches."""
    for title in ["DA-KD: Difficulty-Aware", "Café  Crème", "$K^2$VAE", "Ünïcödé", "a_b"]:
        assert match_key(title) == normalise_title(title).replace(" ", "").encode()
        assert match_key(title) == fold_key(title).encode()
    assert abstract_key("A b, c.") == abstract_key("a B c")
    assert abstract_key("A b c.") != abstract_key("A b d.")
    assert abstract_key("") == 0


def test_icml_list_against_the_bundled_sample() -> None:
    from reader.formats import read_papers

    sample = read_papers(SEED_JSON).records
    listing = read_papers(ICML_LIST).records
    plan = plan_import(lib(*sample), listing)
    assert len(plan.added) == 3340 - 19
    assert len(plan.updated) == 19  # each sample paper gains its track
    assert all(x.track == "main" and x.id.startswith("t-") for x in plan.updated)
    again = plan_import({**lib(*sample), **lib(*plan.updated), **lib(*plan.added)}, listing)
    assert summary(again) == ([], [], 3340, [])


def test_100k_against_100k() -> None:
    def paper(i: int, prefix: str) -> Paper:
        title = f"On the convergence of method {i} for sparse kernels"
        return Paper(id=f"{prefix}{i}", title=title, abstract=f"{ABSTRACT} Case {i}.", venue="V")

    existing = {x.id: x for x in (paper(i, "e") for i in range(100_000))}
    incoming = [paper(i, "s") for i in range(50_000, 150_000)]
    plan = plan_import(existing, incoming)
    assert (len(plan.added), len(plan.updated), plan.unchanged) == (50_000, 0, 50_000)
    # its speed is measured by bench/run.py (import_ms), never asserted here


def test_seed_abstracts_match_by_abstract_key() -> None:
    items = json.loads(SEED_JSON.read_text(encoding="utf-8"))
    papers = {make_paper_id(title=i["title"]): i for i in items}
    keys = {abstract_key(" ".join(i["abstract"].split())) for i in papers.values()}
    assert len(keys) == 19


# --- what any plan does, whatever the library and the batch ----------------------------------
# (generated libraries and batches full of near-matches: the same ids, DOIs, arXiv ids,
# titles and abstracts in different cases and spacings, empty fields)


def _few(*values: str) -> st.SearchStrategy[str]:
    return st.sampled_from(values)


papers = st.builds(
    Paper,
    id=_few("a", "b", "c", "d", "e", "f"),
    title=_few("", "A", "a!", "B", "Café", "Cafe\u0301", " "),
    abstract=_few("", ABSTRACT, ABSTRACT.upper(), "Other words.", "Ünï cödé"),
    doi=_few("", "", "10.1/x", "10.1/X ", "10.2/y", " "),
    arxiv=_few("", "", "2501.00001", "2501.00002"),
    title_derived=st.booleans(),
    venue=_few("", "V"),
    year=st.sampled_from([None, 2025]),
    authors=st.sampled_from([(), ("X",)]),
    source=_few("", "s"),
    added=_few("", "2025-01-01"),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(papers, max_size=6), st.lists(papers, max_size=8))
def test_a_plan_loses_nothing_and_accounts_for_every_paper(
    library: list[Paper], batch: list[Paper]
) -> None:
    existing = lib(*library)
    plan = plan_import(existing, batch)
    added, updated = [x.id for x in plan.added], [x.id for x in plan.updated]
    # new papers are new and listed once; the updated ones are the library's, once each
    assert len(set(added)) == len(added) and not set(added) & existing.keys()
    assert len(set(updated)) == len(updated) and set(updated) <= existing.keys()
    assert len(updated) + plan.unchanged <= len(existing)
    # every incoming paper is in the library afterwards, as itself or as the one it matched
    after = {**existing, **lib(*plan.updated), **lib(*plan.added)}
    assert all(plan.id_map.get(x.id, x.id) in after for x in batch)
    assert all(new != old and old in after for new, old in plan.id_map.items())
    # an updated paper keeps all it had (a derived title gives way to a real one) and gains
    # only what the batch brought
    for paper in plan.updated:
        before = existing[paper.id]
        assert paper != before
        assert (paper.id, paper.source, paper.added) == (before.id, before.source, before.added)
        for name in FILLABLE:
            value = getattr(paper, name)
            if getattr(before, name):
                assert value == getattr(before, name), name
            else:
                assert value in {getattr(x, name) for x in batch} | {getattr(before, name)}, name
        if before.title and not before.title_derived:
            assert (paper.title, paper.title_derived) == (before.title, False)
        else:
            assert paper.title in {x.title for x in batch} | {before.title}
    # an added paper is one of the batch's, filled (never changed) from its repeats
    for paper in plan.added:
        assert any(
            (x.id, x.source, x.added) == (paper.id, paper.source, paper.added)
            and all(
                getattr(paper, name) == getattr(x, name) for name in FILLABLE if getattr(x, name)
            )
            for x in batch
        ), paper

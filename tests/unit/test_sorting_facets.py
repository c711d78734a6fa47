"""Sort orders and facet counts over a real library."""

import pytest

from reader.core.facets import count_facets, tag_ancestors
from reader.core.models import Paper, Status
from reader.core.sorting import SORT_KEYS, sort_ids


@pytest.fixture
def lib(library):
    library.add_papers(
        [
            Paper(
                "z1",
                "Zebra models",
                ("A",),
                venue="NeurIPS 2023",
                year=2023,
                added="2026-01-02T00:00:00+00:00",
            ),
            Paper(
                "a1",
                "“Apple” of discord",
                ("B",),
                venue="ICLR 2024",
                year=2024,
                added="2026-01-03T00:00:00+00:00",
            ),
        ]
    )
    return library


def test_sort_by_title_ignores_quotes_and_case(lib):
    ids = sort_ids(lib, ["z1", "a1"], "title")
    assert ids == ["a1", "z1"]
    assert sort_ids(lib, ["z1", "a1"], "title", descending=True) == ["z1", "a1"]


@pytest.mark.parametrize("key", list(SORT_KEYS))
def test_every_sort_key_orders_the_whole_library(lib, key):
    ids = lib.paper_ids()
    assert sorted(sort_ids(lib, ids, key)) == sorted(ids)


def test_sort_by_year_status_and_changed(lib, monkeypatch):
    from reader.core import library as library_module

    assert sort_ids(lib, ["a1", "z1"], "year") == ["z1", "a1"]
    lib.set_status(["z1"], Status.READING)
    lib.set_status(["a1"], Status.READ)
    assert sort_ids(lib, ["a1", "z1"], "status") == ["z1", "a1"]
    assert sort_ids(lib, ["a1", "z1"], "added", descending=True) == ["a1", "z1"]
    # a1 changed in January, z1 in February (the clock the edits are stamped by)
    monkeypatch.setattr(library_module, "now_iso", lambda: "2026-01-01T00:00:00+00:00")
    lib.set_rating(["a1"], 1)
    monkeypatch.setattr(library_module, "now_iso", lambda: "2026-02-01T00:00:00+00:00")
    lib.set_rating(["z1"], 1)
    assert sort_ids(lib, ["a1", "z1"], "changed", descending=True) == ["z1", "a1"]


def test_unknown_sort_key(lib):
    with pytest.raises(ValueError):
        sort_ids(lib, [], "colour")


def test_tag_ancestors():
    assert tag_ancestors("a/b/c") == ["a", "a/b", "a/b/c"]
    assert tag_ancestors("rl") == ["rl"]


def test_facet_counts(lib):
    ids = lib.paper_ids()
    lib.add_tags(ids[:3], ["method/diffusion"])
    lib.add_tags(ids[2:4], ["method/flow", "rl"])
    lib.set_status(ids[:5], Status.READ)
    facets = count_facets(lib, ids)
    assert facets.status == {"unread": 16, "reading": 0, "read": 5}
    assert facets.tags["method"] == 4  # a paper with two method/* tags counts once
    assert facets.tags["method/diffusion"] == 3
    assert facets.tags["rl"] == 2
    assert facets.venue["ICML 2025"] == 19
    assert facets.year == {2025: 19, 2023: 1, 2024: 1}
    narrowed = count_facets(lib, ids[:2])
    assert narrowed.tags == {"method": 2, "method/diffusion": 2}

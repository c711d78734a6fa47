"""Tag rename/merge/delete, tag colours, saved searches and preferences on real files."""

import pytest

from reader.opening import open_library


@pytest.fixture
def lib(library):
    ids = library.paper_ids()
    library.add_tags(ids[:3], ["method/diffusion"])
    library.add_tags(ids[2:5], ["method/flow", "rl"])
    library.add_tags(ids[5:6], ["Method"])
    return library


def test_rename_renames_children_too(lib, library_dir):
    ids = lib.paper_ids()
    lib.rename_tag("method", "approach")
    assert lib.tags(ids[0]) == ("approach/diffusion",)
    assert lib.tags(ids[2]) == ("approach/diffusion", "approach/flow", "rl")
    assert lib.tags(ids[5]) == ("approach",)
    assert open_library(library_dir).library.tags(ids[2]) == lib.tags(ids[2])


def test_rename_onto_existing_tag_merges(lib):
    ids = lib.paper_ids()
    lib.rename_tag("method/flow", "method/diffusion")
    assert lib.tags(ids[2]) == ("method/diffusion", "rl")
    assert lib.tags(ids[3]) == ("method/diffusion", "rl")
    assert lib.tag_counts()["method/diffusion"] == 5


def test_delete_tag_keeps_children(lib):
    ids = lib.paper_ids()
    lib.delete_tag("method")
    assert lib.tags(ids[5]) == ()
    assert lib.tags(ids[0]) == ("method/diffusion",)
    lib.delete_tag("RL")
    assert "rl" not in lib.tag_counts()


def test_papers_with_tag(lib):
    ids = lib.paper_ids()
    assert sorted(lib.papers_with_tag("method")) == sorted(ids[:6])
    assert sorted(lib.papers_with_tag("rl")) == sorted(ids[2:5])


def test_tag_colours_persist_in_order_and_follow_renames(lib, library_dir):
    lib.set_tag_colours({"rl": "#FF0000", "method/flow": "#00ff00"})
    assert lib.tag_colours() == {"rl": "#ff0000", "method/flow": "#00ff00"}
    lib.rename_tag("rl", "reinforcement")
    assert lib.tag_colours() == {"reinforcement": "#ff0000", "method/flow": "#00ff00"}
    again = open_library(library_dir).library
    assert list(again.tag_colours()) == ["reinforcement", "method/flow"]
    with pytest.raises(ValueError):
        lib.set_tag_colours({"rl": "red; background: url(x)"})
    lib.delete_tag("reinforcement")
    assert lib.tag_colours() == {"method/flow": "#00ff00"}


def test_saved_searches_and_prefs_persist(library, library_dir):
    library.save_search("To read", "status:unread tag:rl")
    library.prefs.set("triage", [{"key": "i", "kind": "tag", "value": "interesting"}])
    again = open_library(library_dir).library
    assert again.prefs.saved_searches() == {"To read": "status:unread tag:rl"}
    assert again.prefs.get("triage")[0]["value"] == "interesting"
    again.delete_search("To read")
    assert open_library(library_dir).library.prefs.saved_searches() == {}
    with pytest.raises(ValueError):
        library.save_search("  ", "x")
    with pytest.raises(ValueError):
        library.prefs.set("bad", float("nan"))


def test_other_process_prefs_are_picked_up(library, library_dir):
    other = open_library(library_dir).library
    other.save_search("Mine", "tag:x")
    change = library.refresh()
    assert change is not None and "prefs" in change.fields
    assert library.prefs.saved_searches() == {"Mine": "tag:x"}


def test_paper_to_dict_has_every_field():
    import dataclasses

    from reader.core.models import Paper

    paper = Paper("x", "T", ("A", "B"), year=2025, title_derived=True)
    assert set(paper.to_dict()) == {f.name for f in dataclasses.fields(Paper)}
    assert Paper.from_dict(paper.to_dict()) == paper


def test_normalise_title_ascii_fast_path_agrees():
    from reader.core.normalise import normalise_title

    for title in ["Hello, World!", "A_b-C  d", "x__y", "  Tabs\tand\nlines  "]:
        # a trailing non-ASCII word sends the same title down the general path
        general = normalise_title(title + " é")
        assert general.endswith(" e")
        assert normalise_title(title) == general[:-2]

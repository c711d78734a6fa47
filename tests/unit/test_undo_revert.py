"""Undo is an edit of its own (issue 18, S2): Library.revert(edit) takes back what an
edit changed, field by field, tag by tag, highlight by highlight, only where nobody
changed it since; what another writer changed stays, and is told (Kept)."""

from __future__ import annotations

from reader.core.edits import Kept
from reader.core.models import Highlight, Status
from tests.helpers.libraries import fresh


def test_undo_of_a_status_leaves_another_programs_note_and_tag(library_dir, two):
    a, b, ids = two
    edit = a.set_status([ids[0]], Status.READ)
    b.set_note(ids[0], "x")
    b.add_tags([ids[0]], ["t"])
    assert a.revert(edit) == []
    for lib in (a, fresh(library_dir)):
        assert lib.status(ids[0]) is Status.UNREAD
        assert lib.annotation(ids[0]).note == "x"
        assert lib.tags(ids[0]) == ("t",)


def test_a_field_changed_elsewhere_since_is_kept_and_told(library_dir, two):
    a, b, ids = two
    edit = a.set_status([ids[0], ids[1]], Status.READ)
    b.set_status([ids[0]], Status.READING)
    assert a.revert(edit) == [Kept(ids[0], "status")]
    for lib in (a, fresh(library_dir)):
        assert lib.status(ids[0]) is Status.READING  # theirs
        assert lib.status(ids[1]) is Status.UNREAD  # ours undone


def test_undo_of_the_first_edit_leaves_no_annotation(library_dir, two):
    a, _b, ids = two
    edit = a.set_note(ids[2], "mine")
    a.revert(edit)
    assert ids[2] not in a.annotations()
    assert ids[2] not in fresh(library_dir).annotations()


def test_tags_are_undone_tag_by_tag(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["x", "y"])
    b.refresh()
    edit = a.add_tags([ids[0]], ["a"])
    b.add_tags([ids[0]], ["b"])  # another program's tag, meanwhile
    assert a.revert(edit) == []
    assert fresh(library_dir).tags(ids[0]) == ("x", "y", "b")
    # removing: undone only where still absent, at its place
    edit = a.remove_tags([ids[0]], ["y", "x"])
    b.add_tags([ids[0]], ["x"])  # b puts x back itself
    assert a.revert(edit) == []
    assert fresh(library_dir).tags(ids[0]) == ("b", "x", "y")  # y after x, as it was


def test_a_tag_the_other_program_added_too_is_not_theirs_to_lose_by_redo(library_dir, two):
    a, b, ids = two
    edit = a.add_tags([ids[0]], ["a"])
    a.revert(edit)
    b.add_tags([ids[0]], ["other"])
    assert a.revert(edit.inverse()) == []  # redo
    assert fresh(library_dir).tags(ids[0]) == ("other", "a")
    b.remove_tags([ids[0]], ["a"])
    assert a.revert(edit) == []  # already gone: nothing to do, nothing kept
    assert fresh(library_dir).tags(ids[0]) == ("other",)


def _hl(hid: str, quote: str, color: str = "yellow") -> Highlight:
    return Highlight(id=hid, quote=quote, color=color)


def test_highlights_are_undone_highlight_by_highlight(library_dir, two):
    a, b, ids = two
    pid = ids[0]
    a.set_highlights(pid, [_hl("h1", "one"), _hl("h2", "two")])
    b.refresh()
    edit = a.set_highlights(pid, [_hl("h1", "one", "green"), _hl("h3", "three")])
    b.set_highlights(pid, [*b.annotation(pid).highlights, _hl("h9", "theirs")])
    assert a.revert(edit) == []
    got = fresh(library_dir).annotation(pid).highlights
    assert [(h.id, h.color) for h in got] == [("h1", "yellow"), ("h2", "yellow"), ("h9", "yellow")]
    # one they changed since stays theirs
    edit = a.set_highlights(pid, [_hl("h1", "one", "blue"), *a.annotation(pid).highlights[1:]])
    b.refresh()
    b.set_highlights(pid, [_hl("h1", "one", "red"), *b.annotation(pid).highlights[1:]])
    assert a.revert(edit) == [Kept(pid, "highlight “one”")]
    assert fresh(library_dir).annotation(pid).highlights[0].color == "red"


def test_redo_reapplies_only_where_undone_state_still_holds(library_dir, two):
    a, b, ids = two
    edit = a.set_note(ids[0], "mine")
    a.revert(edit)
    b.set_note(ids[0], "theirs")
    assert a.revert(edit.inverse()) == [Kept(ids[0], "note")]
    assert fresh(library_dir).annotation(ids[0]).note == "theirs"
    edit2 = a.set_status([ids[1]], Status.READ)
    a.revert(edit2)
    assert a.revert(edit2.inverse()) == []
    assert fresh(library_dir).status(ids[1]) is Status.READ


def test_rename_tag_undone_per_paper_and_colour(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["old"])
    a.add_tags([ids[1]], ["old", "new"])
    a.set_tag_colour("old", "#112233")
    b.refresh()
    edit = a.rename_tag("old", "new")
    b.add_tags([ids[2]], ["new"])  # theirs
    b.set_tag_colour("zzz", "#445566")
    assert a.revert(edit) == []
    lib = fresh(library_dir)
    assert lib.tags(ids[0]) == ("old",)
    assert lib.tags(ids[1]) == ("old", "new")  # it had both: both again
    assert lib.tags(ids[2]) == ("new",)
    assert lib.tag_colours() == {"old": "#112233", "zzz": "#445566"}


def test_delete_tag_undo_keeps_a_colour_given_since(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["t"])
    a.set_tag_colour("t", "#112233")
    edit = a.delete_tag("t")
    b.set_tag_colour("t", "#abcdef")
    assert a.revert(edit) == [Kept("", "colour of tag t")]
    lib = fresh(library_dir)
    assert lib.tags(ids[0]) == ("t",)
    assert lib.tag_colours() == {"t": "#abcdef"}


def test_an_imports_colours_never_replace_one_given_meanwhile(library_dir, two):
    a, b, _ids = two
    b.set_tag_colour("ml", "#abcdef")  # a's copy has no colour for ml
    a.fill_tag_colours({"ml": "#111111", "new": "#222222"})
    assert fresh(library_dir).tag_colours() == {"ml": "#abcdef", "new": "#222222"}

"""PaperListModel under Qt's model tester, and the rows it shows after filtering."""

import pytest

from reader.core.index import SearchIndex
from reader.core.models import Paper, Status
from reader.core.query import parse
from reader.store.search_db import SearchDB
from reader.ui.facets import FacetPanel
from reader.ui.paper_list import PaperListModel
from reader.ui.sidebar import Sidebar


def test_model_passes_qt_model_tester(qtmodeltester, library):
    model = PaperListModel(library)
    model.set_ids(library.paper_ids())
    qtmodeltester.check(model, force_py=True)
    qtmodeltester.check(model)


def test_model_data_roles(library):
    model = PaperListModel(library)
    ids = library.paper_ids()
    model.set_ids(ids)
    library.add_tags([ids[0]], ["rl"])
    library.set_status([ids[0]], Status.READ)
    index = model.index(0)
    assert model.data(index, PaperListModel.IdRole) == ids[0]
    assert model.data(index, PaperListModel.StatusRole) == "read"
    assert model.data(index, PaperListModel.TagsRole) == ["rl"]
    library.add_papers([Paper("tex", "$K^2$VAE: a $\\Theta(1)$ model", ("A. Author",))])
    model.set_ids(library.paper_ids())
    assert model.data(model.index(model.row_of("tex"))) == "K²VAE: a Θ(1) model"


@pytest.mark.parametrize(
    "query, status, tag, expected",
    [
        ("", None, None, 19),
        ("distillation", None, None, None),  # computed below
        ("", "read", None, 2),
        ("", None, "rl", 3),
        ("", "read", "rl", 1),
        ("tag:rl -status:read", None, None, 2),
        ("zzzz-no-such-word", None, None, 0),
    ],
)
def test_sidebar_rows_after_filtering(qtbot, qtmodeltester, library, query, status, tag, expected):
    ids = library.paper_ids()
    library.set_status(ids[:2], Status.READ)
    library.add_tags([ids[0], ids[5], ids[6]], ["rl"])
    facets = FacetPanel()
    sidebar = Sidebar(library, lambda: SearchIndex.in_steps(library, SearchDB.in_memory()), facets)
    qtbot.addWidget(sidebar)
    qtbot.addWidget(facets)
    sidebar.refresh_facets()
    qtmodeltester.check(sidebar.model)
    if status:
        assert facets.select_key(("status", status), add=True)
    if tag:
        assert facets.select_key(("tag", tag), add=True)
    if query:
        qtbot.keyClicks(sidebar.search, query)
    # (a facet chosen or a word typed runs once the search is ready: its words indexed)
    qtbot.waitUntil(lambda: not sidebar.search_pending)
    shown = sidebar.model.ids()
    if expected is None:
        expected_ids = [
            p.id
            for p in library.full_papers(library.paper_ids())
            if "distillation" in (p.title + p.abstract).lower()
        ]
        assert shown == expected_ids and 0 < len(shown) < 19
    else:
        assert len(shown) == expected
    read = sum(pid in ids[:2] for pid in shown)  # the two marked read above
    of = "" if len(shown) == 19 else " of 19"
    assert sidebar.count_label.text() == f"{len(shown)}{of} papers · {read} read"
    qtmodeltester.check(sidebar.model)


def test_making_the_index_again_after_a_part_failed(qtbot, library):
    """A part of the making that fails (the disk full, say) fails that use; the
    next use makes the index from the start."""
    attempts: list[int] = []

    def make():
        attempts.append(1)
        if len(attempts) == 1:
            yield
            raise OSError("no space left on device")
        return (yield from SearchIndex.in_steps(library, SearchDB.in_memory()))

    facets = FacetPanel()
    sidebar = Sidebar(library, make, facets)
    qtbot.addWidget(sidebar)
    qtbot.addWidget(facets)
    assert sidebar.prepare_search() is False  # the first part (the index's modules are loaded)
    with pytest.raises(OSError):
        sidebar.prepare_search()
    library.set_status(library.paper_ids()[:1], Status.READ)
    sidebar.papers_changed(library.paper_ids()[:1])
    assert sidebar.index.count(parse("status:read")) == 1 and len(attempts) == 2


def test_typing_in_the_list_jumps_to_a_title_as_shown(qtbot, library):
    """Type-ahead as Qt's (letters typed together add up, the same letter again goes
    on to the next match), over the titles as the list shows them (TeX rendered),
    without asking the model row by row (~0.7 s a key at 100k papers)."""
    from PySide6.QtWidgets import QApplication

    from reader.ui.paper_list import PaperListView

    library.add_papers(
        [
            Paper("tex", "$K^2$VAE: a $\\Theta(1)$ model", ("A. Author",)),
            Paper("emph", "*Attention* Is What You Need", ("A. Author",)),
            Paper("quote", "``Why'' Questions", ("A. Author",)),
        ]
    )
    model = PaperListModel(library)
    model.set_ids(library.paper_ids())
    view = PaperListView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.show()

    def shown() -> str:
        return model.data(view.currentIndex())

    def pause() -> None:  # longer than the keyboard input interval: a new search
        qtbot.wait(QApplication.keyboardInputInterval() + 100)

    qtbot.keyClicks(view, "d")  # no current row yet: from the top
    assert shown().startswith("DA-KD")
    pause()
    qtbot.keyClicks(view, "mod")
    assert shown().startswith("Modalities Contribute")
    pause()
    qtbot.keyClicks(view, "s")
    assert shown().startswith("Scaling sparse")
    qtbot.keyClicks(view, "s")
    assert shown().startswith("Stochastic Encodings")
    pause()
    qtbot.keyClicks(view, "k²v")
    assert shown() == "K²VAE: a Θ(1) model"
    pause()
    qtbot.keyClicks(view, "attention")
    assert shown() == "Attention Is What You Need"
    pause()
    qtbot.keyClicks(view, "zzq")  # nothing: stays
    assert shown() == "Attention Is What You Need"
    assert (
        model.data(model.index(model.find_title("“why", 0))) == "“Why” Questions"
    )  # (no key types “)

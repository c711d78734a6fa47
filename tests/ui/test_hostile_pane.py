"""Untrusted abstracts and notes in the real pane: nothing loads, nothing runs, nothing freezes."""

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from reader.core.models import Paper
from reader.ui.reader_view import MAX_SHOWN_ABSTRACT

HOSTILE = [
    '<img src="file:///etc/passwd">',
    '<img src="/dev/zero">',
    '<a href="file:///etc/passwd">passwd</a>',
    '<a href="smb://attacker/share">share</a>',
    "<script>alert(1)</script>",
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    "<table>" * 25 + "deep" + "</table>" * 25,
    "![x](file:///etc/passwd) [run](ms-msdt:/id) <file:///etc/passwd>",
]


@pytest.fixture
def spies(app, monkeypatch):
    opened, loads = [], []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    pane = app.window.pane
    for browser in (pane.browser, pane.note_editor.preview):
        browser.resource_refused.connect(lambda url: loads.append(url.toString()))
    return opened, loads


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_abstract_and_note_are_inert(qtbot, app, spies, payload):
    opened, loads = spies
    lib = app.controller.library
    lib.add_papers([Paper("evil", "Evil <b>title</b> " + payload[:40], ("M. Allory",), payload)])
    app.window.sidebar.select_paper("evil")
    pane = app.window.pane
    assert pane.paper_id == "evil"
    html = pane.browser.toHtml()
    assert "<img" not in html and 'file:///etc/passwd"' not in html
    assert "<script" not in html.lower()
    pane.note_editor.editor.setPlainText(payload)
    pane.note_editor._render_preview()
    preview = pane.note_editor.preview.toHtml()
    assert "<img" not in preview
    for anchor in ("file:", "smb:", "ms-msdt:", "javascript:"):
        assert f'href="{anchor}' not in preview
    assert opened == []  # nothing opened without a click
    assert loads == []  # escaped, so nothing even asked for a resource


def test_only_http_links_open_and_only_on_click(qtbot, app, spies):
    opened, _ = spies
    browser = app.window.pane.browser
    for url in ("file:///etc/passwd", "smb://host/share", "ms-msdt:/id", "javascript:alert(1)"):
        browser.anchorClicked.emit(QUrl(url))
    assert opened == []
    browser.anchorClicked.emit(QUrl("https://icml.cc/virtual/2025/poster/1"))
    assert opened == ["https://icml.cc/virtual/2025/poster/1"]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mailto:me@example.org?attach=/etc/passwd", ["mailto:me@example.org"]),
        ("mailto:me@example.org?cc=x@example.org&body=hi#frag", ["mailto:me@example.org"]),
        ("mailto:a@example.org,b@example.org", []),
        ("mailto:?attach=/etc/passwd", []),
        ("mailto:me@example.org", ["mailto:me@example.org"]),
    ],
)
def test_a_mail_link_hands_over_its_address_alone(qtbot, app, spies, url, expected):
    opened, _ = spies
    app.window.pane.browser.anchorClicked.emit(QUrl(url))
    assert opened == expected


def test_a_mail_link_in_a_note_keeps_only_its_address(qtbot, app, spies):
    pane = app.window.pane
    pane.note_editor.editor.setPlainText("[write](mailto:me@example.org?attach=/etc/passwd)")
    pane.note_editor._render_preview()
    preview = pane.note_editor.preview.toHtml()
    assert 'href="mailto:me@example.org"' in preview
    assert "attach" not in preview


def test_resource_loads_are_refused(qtbot, app, spies):
    _, loads = spies
    browser = app.window.pane.browser
    # even if some HTML asked for an image, the browser hands back nothing
    assert browser.loadResource(2, QUrl("file:///etc/passwd")) is None
    assert loads == ["file:///etc/passwd"]


def test_ten_megabyte_abstract_is_cut_for_display(qtbot, app):
    big = "word " * 2_000_000
    app.controller.library.add_papers([Paper("big", "Big", ("A",), big)])
    app.window.sidebar.select_paper("big")
    shown = app.window.pane.browser.toPlainText()
    assert len(shown) < MAX_SHOWN_ABSTRACT + 1000
    assert "the abstract goes on for" in shown


def test_megabyte_of_emphasis_in_a_note_falls_back_to_text(qtbot, app):
    note = "**a** " * 200_000
    editor = app.window.pane.note_editor
    editor.editor.setPlainText(note)
    editor._render_preview()
    assert "**a**" in editor.preview.toPlainText()  # shown as typed, not rendered


def test_the_pdf_link_keywords_and_area_are_shown_as_plain_text(qtbot, app, spies):
    opened, loads = spies
    lib = app.controller.library
    lib.add_papers([
        Paper(
            "pdf", "With a PDF", ("A. Author",), "Abstract.",
            pdf="https://proceedings.mlr.press/v97/x19a/x19a.pdf",
            keywords=("<b>graphs</b>", "diffusion"), primary_area="Deep Learning->GNNs",
        ),
        Paper("bad", "Hostile PDF", ("A. Author",), "Abstract.", pdf="file:///etc/passwd"),
    ])  # fmt: skip
    pane = app.window.pane
    app.window.sidebar.select_paper("pdf")
    html, text = pane.browser.toHtml(), pane.browser.toPlainText()
    assert 'href="https://proceedings.mlr.press/v97/x19a/x19a.pdf"' in html
    assert "PDF ↗" in text and "Deep Learning->GNNs" in text
    assert "Keywords: <b>graphs</b>, diffusion" in text  # the tags' text, not markup
    app.window.sidebar.select_paper("bad")
    assert "PDF ↗" not in pane.browser.toPlainText() and "file:" not in pane.browser.toHtml()
    assert opened == [] and loads == []

"""Safe HTML for the reader pane: TeX-flavoured abstracts and titles, Markdown notes."""

from __future__ import annotations

from typing import Any

from reader.render.html import abstract_html, title_html

__all__ = ["abstract_html", "note_html", "title_html"]


def __getattr__(name: str) -> Any:
    # note_html (Markdown, the sanitizer, html.parser) is loaded on first use: opening
    # the window shows an abstract long before it needs a note
    if name == "note_html":
        from reader.render.notes import note_html

        return note_html
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

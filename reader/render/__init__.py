"""Safe HTML for the reader pane: TeX-flavoured abstracts and titles, Markdown notes."""

from reader.render.html import abstract_html, title_html
from reader.render.notes import note_html

__all__ = ["abstract_html", "note_html", "title_html"]

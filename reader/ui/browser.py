"""A QTextBrowser that loads nothing and follows no link by itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QTextBrowser, QWidget

if TYPE_CHECKING:
    from PySide6.QtCore import QUrl  # (the class loads with the first link or resource: ~1 ms)
    from PySide6.QtGui import QResizeEvent

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})


class SafeBrowser(QTextBrowser):
    """Shows our rendered HTML fragments. Every resource request (images, style
    sheets, `file:` and remote URLs) is refused; a click on an http/https/mailto
    link opens the system browser, a `paper:` link is announced, anything else
    is ignored. A word too long for a line breaks anywhere (our HTML also has a
    zero-width space every so often in a long run: see reader.render.html.breakable).

    Signals:
        paper_link_activated(str): a `paper:` link (a wiki-link in a note) was clicked.
        resource_refused(QUrl): a resource load was refused (for tests and logs).
    """

    paper_link_activated = Signal(str)
    resource_refused = Signal(object)  # a QUrl

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        # (QTextEdit's default, relied on: a word wider than the pane breaks, never
        # scrolls sideways; our HTML gives long runs places to break, see above)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.anchorClicked.connect(self._on_anchor)

    def loadResource(self, kind: int, url: QUrl | str) -> Any:  # noqa: N802 (Qt override)
        from PySide6.QtCore import QUrl

        self.resource_refused.emit(QUrl(url))
        return None

    def _on_anchor(self, url: QUrl) -> None:
        scheme = url.scheme().lower()
        if scheme in SAFE_SCHEMES:
            from PySide6.QtCore import QUrl
            from PySide6.QtGui import QDesktopServices  # (a click: not for start-up)

            from reader.render.sanitize import safe_href

            # the rule the renderer applies, once more on what Qt made of the link:
            # an http(s) link with a host, a mailto link with its one address alone
            target = safe_href(bytes(url.toEncoded().data()).decode("ascii"))
            if target is not None:
                QDesktopServices.openUrl(QUrl(target))
        elif scheme == "paper":
            self.paper_link_activated.emit(url.path())


class ReadingBrowser(SafeBrowser):
    """A SafeBrowser that keeps lines to a comfortable measure: at most
    `measure_px` wide, narrower when the pane is narrower (never a sideways
    scroll bar)."""

    def __init__(self, measure_px: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._measure = measure_px
        self.setLineWrapMode(QTextBrowser.LineWrapMode.FixedPixelWidth)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._fit()

    def _fit(self) -> None:
        # the room as if the scroll bar were shown, so that a short abstract (no scroll
        # bar) after a long one keeps the same lines: setting the width lays out again
        room = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        margin = 2 * int(self.document().documentMargin())
        width = max(200, min(self._measure, room - margin))
        if width != self.lineWrapColumnOrWidth():
            self.setLineWrapColumnOrWidth(width)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit()

    def set_page(self, html: str) -> None:
        """setHtml, without the vertical scroll bar going and coming back between two
        long pages (setHtml empties the document first): that hides and shows a
        widget and repaints the window under it, on every paper selected."""
        bar = Qt.ScrollBarPolicy
        if (
            not self.verticalScrollBar().isVisible()
            or self.verticalScrollBarPolicy() != bar.ScrollBarAsNeeded
        ):
            self.setHtml(html)
            return
        self.setVerticalScrollBarPolicy(bar.ScrollBarAlwaysOn)
        try:
            self.setHtml(html)
        finally:
            self.setVerticalScrollBarPolicy(bar.ScrollBarAsNeeded)  # a short page: the bar goes now

"""Light and dark themes (following the system unless overridden) and text zoom."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QScrollBar, QWidget

from reader.ui import resources

THEMES = ("system", "light", "dark")
ZOOM_MIN, ZOOM_MAX = -4, 12


def flat_scroll_bars(*roots: QWidget) -> None:
    """Give the scroll bars `roots` are or hold (lists, text panes) the flat style of
    resources/themes/scroll_bars.qss: a thirtieth of Fusion's cost to paint. (Each
    is ~0.2 ms to style: the window styles the bars its first paint may show first,
    the rest after that paint.)"""
    sheet = resources.stylesheet(resources.SCROLL_BARS)
    for root in roots:
        for bar in [root] if isinstance(root, QScrollBar) else root.findChildren(QScrollBar):
            if not bar.styleSheet():
                bar.setStyleSheet(sheet)


def dark_palette() -> QPalette:
    p = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#1f2125",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#17181b",
        QPalette.ColorRole.AlternateBase: "#26282d",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#2a2d32",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.Highlight: "#3d6fb6",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.ToolTipBase: "#2a2d32",
        QPalette.ColorRole.ToolTipText: "#e6e6e6",
        QPalette.ColorRole.Link: "#8ab4f8",
        QPalette.ColorRole.LinkVisited: "#c58af9",
        QPalette.ColorRole.PlaceholderText: "#8a8f98",
        QPalette.ColorRole.Mid: "#5f6368",
        QPalette.ColorRole.Light: "#3a3d42",
        QPalette.ColorRole.Dark: "#101113",
    }
    for role, colour in colours.items():
        p.setColor(role, QColor(colour))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7b7f86"))
    return p


def light_palette() -> QPalette:
    """The Fusion style's own light palette, written out: asking the style for it
    (style().standardPalette()) loads QStyle into Python, ~10 ms of the start (a test
    compares the two)."""
    p = QPalette(QColor("#efefef"))
    disabled = QPalette.ColorGroup.Disabled
    for role, colour in (
        (QPalette.ColorRole.Midlight, "#cacaca"),
        (QPalette.ColorRole.Dark, "#9f9f9f"),
        (QPalette.ColorRole.Mid, "#b8b8b8"),
        (QPalette.ColorRole.Shadow, "#767676"),
        (QPalette.ColorRole.Highlight, "#308cc6"),
        (QPalette.ColorRole.Accent, "#308cc6"),
        (QPalette.ColorRole.PlaceholderText, "#80000000"),
    ):
        p.setColor(role, QColor(colour))
    for role, colour in (
        (QPalette.ColorRole.WindowText, "#bebebe"),
        (QPalette.ColorRole.Text, "#bebebe"),
        (QPalette.ColorRole.ButtonText, "#bebebe"),
        (QPalette.ColorRole.Dark, "#bebebe"),
        (QPalette.ColorRole.Shadow, "#b1b1b1"),
        (QPalette.ColorRole.Highlight, "#919191"),
        (QPalette.ColorRole.Accent, "#919191"),
        (QPalette.ColorRole.Base, "#efefef"),
        (QPalette.ColorRole.AlternateBase, "#f7f7f7"),
    ):
        p.setColor(disabled, role, QColor(colour))
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, disabled):
        for role in _ROLES:  # every role set: none falls back to the platform's palette
            p.setColor(group, role, p.color(group, role))
    return p


_ROLES = [role for role in QPalette.ColorRole if role is not QPalette.ColorRole.NColorRoles]


def system_is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    return bool(scheme and scheme() == Qt.ColorScheme.Dark)


class Appearance(QObject):
    """Applies the chosen theme to the application and the zoom to the reading widgets.

    Signals:
        theme_applied(str): "light" or "dark", after a change.
    """

    theme_applied = Signal(str)

    def __init__(self, app: QApplication, parent: QObject | None = None):
        super().__init__(parent)
        self._app = app
        self._zoomables: list[QWidget] = []
        self._base_sizes: list[float] = []
        self.theme = "system"
        self.zoom = 0
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(lambda _scheme: self._follow_system())

    def add_zoomables(self, widgets: Sequence[QWidget]) -> None:
        """Widgets whose text follows the zoom (at their current size for zoom 0)."""
        for widget in widgets:
            self._zoomables.append(widget)
            self._base_sizes.append(widget.font().pointSizeF())
        if self.zoom:
            self.set_zoom(self.zoom)

    def effective(self) -> str:
        if self.theme == "system":
            return "dark" if system_is_dark() else "light"
        return self.theme

    def set_theme(self, theme: str) -> None:
        self.theme = theme if theme in THEMES else "system"
        mode = self.effective()
        self._app.setPalette(dark_palette() if mode == "dark" else light_palette())
        # widgets with a style sheet (the reader pane's controls, coloured tag chips)
        # keep their old palette until it is applied again
        for widget in self._app.allWidgets():
            if sheet := widget.styleSheet():
                widget.setStyleSheet(sheet)
            if isinstance(widget, QLabel) and "<a " in (text := widget.text()):
                # a label's links keep the colour they were laid out in: laid out anew
                widget.clear()
                widget.setText(text)
        self.theme_applied.emit(mode)

    def _follow_system(self) -> None:
        if self.theme == "system":
            self.set_theme("system")

    def set_zoom(self, steps: int) -> None:
        self.zoom = max(ZOOM_MIN, min(ZOOM_MAX, steps))
        for widget, base in zip(self._zoomables, self._base_sizes, strict=True):
            font = widget.font()
            font.setPointSizeF(max(6.0, base + self.zoom))
            widget.setFont(font)

    def zoom_in(self) -> None:
        self.set_zoom(self.zoom + 1)

    def zoom_out(self) -> None:
        self.set_zoom(self.zoom - 1)

    def zoom_reset(self) -> None:
        self.set_zoom(0)

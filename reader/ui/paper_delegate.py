"""How a row of the sidebar list is painted: status mark, title, first authors, tags.

At 100k papers a keystroke refills the list and repaints a screenful of rows, and
shaping and drawing their texts was most of a keystroke's cost. So each text is laid
out once (QStaticText) and kept, per text, width and font; and a row's texts are
drawn on a clear pixmap, kept from the second time the row is drawn, per paper's
look, width and colours: typing shows the same rows again, and only the match marks
under the texts depend on the search."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPixmap, QStaticText
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QWidget

from reader.core.models import Status
from reader.core.text import shown_part

STATUS_MARK = {Status.UNREAD: "●", Status.READING: "◐", Status.READ: "✓"}
STATUS_COLOUR = {Status.UNREAD: "#2f7de1", Status.READING: "#d9822b", Status.READ: "#6a737d"}
ROW_HEIGHT_LINES = 3
MATCH_COLOUR = QColor(255, 140, 26, 160)  # (orange as the reader pane's: apart from highlights)
#: laid-out texts kept (a screenful needs ~40; typing brings the same papers back)
TEXT_CACHE = 4_000
#: the rows drawn kept (~100 KB each): a few screenfuls
LAYER_BYTES = 24 << 20
#: where a row's texts start, from its top left
PADDING = QPoint(8, 4)
#: the most places a search's words are marked in one line of a row (one run of
#: overlapping or touching places is one mark)
MAX_MARKS = 100
#: the most of a title or of the authors laid out in a row (then elided to its width):
#: more than the widest row holds, and eliding a megabyte took seconds
MAX_ROW_CHARS = 500

Index = QModelIndex | QPersistentModelIndex


class _Fonts(NamedTuple):
    """The fonts of a row for one base font, and what is measured with them."""

    text: QFont
    unread: QFont  # titles of unread papers are bolder
    read: QFont
    tag: QFont
    line: int
    mark_width: int
    #: QFont.key() of text, unread, read, tag (13 us a call: asked once)
    keys: dict[int, str]


class _Chip(NamedTuple):
    tag: str
    rect: QRect  # relative to the tag line's top left
    label: QStaticText | None  # None: the "…" of tags that do not fit


def row_height(font: QFont, title_lines: int = 1) -> int:
    """A row's height: its title's lines, the authors, the tags."""
    return QFontMetrics(font).lineSpacing() * (ROW_HEIGHT_LINES + title_lines - 1) + 10


class PaperDelegate(QStyledItemDelegate):
    """Paints a row from the model's row(r): (title, short authors, status, tags)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fonts: dict[str, _Fonts] = {}
        self._last: tuple[QFont, _Fonts] | None = (
            None  # the font of the row painted last, its fonts
        )
        self._texts: dict[tuple[str, int, str], tuple[str, QStaticText]] = {}
        self._chips: dict[tuple[tuple[str, ...], int, str], list[_Chip]] = {}
        #: the rows' texts as drawn (see _layer), oldest first, and the rows seen once
        self._layers: dict[tuple[Any, ...], QPixmap] = {}
        self._seen: set[tuple[Any, ...]] = set()
        self._scratch: QPixmap | None = None
        self._layer_bytes = 0
        #: lines a title may take (View → Two-Line Titles): the rest elided
        self.title_lines = 1
        #: where the search's words are in each text shown (see match_spans), and the
        #: words they are for: kept while one query's rows are painted
        self._spans: dict[str, list[tuple[int, int]]] = {}
        self._spans_for: tuple[str, ...] = ()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        model = index.model()
        row = getattr(model, "row", None)
        if row is not None:
            title, authors, status, tags = row(index.row())
        else:  # any other model: its display text only
            title, authors, status, tags = str(index.data() or ""), "", Status.UNREAD, ()
        title, authors = row_text(title), row_text(authors)
        painter.save()
        super().paint(painter, option, index)  # background, selection, focus: initStyleOption()
        # the view's selection, not option.state: a QStyle flag, and QStyle is 45M
        # instructions (~10 ms) to load into Python, a third of the start-up's budget
        selection = getattr(option.widget, "selectionModel", None)
        selected = selection is not None and selection().isSelected(index)
        palette = option.palette
        fg = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ).rgba()
        fonts = self._fonts_for(option.font)
        rect = option.rect
        colours = getattr(model, "tag_colours", {})
        key = (
            title,
            authors,
            status,
            tags,
            selected,
            fg,
            rect.width(),
            rect.height(),
            fonts.keys[id(fonts.text)],
            painter.device().devicePixelRatioF(),
            (*map(colours.get, tags), palette.color(QPalette.ColorRole.Highlight).rgba())
            if tags
            else (),
        )
        terms = getattr(model, "highlight_terms", ())
        if terms:  # under the texts, as a highlighter pen
            title_font = fonts.unread if status is Status.UNREAD else fonts.read
            left, top = rect.left() + PADDING.x() + fonts.mark_width, rect.top() + PADDING.y()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(MATCH_COLOUR)
            lines = self._title(title, _text_width(rect, fonts), title_font, fonts)
            metrics = QFontMetrics(title_font)
            for n, (shown, _laid) in enumerate(lines):
                for start, end in self.match_spans(shown, terms):
                    x = metrics.horizontalAdvance(shown[:start])
                    w = metrics.horizontalAdvance(shown[start:end])
                    painter.drawRect(QRect(left + x, top + n * fonts.line, w, fonts.line))
        layer = self._layers.pop(key, None)
        if layer is not None:
            self._layers[key] = layer  # (the newest again: dropped last)
        elif key in self._seen:  # a second time: kept from now on
            layer = self._layer(key, fonts, keep=True)
        else:  # a row seen once (a scroll, a jump) may never be seen again
            if len(self._seen) >= TEXT_CACHE:
                self._seen.clear()
            self._seen.add(key)
            layer = self._layer(key, fonts, keep=False)
        painter.drawPixmap(rect.topLeft(), layer)
        painter.restore()

    def match_spans(self, text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
        """Where the search words `terms` occur in `text` as the search finds them (at
        the start of a word; an acronym only as written in capitals: see
        reader.core.search_text.mark_spans), as (start, end) indexes, those that
        touch or overlap joined. Kept per text while the terms stay the same (every
        visible row asks at every paint)."""
        terms = tuple(terms)
        if terms != self._spans_for:
            self._spans.clear()
            self._spans_for = terms
        spans = self._spans.get(text)
        if spans is None:
            if len(self._spans) >= TEXT_CACHE:
                self._spans.clear()
            # (the search's text classes load with the first search, not at start-up)
            from reader.core.search_text import joined_spans, mark_spans

            spans = self._spans[text] = joined_spans(mark_spans(text, terms, MAX_MARKS))
        return spans

    def _layer(self, key: tuple[Any, ...], fonts: _Fonts, *, keep: bool) -> QPixmap:
        """The texts of a row drawn on a clear pixmap of the row's size: drawing them
        is most of a row's cost, and typing brings the same rows back (only the match
        marks under them differ). Kept, or drawn on the one pixmap reused for rows
        not kept: every row's text goes through a clear pixmap, so all look the same
        (no subpixel antialiasing there: drawn straight onto the list, a row would
        change weight once kept)."""
        width, height, ratio = key[6], key[7], key[9]
        size = (round(width * ratio), round(height * ratio))
        layer = self._scratch
        if (
            keep
            or layer is None
            or (layer.width(), layer.height(), layer.devicePixelRatio()) != (*size, ratio)
        ):
            layer = QPixmap(*size)
            layer.setDevicePixelRatio(ratio)
            if not keep:
                self._scratch = layer
        layer.fill(Qt.GlobalColor.transparent)
        painter = QPainter(layer)
        self._draw_texts(painter, key, fonts)
        painter.end()
        if keep:
            self._keep_layer(key, layer)
        return layer

    def _draw_texts(self, painter: QPainter, key: tuple[Any, ...], fonts: _Fonts) -> None:
        """A row's status mark, title, authors and tag chips, its top left at (0, 0):
        all of it from the key (a kept pixmap is what its key says)."""
        (
            title,
            authors,
            status,
            tags,
            selected,
            fg_rgba,
            width,
            height,
            _font,
            _ratio,
            chip_colours,
        ) = key
        fg = QColor.fromRgba(fg_rgba)
        line, top = fonts.line, PADDING.y()
        left = PADDING.x() + fonts.mark_width
        text_width = _text_width(QRect(0, 0, width, height), fonts)
        painter.setFont(fonts.text)
        painter.setPen(fg if selected else QColor(STATUS_COLOUR[status]))
        painter.drawStaticText(
            PADDING, self._text(STATUS_MARK[status], 10_000, fonts.text, fonts)[1]
        )
        title_font = fonts.unread if status is Status.UNREAD else fonts.read
        painter.setFont(title_font)
        painter.setPen(fg)
        lines = self._title(title, text_width, title_font, fonts)
        for n, (_shown, laid) in enumerate(lines):
            painter.drawStaticText(QPoint(left, top + n * line), laid)
        below = top + len(lines) * line  # (a title of one line: the authors right under it)
        painter.setFont(fonts.text)
        dim = QColor(fg)
        dim.setAlpha(170)
        painter.setPen(dim)
        painter.drawStaticText(
            QPoint(left, below), self._text(authors, text_width, fonts.text, fonts)[1]
        )
        if tags:
            self._paint_tags(
                painter,
                fonts,
                tags,
                QPoint(left, below + line),
                text_width,
                selected,
                fg,
                chip_colours,
            )

    def _keep_layer(self, key: tuple[Any, ...], layer: QPixmap) -> None:
        size = layer.width() * layer.height() * 4
        while self._layers and self._layer_bytes + size > LAYER_BYTES:
            oldest = next(iter(self._layers))
            dropped = self._layers.pop(oldest)
            self._layer_bytes -= dropped.width() * dropped.height() * 4
        self._layers[key] = layer
        self._layer_bytes += size

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:  # noqa: N802 (Qt override)
        """The row as the base paint() draws it: no text or icon from the model (paint()
        draws the row's texts itself), only the view's background, selection and focus."""

    def _fonts_for(self, font: QFont) -> _Fonts:
        if self._last is not None and font == self._last[0]:  # (key() is 15x slower)
            return self._last[1]
        key = font.key()
        fonts = self._fonts.get(key)
        if fonts is None:
            text, unread, read, tag = QFont(font), QFont(font), QFont(font), QFont(font)
            unread.setWeight(QFont.Weight.DemiBold)
            read.setWeight(QFont.Weight.Normal)
            tag.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
            metrics = QFontMetrics(font)
            keys = {id(f): f.key() for f in (text, unread, read, tag)}
            fonts = self._fonts[key] = _Fonts(
                text,
                unread,
                read,
                tag,
                metrics.lineSpacing(),
                metrics.horizontalAdvance("●") + 8,
                keys,
            )
        self._last = (QFont(font), fonts)
        return fonts

    def _title(
        self, title: str, width: int, font: QFont, fonts: _Fonts
    ) -> list[tuple[str, QStaticText]]:
        """A title's lines as laid out: one, elided; or with two-line titles, as much
        as fits on the first (broken after a word), the rest elided on the second."""
        if self.title_lines < 2:
            return [self._text(title, width, font, fonts)]
        metrics = QFontMetrics(font)
        if metrics.horizontalAdvance(title) <= width:
            return [self._text(title, width, font, fonts)]
        cut = len(metrics.elidedText(title, Qt.TextElideMode.ElideRight, width)) - 1
        space = title.rfind(" ", 0, cut + 1)
        cut = space if space > 0 else max(cut, 1)
        first, rest = title[:cut].rstrip(), title[cut:].lstrip()
        return [self._text(first, width, font, fonts), self._text(rest, width, font, fonts)]

    def _text(self, text: str, width: int, font: QFont, fonts: _Fonts) -> tuple[str, QStaticText]:
        """`text` elided to `width` in `font` (one of `fonts`), and laid out."""
        key = (text, width, fonts.keys[id(font)])
        laid = self._texts.get(key)
        if laid is None:
            if len(self._texts) >= TEXT_CACHE:
                self._texts.clear()
            shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width)
            laid = self._texts[key] = (shown, _static(shown, font))
        return laid

    def _paint_tags(
        self,
        painter: QPainter,
        fonts: _Fonts,
        tags: tuple[str, ...],
        at: QPoint,
        width: int,
        selected: bool,
        text: QColor,
        chip_colours: tuple[Any, ...],
    ) -> None:
        """The tags' chips: `chip_colours` holds each tag's colour (or None), then the
        palette's highlight (the chips without a colour of their own), as rgba."""
        key = (tags, width, fonts.keys[id(fonts.tag)])
        chips = self._chips.get(key)
        if chips is None:
            if len(self._chips) >= TEXT_CACHE:
                self._chips.clear()
            chips = self._chips[key] = list(_lay_out_chips(tags, width, fonts))
        painter.setFont(fonts.tag)
        *tag_colours, highlight = chip_colours
        colours = {
            tag: colour
            for tag, colour in zip(tags, tag_colours, strict=False)
            if colour is not None
        }
        chip_bg = QColor.fromRgba(highlight)
        chip_bg.setAlpha(60 if not selected else 120)
        for chip in chips:
            rect = chip.rect.translated(at)
            if chip.label is None:
                painter.setPen(text)
                painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, "…")
                break
            painter.setPen(Qt.PenStyle.NoPen)
            if chip.tag in colours:
                colour = QColor(colours[chip.tag])
                colour.setAlpha(110 if not selected else 170)
                painter.setBrush(colour)
            else:
                painter.setBrush(chip_bg)
            painter.drawRoundedRect(rect, 4, 4)
            painter.setPen(text)
            size = chip.label.size()
            painter.drawStaticText(
                QPoint(
                    rect.left() + round((rect.width() - size.width()) / 2),
                    rect.top() + round((rect.height() - size.height()) / 2),
                ),
                chip.label,
            )

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802 (Qt override)
        return QSize(200, row_height(option.font))


def row_text(text: str) -> str:
    """`text` as a row lays it out: at most MAX_ROW_CHARS characters, the last one
    "…" when it was cut (so that cutting again changes nothing)."""
    if len(text) <= MAX_ROW_CHARS:
        return text
    return shown_part(text, MAX_ROW_CHARS - 1).rstrip() + "…"


def _text_width(rect: QRect, fonts: _Fonts) -> int:
    """The width of a row's title and authors lines."""
    return rect.width() - 2 * PADDING.x() - fonts.mark_width - 1


def _lay_out_chips(tags: Sequence[str], width: int, fonts: _Fonts) -> Iterator[_Chip]:
    metrics = QFontMetrics(fonts.tag)
    x, height = 0, fonts.line
    for tag in tags:
        w = metrics.horizontalAdvance(tag) + 10
        if x + w > width:
            yield _Chip(tag, QRect(x, 0, width - x, height), None)
            return
        yield _Chip(tag, QRect(x, 1, w, height - 2), _static(tag, fonts.tag))
        x += w + 4


def _static(text: str, font: QFont) -> QStaticText:
    laid = QStaticText(text)
    laid.setTextFormat(Qt.TextFormat.PlainText)
    laid.prepare(font=font)  # (no QTransform passed: its class is ~0.5 ms of the start)
    return laid

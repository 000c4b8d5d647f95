"""Typesetting a :class:`Document` onto pages with QPainter: the one layout for PDF and printer.

The layout is done first, in full, so that every page knows how many pages there are; then each
page is painted with its header (the campaign's name, the document's title, the date) and its
footer (``Page 2 of 5``). A unit goes whole onto the page it starts on; if it does not fit in
what is left of the page it starts the next one. Only a unit taller than a whole page is broken,
between blocks or between table rows (the table's header is repeated on the new page).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPen,
)

from campaign1813.campaign.export.document import (
    Align,
    Block,
    Column,
    Document,
    Fields,
    Heading,
    Paragraph,
    Table,
)

FAMILY = "DejaVu Serif"
PAGE_SIZES = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
MARGINS_MM = QMarginsF(16, 12, 16, 11)

_INK = QColor("#1a1a1a")
_GREY = QColor("#5a5a5a")
_RULE = QColor("#333333")
_SHADE = QColor("#eeeae0")
_BEFORE = {"h1": 4, "h2": 6, "h3": 5}  # points of space above a heading, by level
_AFTER_TABLE = 5  # points below a table


def page_layout(paper_size: str) -> QPageLayout:
    """Portrait pages of ``a4`` or ``letter`` with the documents' margins."""
    return QPageLayout(QPageSize(PAGE_SIZES[paper_size]), QPageLayout.Orientation.Portrait,
                       MARGINS_MM, QPageLayout.Unit.Millimeter)


def _font(points: float, *, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont(FAMILY)
    font.setStyleHint(QFont.StyleHint.Serif)  # where DejaVu Serif is missing, another serif
    font.setPointSizeF(points)
    font.setBold(bold)
    font.setItalic(italic)
    return font


@dataclass
class _Placed:
    """A block, or a run of a table's rows, at its place on a page."""

    block: Block
    top: float
    height: float


class _Typesetter:
    """Measures and paints blocks on one paint device, in its own pixels."""

    def __init__(self, painter: QPainter, width: float) -> None:
        self.painter = painter
        self.width = width
        device = painter.device()
        self.fonts = {
            "title": _font(17, bold=True), "h1": _font(14, bold=True), "h2": _font(11.5, bold=True),
            "h3": _font(10.5, bold=True), "note": _font(9.5, italic=True), "body": _font(9.5),
            "small": _font(8.5), "th": _font(8, bold=True), "td": _font(9),
            "label": _font(9.5, bold=True), "header": _font(8.5), "header_b": _font(8.5, bold=True),
        }
        self.metrics = {k: QFontMetricsF(f, device) for k, f in self.fonts.items()}
        self.pt = device.logicalDpiY() / 72.0  # device pixels per typographic point
        self.widths: dict[tuple[Column, ...], list[float]] = {}
        self.label_width = 0.0

    # -- measuring ---------------------------------------------------------------------------

    def prepare(self, document: Document) -> None:
        """Column widths shared by same-shaped tables, and the widest field label."""
        pad = 14 * self.pt
        for block in document.blocks():
            if isinstance(block, Table):
                widths = self.widths.setdefault(block.columns, [0.0] * len(block.columns))
                for i, column in enumerate(block.columns):
                    cells = [self._text_width("td", row[i]) for row in block.rows]
                    title = self._text_width("th", column.title.upper())
                    widths[i] = max(widths[i], title, *cells)
            elif isinstance(block, Fields):
                for label, _value in block.pairs:
                    self.label_width = max(self.label_width, self._text_width("label", label))
        for widths in self.widths.values():
            widths[:] = [w + pad for w in widths]
            spare = self.width - sum(widths)
            if spare < 0:  # too wide for the page: the widest column gives way (and is elided)
                widest = max(range(len(widths)), key=widths.__getitem__)
                widths[widest] = max(widths[widest] + spare, 20 * self.pt)
        self.label_width += 12 * self.pt

    def _text_width(self, style: str, text: str) -> float:
        return self.metrics[style].horizontalAdvance(text)

    def _wrapped(self, style: str, text: str, width: float) -> float:
        flags = int(Qt.TextFlag.TextWordWrap)
        return self.metrics[style].boundingRect(QRectF(0, 0, width, 1e7), flags, text).height()

    def row_height(self) -> float:
        """One table row: the cell font's line and a little air."""
        return self.metrics["td"].height() + 2.6 * self.pt

    def header_height(self) -> float:
        """A table's header row with its rule."""
        return self.metrics["th"].height() + 5 * self.pt

    def height(self, block: Block) -> float:
        """How much of the page the block takes, with the space after it."""
        if isinstance(block, Heading):
            key = f"h{min(block.level, 3)}"
            before = _BEFORE[key] * self.pt
            rule = 5 * self.pt if block.level == 1 else 0.0
            return before + self.metrics[key].height() + rule + 3 * self.pt
        if isinstance(block, Paragraph):
            style = "small" if block.small else "body"
            return self._wrapped(style, block.text, self.width) + 5 * self.pt
        if isinstance(block, Fields):
            value_width = self.width - self.label_width
            return sum(max(self.metrics["label"].height(),
                           self._wrapped("body", v, value_width)) + 1.5 * self.pt
                       for _k, v in block.pairs) + 5 * self.pt
        return self.header_height() + len(block.rows) * self.row_height() + _AFTER_TABLE * self.pt

    # -- painting ----------------------------------------------------------------------------

    def paint(self, item: _Placed, left: float) -> None:
        """Paint one placed block with its top-left at ``(left, item.top)``."""
        p, block, y = self.painter, item.block, item.top
        if isinstance(block, Heading):
            key = f"h{min(block.level, 3)}"
            y += _BEFORE[key] * self.pt
            line = self.metrics[key].height()
            p.setFont(self.fonts[key])
            p.setPen(_INK)
            rect = QRectF(left, y, self.width, line)
            p.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                       block.text)
            if block.note:
                p.setFont(self.fonts["note"])
                p.setPen(_GREY)
                x = left + self._text_width(key, block.text) + 8 * self.pt
                room = self.width - (x - left)
                note = self.metrics["note"].elidedText(block.note, Qt.TextElideMode.ElideRight,
                                                       room)
                p.drawText(QRectF(x, y, room, line - 1.2 * self.pt),
                           int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom), note)
            if block.level == 1:
                p.setPen(QPen(_RULE, 1.4 * self.pt))
                rule_y = y + line + 2.5 * self.pt
                p.drawLine(QPointF(left, rule_y), QPointF(left + self.width, rule_y))
        elif isinstance(block, Paragraph):
            style = "small" if block.small else "body"
            p.setFont(self.fonts[style])
            p.setPen(_GREY if block.small else _INK)
            p.drawText(QRectF(left, y, self.width, item.height),
                       int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft), block.text)
        elif isinstance(block, Fields):
            value_width = self.width - self.label_width
            p.setPen(_INK)
            for label, value in block.pairs:
                h = max(self.metrics["label"].height(), self._wrapped("body", value, value_width))
                p.setFont(self.fonts["label"])
                p.drawText(QRectF(left, y, self.label_width, h), int(Qt.AlignmentFlag.AlignLeft),
                           label)
                p.setFont(self.fonts["body"])
                p.drawText(QRectF(left + self.label_width, y, value_width, h),
                           int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft), value)
                y += h + 1.5 * self.pt
        else:
            self._paint_table(block, left, y)

    def _paint_table(self, table: Table, left: float, y: float) -> None:
        p = self.painter
        widths = self.widths[table.columns]
        inset = 3 * self.pt
        head = self.header_height()
        p.setFont(self.fonts["th"])
        p.setPen(_GREY)
        x = left
        for column, w in zip(table.columns, widths, strict=True):
            p.drawText(QRectF(x + inset, y, w - inset, head - 2 * self.pt),
                       _align(column.align) | int(Qt.AlignmentFlag.AlignBottom),
                       column.title.upper())
            x += w
        total = sum(widths)
        p.setPen(QPen(_RULE, 0.8 * self.pt))
        p.drawLine(QPointF(left, y + head), QPointF(left + total, y + head))
        y += head
        row_h = self.row_height()
        p.setFont(self.fonts["td"])
        metrics = self.metrics["td"]
        for n, row in enumerate(table.rows):
            if n % 2 == 1:  # every other row shaded, so the eye keeps its line across the page
                p.fillRect(QRectF(left, y, total, row_h), _SHADE)
            p.setPen(_INK)
            x = left
            for column, w, cell in zip(table.columns, widths, row, strict=True):
                text = metrics.elidedText(cell, Qt.TextElideMode.ElideRight, w - inset)
                p.drawText(QRectF(x + inset, y, w - inset, row_h),
                           _align(column.align) | int(Qt.AlignmentFlag.AlignVCenter), text)
                x += w
            y += row_h

    def paint_frame(self, document: Document, page: int, pages: int, full: QRectF,
                    body: QRectF) -> None:
        """The page's header (campaign, title, date) and footer (page numbers)."""
        p = self.painter
        line = self.metrics["header"].height()
        top = QRectF(body.left(), full.top(), body.width(), line)
        p.setPen(_GREY)
        p.setFont(self.fonts["header_b"])
        p.drawText(top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                   document.campaign)
        p.setFont(self.fonts["header"])
        p.drawText(top, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter),
                   document.title)
        p.drawText(top, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                   document.date)
        p.setPen(QPen(_GREY, 0.6 * self.pt))
        rule_y = full.top() + line + 2 * self.pt
        p.drawLine(QPointF(body.left(), rule_y), QPointF(body.right(), rule_y))
        p.setPen(_GREY)
        bottom = QRectF(body.left(), full.bottom() - line, body.width(), line)
        p.drawText(bottom, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter),
                   f"Page {page} of {pages}")


def _align(align: Align) -> int:
    return int({Align.LEFT: Qt.AlignmentFlag.AlignLeft,
                Align.CENTRE: Qt.AlignmentFlag.AlignHCenter,
                Align.RIGHT: Qt.AlignmentFlag.AlignRight}[align])


def _paginate(ts: _Typesetter, document: Document, page_height: float,
              title_height: float) -> list[list[_Placed]]:
    pages: list[list[_Placed]] = [[]]
    y = title_height  # the first page opens with the document's title

    def new_page() -> None:
        nonlocal y
        pages.append([])
        y = 0.0

    for unit in document.units:
        heights = [ts.height(b) for b in unit.blocks]
        if pages[-1] and (unit.new_page or y + sum(heights) > page_height):
            new_page()
        if y + sum(heights) <= page_height:
            for block, h in zip(unit.blocks, heights, strict=True):
                pages[-1].append(_Placed(block, y, h))
                y += h
            continue
        # Taller than a whole page: the one case where a unit must break inside.
        for block, h in zip(unit.blocks, heights, strict=True):
            if y + h <= page_height:
                pages[-1].append(_Placed(block, y, h))
                y += h
                continue
            if not isinstance(block, Table):
                if pages[-1]:
                    new_page()
                pages[-1].append(_Placed(block, y, h))
                y += h
                continue
            rows = list(block.rows)
            while rows:
                room = page_height - y - ts.header_height() - _AFTER_TABLE * ts.pt
                fit = int(room // ts.row_height())
                if fit < 1:
                    new_page()
                    continue
                part = Table(block.columns, tuple(rows[:fit]))
                ph = ts.height(part)
                pages[-1].append(_Placed(part, y, ph))
                y += ph
                rows = rows[fit:]
                if rows:
                    new_page()
    return pages


def paint_document(document: Document, device: QPagedPaintDevice) -> int:
    """Typeset ``document`` onto ``device`` (a QPdfWriter or a QPrinter whose page layout is
    already set); the number of pages painted."""
    painter = QPainter()
    if not painter.begin(device):
        raise RuntimeError("the printer could not be started")
    try:
        resolution = device.logicalDpiY()
        layout = device.pageLayout()
        full_rect = layout.paintRectPixels(resolution)
        # QPainter's origin is the paintable area's top-left corner.
        full = QRectF(0, 0, full_rect.width(), full_rect.height())
        ts = _Typesetter(painter, full.width())
        band = ts.metrics["header"].height() + 10 * ts.pt
        body = QRectF(full.left(), full.top() + band, full.width(), full.height() - 2 * band)
        ts.prepare(document)
        title_height = ts.metrics["title"].height() + 8 * ts.pt
        pages = _paginate(ts, document, body.height(), title_height)
        for number, items in enumerate(pages, start=1):
            if number > 1:
                device.newPage()
            ts.paint_frame(document, number, len(pages), full, body)
            if number == 1:
                painter.setFont(ts.fonts["title"])
                painter.setPen(_INK)
                painter.drawText(QRectF(body.left(), body.top(), body.width(), title_height),
                                 int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop),
                                 document.title)
            for item in items:
                shifted = _Placed(item.block, body.top() + item.top, item.height)
                ts.paint(shifted, body.left())
        return len(pages)
    finally:
        painter.end()

"""Typesetting a :class:`Document` onto pages with QPainter: the one layout for PDF and printer.

The layout is done first, in full, so that every page knows how many pages there are; then each
page is painted with its header (the campaign's name, the document's title, the date) and its
footer (``Page 2 of 5``). A unit goes whole onto the page it starts on; if it does not fit in
what is left of the page it starts the next one. Only a unit taller than a whole page is
broken, between blocks or between table rows (the table's header is repeated on the new page).
Nothing is shortened: every line of text wraps in its room, and a table's columns are as wide
as their text, or the widest of them wrap it.
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
    QTextLayout,
    QTextOption,
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
    """Measures and paints blocks on one paint device, in its own pixels.

    Nothing is ever cut short: a heading, a paragraph, a label and a table's cell all wrap in
    the room they have, a word too long for its room breaks inside itself, and a row is as
    tall as its tallest cell."""

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

    @property
    def inset(self) -> float:
        """The space between a table cell's edge and its text."""
        return 3 * self.pt

    def prepare(self, document: Document) -> None:
        """Column widths shared by same-shaped tables, and the room of the field labels.

        A column is as wide as its widest cell when the table fits the page so; otherwise the
        columns with the most text give way, none narrower than its longest word, and their
        cells wrap. Only a table whose longest words alone are wider than the page has its
        columns narrowed further, breaking those words."""
        pad = 10 * self.pt
        natural: dict[tuple[Column, ...], list[float]] = {}
        least: dict[tuple[Column, ...], list[float]] = {}
        label = 0.0
        for block in document.blocks():
            if isinstance(block, Table):
                most = natural.setdefault(block.columns, [0.0] * len(block.columns))
                words = least.setdefault(block.columns, [0.0] * len(block.columns))
                for i, column in enumerate(block.columns):
                    texts = [("td", row[i]) for row in block.rows]
                    texts.append(("th", column.title.upper()))
                    most[i] = max(most[i], *(self._text_width(s, t) for s, t in texts))
                    words[i] = max(words[i], *(self._longest_word(s, t) for s, t in texts))
            elif isinstance(block, Fields):
                for key, _value in block.pairs:
                    label = max(label, self._text_width("label", key))
        for columns, most in natural.items():
            widths = [w + pad for w in most]
            floor = [w + pad for w in least[columns]]
            self.widths[columns] = _fit(widths, floor, self.width)
        # A label takes what it needs, up to two fifths of the line; a longer one wraps.
        self.label_width = min(label + self.pt, 0.4 * self.width) + 12 * self.pt

    def _text_width(self, style: str, text: str) -> float:
        return self.metrics[style].horizontalAdvance(text)

    def _longest_word(self, style: str, text: str) -> float:
        return max((self._text_width(style, word) for word in text.split()), default=0.0)

    def flags(self, style: str, text: str, width: float) -> int:
        """Wrap at spaces, or anywhere when a word alone is wider than ``width``."""
        if self._longest_word(style, text) > width:
            return int(Qt.TextFlag.TextWrapAnywhere)
        return int(Qt.TextFlag.TextWordWrap)

    def wrapped(self, style: str, text: str, width: float) -> float:
        """The height of ``text`` wrapped to ``width``."""
        if not text:
            return self.metrics[style].height()
        flags = self.flags(style, text, width)
        return self.metrics[style].boundingRect(QRectF(0, 0, width, 1e7), flags, text).height()

    def split(self, block: Paragraph, room: float) -> tuple[Paragraph | None, Paragraph | None]:
        """The lines of a paragraph that fit in ``room`` (None if not one does) and the rest
        (None if nothing is left), broken where the painter breaks its lines."""
        style = "small" if block.small else "body"
        option = QTextOption()
        anywhere = self.flags(style, block.text, self.width) == int(Qt.TextFlag.TextWrapAnywhere)
        option.setWrapMode(QTextOption.WrapMode.WrapAnywhere if anywhere
                           else QTextOption.WrapMode.WordWrap)
        layout = QTextLayout(block.text, self.fonts[style], self.painter.device())
        layout.setTextOption(option)
        layout.beginLayout()
        cut, used = 0, 0.0
        room -= 5 * self.pt  # the space after a paragraph
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(self.width)
            if used + line.height() > room:
                break
            used += line.height()
            cut = line.textStart() + line.textLength()
        layout.endLayout()
        head, tail = block.text[:cut].rstrip(), block.text[cut:].lstrip()
        return (Paragraph(head, block.small) if head else None,
                Paragraph(tail, block.small) if tail else None)

    def row_heights(self, table: Table) -> list[float]:
        """Each row's height: its tallest cell, wrapped to its column, and a little air."""
        widths = self.widths[table.columns]
        air = 2.6 * self.pt
        return [max(self.wrapped("td", cell, w - 2 * self.inset)
                    for cell, w in zip(row, widths, strict=True)) + air
                for row in table.rows]

    def header_height(self, columns: tuple[Column, ...]) -> float:
        """A table's header row with its rule."""
        widths = self.widths[columns]
        return max(self.wrapped("th", c.title.upper(), w - 2 * self.inset)
                   for c, w in zip(columns, widths, strict=True)) + 5 * self.pt

    def _heading_parts(self, block: Heading) -> tuple[float, float, bool]:
        """A heading's text height, its note's height, and whether the note sits beside it."""
        key = f"h{min(block.level, 3)}"
        text_h = self.wrapped(key, block.text, self.width)
        if not block.note:
            return text_h, 0.0, False
        beside = (text_h <= self.metrics[key].height() * 1.01
                  and self._text_width(key, block.text) + 8 * self.pt
                  + self._text_width("note", block.note) <= self.width)
        if beside:
            return text_h, 0.0, True
        return text_h, self.wrapped("note", block.note, self.width), False

    def height(self, block: Block) -> float:
        """How much of the page the block takes, with the space after it."""
        if isinstance(block, Heading):
            key = f"h{min(block.level, 3)}"
            before = _BEFORE[key] * self.pt
            rule = 5 * self.pt if block.level == 1 else 0.0
            text_h, note_h, _beside = self._heading_parts(block)
            return before + text_h + note_h + rule + 3 * self.pt
        if isinstance(block, Paragraph):
            style = "small" if block.small else "body"
            return self.wrapped(style, block.text, self.width) + 5 * self.pt
        if isinstance(block, Fields):
            return sum(self._field_height(k, v) + 1.5 * self.pt
                       for k, v in block.pairs) + 5 * self.pt
        return (self.header_height(block.columns) + sum(self.row_heights(block))
                + _AFTER_TABLE * self.pt)

    def _field_height(self, label: str, value: str) -> float:
        return max(self.wrapped("label", label, self.label_width - 12 * self.pt),
                   self.wrapped("body", value, self.width - self.label_width))

    # -- painting ----------------------------------------------------------------------------

    def _text(self, style: str, rect: QRectF, align: int, text: str) -> None:
        """Draw ``text`` wrapped in ``rect`` in the style's font."""
        self.painter.setFont(self.fonts[style])
        self.painter.drawText(rect, align | self.flags(style, text, rect.width()), text)

    def paint(self, item: _Placed, left: float) -> None:
        """Paint one placed block with its top-left at ``(left, item.top)``."""
        p, block, y = self.painter, item.block, item.top
        top_left = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        if isinstance(block, Heading):
            key = f"h{min(block.level, 3)}"
            y += _BEFORE[key] * self.pt
            text_h, note_h, beside = self._heading_parts(block)
            p.setPen(_INK)
            self._text(key, QRectF(left, y, self.width, text_h), top_left, block.text)
            if block.note:
                p.setPen(_GREY)
                if beside:  # on the heading's line, sharing its baseline
                    x = left + self._text_width(key, block.text) + 8 * self.pt
                    descent = self.metrics[key].descent() - self.metrics["note"].descent()
                    self._text("note", QRectF(x, y, left + self.width - x, text_h - descent),
                               int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                               block.note)
                else:
                    self._text("note", QRectF(left, y + text_h, self.width, note_h), top_left,
                               block.note)
            if block.level == 1:
                p.setPen(QPen(_RULE, 1.4 * self.pt))
                rule_y = y + text_h + note_h + 2.5 * self.pt
                p.drawLine(QPointF(left, rule_y), QPointF(left + self.width, rule_y))
        elif isinstance(block, Paragraph):
            style = "small" if block.small else "body"
            p.setPen(_GREY if block.small else _INK)
            self._text(style, QRectF(left, y, self.width, item.height), top_left, block.text)
        elif isinstance(block, Fields):
            value_width = self.width - self.label_width
            p.setPen(_INK)
            for label, value in block.pairs:
                h = self._field_height(label, value)
                self._text("label", QRectF(left, y, self.label_width - 12 * self.pt, h),
                           top_left, label)
                self._text("body", QRectF(left + self.label_width, y, value_width, h), top_left,
                           value)
                y += h + 1.5 * self.pt
        else:
            self._paint_table(block, left, y)

    def _paint_table(self, table: Table, left: float, y: float) -> None:
        p = self.painter
        widths = self.widths[table.columns]
        inset = self.inset
        head = self.header_height(table.columns)
        p.setPen(_GREY)
        x = left
        for column, w in zip(table.columns, widths, strict=True):
            self._text("th", QRectF(x + inset, y, w - 2 * inset, head - 2 * self.pt),
                       _align(column.align) | int(Qt.AlignmentFlag.AlignBottom),
                       column.title.upper())
            x += w
        total = sum(widths)
        p.setPen(QPen(_RULE, 0.8 * self.pt))
        p.drawLine(QPointF(left, y + head), QPointF(left + total, y + head))
        y += head
        for n, (row, row_h) in enumerate(zip(table.rows, self.row_heights(table), strict=True)):
            if n % 2 == 1:  # every other row shaded, so the eye keeps its line across the page
                p.fillRect(QRectF(left, y, total, row_h), _SHADE)
            p.setPen(_INK)
            x = left
            for column, w, cell in zip(table.columns, widths, row, strict=True):
                self._text("td", QRectF(x + inset, y, w - 2 * inset, row_h),
                           _align(column.align) | int(Qt.AlignmentFlag.AlignVCenter), cell)
                x += w
            y += row_h

    def paint_title(self, title: str, rect: QRectF) -> None:
        """The document's title, wrapped, atop its first page."""
        self._text("title", rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop),
                   title)

    def _frame_parts(self, document: Document, width: float) -> tuple[float, float, float]:
        """The header's campaign and date widths, and its height: the title between them
        wraps in what they leave (campaign and date keep their own widths up to a third of
        the line each, wrapping past that)."""
        gap = 10 * self.pt
        left = min(self._text_width("header_b", document.campaign), width / 3)
        right = min(self._text_width("header", document.date), width / 3)
        middle = width - 2 * max(left, right) - 2 * gap
        height = max(self.wrapped("header_b", document.campaign, left),
                     self.wrapped("header", document.date, right),
                     self.wrapped("header", document.title, middle))
        return max(left, right), middle, height

    def frame_height(self, document: Document, width: float) -> float:
        """How tall the page's header is."""
        return self._frame_parts(document, width)[2]

    def paint_frame(self, document: Document, page: int, pages: int, full: QRectF,
                    body: QRectF) -> None:
        """The page's header (campaign, title, date) and footer (page numbers)."""
        p = self.painter
        side, middle, height = self._frame_parts(document, body.width())
        top = int(Qt.AlignmentFlag.AlignTop)
        p.setPen(_GREY)
        self._text("header_b", QRectF(body.left(), full.top(), side, height),
                   top | int(Qt.AlignmentFlag.AlignLeft), document.campaign)
        self._text("header", QRectF(body.left() + (body.width() - middle) / 2, full.top(), middle,
                                    height), top | int(Qt.AlignmentFlag.AlignHCenter),
                   document.title)
        self._text("header", QRectF(body.right() - side, full.top(), side, height),
                   top | int(Qt.AlignmentFlag.AlignRight), document.date)
        p.setPen(QPen(_GREY, 0.6 * self.pt))
        rule_y = full.top() + height + 2 * self.pt
        p.drawLine(QPointF(body.left(), rule_y), QPointF(body.right(), rule_y))
        p.setPen(_GREY)
        line = self.metrics["header"].height()
        bottom = QRectF(body.left(), full.bottom() - line, body.width(), line)
        p.drawText(bottom, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter),
                   f"Page {page} of {pages}")


def _fit(widths: list[float], floor: list[float], room: float) -> list[float]:
    """Column widths that fill no more than ``room``: as they are if they fit; else the widest
    columns are cut down to one common width, none below its ``floor`` (its longest word);
    only when the floors alone are too wide are they all narrowed in proportion.

    >>> _fit([10, 50, 40], [10, 20, 10], 80)
    [10, 35.0, 35.0]
    """
    if sum(widths) <= room:
        return widths
    if sum(floor) >= room:
        return [f * room / sum(floor) for f in floor]
    low, high = 0.0, max(widths)
    for _ in range(60):  # the common width, found by halving: exact well below a point
        cap = (low + high) / 2
        if sum(max(f, min(w, cap)) for w, f in zip(widths, floor, strict=True)) > room:
            high = cap
        else:
            low = cap
    return [max(f, min(w, low)) for w, f in zip(widths, floor, strict=True)]


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
            if isinstance(block, Paragraph) and h > page_height:
                # A paragraph taller than a page: what fits here, the rest on the next pages.
                rest: Paragraph | None = block
                while rest is not None:
                    lines, rest = ts.split(rest, page_height - y)
                    if lines is None:
                        new_page()
                        continue
                    ph = ts.height(lines)
                    pages[-1].append(_Placed(lines, y, ph))
                    y += ph
                    if rest is not None:
                        new_page()
                continue
            if not isinstance(block, Table):
                if pages[-1]:
                    new_page()
                pages[-1].append(_Placed(block, y, h))
                y += h
                continue
            rows = list(zip(block.rows, ts.row_heights(block), strict=True))
            head = ts.header_height(block.columns) + _AFTER_TABLE * ts.pt
            while rows:
                room, fit = page_height - y - head, 0
                while fit < len(rows) and rows[fit][1] <= room:
                    room -= rows[fit][1]
                    fit += 1
                if fit < 1 and pages[-1]:
                    new_page()
                    continue
                fit = max(fit, 1)  # a row taller than a page still goes somewhere
                part = Table(block.columns, tuple(r for r, _h in rows[:fit]))
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
        line = ts.metrics["header"].height() + 10 * ts.pt  # the footer's band
        band = ts.frame_height(document, full.width()) + 10 * ts.pt
        body = QRectF(full.left(), full.top() + band, full.width(), full.height() - band - line)
        ts.prepare(document)
        title_height = ts.wrapped("title", document.title, body.width()) + 8 * ts.pt
        pages = _paginate(ts, document, body.height(), title_height)
        for number, items in enumerate(pages, start=1):
            if number > 1:
                device.newPage()
            ts.paint_frame(document, number, len(pages), full, body)
            if number == 1:
                painter.setPen(_INK)
                ts.paint_title(document.title, QRectF(body.left(), body.top(), body.width(),
                                                      title_height))
            for item in items:
                shifted = _Placed(item.block, body.top() + item.top, item.height)
                ts.paint(shifted, body.left())
        return len(pages)
    finally:
        painter.end()

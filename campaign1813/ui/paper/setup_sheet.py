"""The battle setup sheet on paper: what the umpire lays beside the table before the first chip.

:func:`setup_sheet_pdf` paints a :class:`~campaign1813.campaign.export.setup_sheet.SetupSheet`
onto A4 or Letter pages with QPdfWriter: the table diagram (:mod:`.table_diagram`) beside the
chip list, the special chips in play and the reserve allocation; then, corps by corps (never a
corps split across pages), its commander and chip, its entry and column of march, boxes for its
written orders and objective, its figures at the rules' scale, and per brigade a tally row of
casualty boxes ending at its automatic-rout point, the casualties it brings already marked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPagedPaintDevice,
    QPainter,
    QPdfWriter,
    QPen,
)

from campaign1813.campaign.battle.terms import CorpsOrder
from campaign1813.campaign.export.paper import check_paper_size
from campaign1813.campaign.export.setup_sheet import (
    BrigadeSheet,
    ChipSheet,
    CorpsSheet,
    ReserveSheet,
    SetupSheet,
)
from campaign1813.ui.paper.layout import page_layout
from campaign1813.ui.paper.table_diagram import SIDE_COLOURS, paint_table, table_extent

__all__ = ["setup_sheet_pdf", "paint_setup_sheet"]

RESOLUTION = 300
FAMILY = "DejaVu Sans"
_INK = QColor("#1a1a1a")
_GREY = QColor("#5a5a5a")
_RULE = QColor("#444444")
_SHADE = QColor("#ece7db")
_MARKED = QColor("#c9c1ad")
_RESERVE_ROWS = 3  # write-in rows for the brigades a reserve is given
_FLAGS = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_WRAP = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)


@dataclass
class _Block:
    """A piece of the sheet kept whole on one page: its height and how to paint it at a top."""

    height: float
    paint: Callable[[float], None]
    diagram: float = 0.0  # the table diagram's height, for the opening


class _Painter:
    """The sheet's pens, fonts and measures on one device (pixels at the device's resolution)."""

    def __init__(self, painter: QPainter, dpi: float, width: float) -> None:
        self.p = painter
        self.mm = dpi / 25.4
        self.pt = dpi / 72.0
        self.width = width
        self.fonts = {
            "title": self._font(14, bold=True), "h2": self._font(10.5, bold=True),
            "body": self._font(8.5), "bold": self._font(8.5, bold=True),
            "small": self._font(7.2), "small_b": self._font(7.2, bold=True),
            "header": self._font(7.5),
        }
        self.metrics = {k: QFontMetricsF(f, painter.device()) for k, f in self.fonts.items()}

    @staticmethod
    def _font(points: float, *, bold: bool = False) -> QFont:
        font = QFont(FAMILY)
        font.setPointSizeF(points)
        font.setBold(bold)
        return font

    def line(self, style: str) -> float:
        """The height of one line of text in a style."""
        return self.metrics[style].height() * 1.18

    def text(self, rect: QRectF, style: str, text: str, *, colour: QColor = _INK,
             flags: int = _FLAGS) -> None:
        """Set text in a rectangle."""
        self.p.setFont(self.fonts[style])
        self.p.setPen(colour)
        self.p.drawText(rect, flags, text)

    def wrapped_height(self, style: str, text: str, width: float) -> float:
        """How tall a wrapped paragraph is."""
        box = self.metrics[style].boundingRect(QRectF(0, 0, width, 1e6), _WRAP, text)
        return box.height() + 0.6 * self.mm

    def box(self, rect: QRectF, *, fill: QColor | None = None, width: float = 0.25) -> None:
        """A ruled box, filled or not."""
        self.p.setPen(QPen(_RULE, width * self.mm))
        self.p.setBrush(QBrush(fill) if fill is not None else Qt.BrushStyle.NoBrush)
        self.p.drawRect(rect)

    def cross(self, rect: QRectF) -> None:
        """A tally box already marked: shaded and crossed."""
        self.box(rect, fill=_MARKED)
        self.p.setPen(QPen(_INK, 0.35 * self.mm))
        inset = rect.adjusted(rect.width() * 0.2, rect.height() * 0.2, -rect.width() * 0.2,
                              -rect.height() * 0.2)
        self.p.drawLine(QLineF(inset.topLeft(), inset.bottomRight()))
        self.p.drawLine(QLineF(inset.topRight(), inset.bottomLeft()))

    def rule(self, y: float, left: float, right: float, *, width: float = 0.3) -> None:
        """A horizontal rule."""
        self.p.setPen(QPen(_RULE, width * self.mm))
        self.p.drawLine(QPointF(left, y), QPointF(right, y))


def _orders_row(s: _Painter, x: float, y: float, chosen: str) -> float:
    """The seven written orders as tick boxes, the one the campaign gives ticked; the x it
    ends at."""
    size = 3.0 * s.mm
    for order in CorpsOrder:
        s.box(QRectF(x, y + 0.5 * s.mm, size, size))
        if order.value == chosen:
            s.text(QRectF(x, y + 0.5 * s.mm, size, size), "bold", "✓",
                   flags=int(Qt.AlignmentFlag.AlignCenter))
        width = s.metrics["body"].horizontalAdvance(order.value)
        s.text(QRectF(x + size + 1.0 * s.mm, y, width + 1 * s.mm, 4 * s.mm), "body",
               order.value)
        x += size + width + 3.5 * s.mm
    return x


def _corps_block(s: _Painter, sheet: SetupSheet, corps: CorpsSheet) -> _Block:
    """One corps: heading, entry and column, orders and objective boxes, figures, and the
    brigades with their casualty tallies."""
    line = s.line("body")
    row = 5.6 * s.mm
    head = s.line("h2") + 0.8 * s.mm
    rows = len(corps.brigades) or _RESERVE_ROWS
    extra = 1 if not corps.brigades else 0
    height = head + 4 * line + 8.5 * s.mm + (rows + 1) * row + extra * line + 4 * s.mm

    def paint(top: float) -> None:
        w = s.width
        colour = SIDE_COLOURS.get(corps.side, _INK)
        s.p.fillRect(QRectF(0, top, 1.6 * s.mm, head - 0.6 * s.mm), colour)
        chip = f"chip {corps.chip}" if corps.chip else "no chip"
        title = f"{corps.key}"
        s.text(QRectF(2.8 * s.mm, top, w, head), "h2", title)
        tw = s.metrics["h2"].horizontalAdvance(title)
        about = [corps.side, corps.army, corps.blind] + ([chip] if sheet.chips else [])
        s.text(QRectF(2.8 * s.mm + tw + 3 * s.mm, top, w, head), "body", " · ".join(about),
               colour=_GREY)
        y = top + head
        grade = f"{corps.grade} +{corps.bonus}" if sheet.rules is None else corps.grade
        s.text(QRectF(0, y, w, line), "body", f"Commander: {corps.commander}, {grade}")
        y += line
        march = ", ".join(b.short for b in corps.brigades)
        entry = corps.arrival[0].upper() + corps.arrival[1:]
        if corps.brigades and corps.column_of_march:
            entry += f": {march}"
        s.text(QRectF(0, y, w, line), "body", f"Enters: {entry}")
        y += line
        figures = (f"Figures: {corps.figures.text}" if sheet.rules is None else
                   f"Units: {len(corps.brigades)}, one a brigade or battery "
                   f"(ruleset {sheet.ruleset})")
        s.text(QRectF(0, y, w, line), "body", figures)
        y += line + 0.8 * s.mm
        s.text(QRectF(0, y, 30 * s.mm, 4 * s.mm), "bold", "Written orders:")
        end = _orders_row(s, 27 * s.mm, y, corps.orders)
        s.text(QRectF(end + 1 * s.mm, y, 20 * s.mm, 4 * s.mm), "bold", "Objective:")
        ox = end + 19 * s.mm
        s.rule(y + 3.8 * s.mm, ox, w)
        s.text(QRectF(ox + 1 * s.mm, y, w - ox, 4 * s.mm), "body", corps.objective)
        y += 5.2 * s.mm
        s.text(QRectF(0, y, 30 * s.mm, 4 * s.mm), "small", "Changed to / notes:",
               colour=_GREY)
        s.rule(y + 3.8 * s.mm, 27 * s.mm, w, width=0.2)
        y += 5.2 * s.mm
        if not corps.brigades:
            s.text(QRectF(0, y, w, line), "body",
                   "No brigades of its own: write in what it is allocated (see Reserve "
                   "allocation); cavalry rout at 4, guns at 3.")
            y += line
        _brigade_table(s, corps.brigades, y, row)

    return _Block(height, paint)


def _brigade_table(s: _Painter, brigades: tuple[BrigadeSheet, ...], top: float,
                   row: float) -> None:
    w = s.width
    cols = (0.0, 44 * s.mm, 94 * s.mm, 119 * s.mm)  # brigade, ratings, figures, tally
    converted = any(b.unit for b in brigades)  # the ruleset's units, their hits or steps
    heads = ("Brigade", "As a unit" if converted else "Ratings",
             "Bases" if converted else "Figures",
             "Tally (⊠ brought in; red: out)" if converted
             else "Casualties (⊠ brought in)")
    s.p.fillRect(QRectF(0, top, w, row), _SHADE)
    for x, text in zip(cols, heads, strict=True):
        s.text(QRectF(x + 1 * s.mm, top, w - x, row), "small_b", text)
    y = top + row
    box = 4.2 * s.mm
    if not brigades:  # a reserve: rows to write its allocated brigades into
        for _ in range(_RESERVE_ROWS):
            s.rule(y + row - 1.2 * s.mm, cols[0] + 1 * s.mm, cols[3] - 3 * s.mm, width=0.15)
            x = cols[3] + 1 * s.mm
            for _n in range(4):
                s.box(QRectF(x, y + (row - box) / 2, box, box))
                x += box + 0.9 * s.mm
            s.rule(y + row, 0, w, width=0.15)
            y += row
        return
    for b in brigades:
        style = "bold"
        if s.metrics["bold"].horizontalAdvance(b.name) > cols[1] - cols[0] - 2 * s.mm:
            style = "small_b"  # "IV Prussian Corps Artillery" keeps its whole name
        s.text(QRectF(cols[0] + 1 * s.mm, y, cols[1] - cols[0], row), style, b.name)
        s.text(QRectF(cols[1] + 1 * s.mm, y, cols[2] - cols[1], row), "body",
               b.unit or b.ratings)
        s.text(QRectF(cols[2] + 1 * s.mm, y, cols[3] - cols[2], row), "small",
               b.figures.removesuffix(" figures").replace(" and ", ", "))
        x = cols[3] + 1 * s.mm
        # seed 002's hits (up to 19 boxes) in smaller boxes, so that a row holds them
        box, space = (2.4 * s.mm, 0.3 * s.mm) if b.rout_point > 10 else (4.2 * s.mm,
                                                                         0.9 * s.mm)
        for n in range(1, b.rout_point + 1):
            cell = QRectF(x, y + (row - box) / 2, box, box)
            if n <= b.casualties:
                s.cross(cell)
            else:
                s.box(cell, width=0.45 if n == b.rout_point else 0.25,
                      fill=QColor("#f6dcd5") if n == b.rout_point else None)
            if n == b.rout_point and n > b.casualties and box > 3 * s.mm:  # room to number
                s.text(cell, "small_b", str(n), colour=QColor("#8a2a1f"),
                       flags=int(Qt.AlignmentFlag.AlignCenter))
            x += box + space
        # a converted unit's tally is in words in its heading and its last box
        note = "" if b.unit else b.tally_note
        if b.casualties:
            note += (", " if note else "") + f"{b.casualties} in"
        s.text(QRectF(x + 1 * s.mm, y, w - x, row), "small", note, colour=_GREY)
        s.rule(y + row, 0, w, width=0.15)
        y += row


def _chips(s: _Painter, sheet: SetupSheet, top: float, *, paint: bool) -> float:
    """The chips in the bag in three columns: the French commanders' chips, the Allies', and
    the special chips in play with what each does; the height they take."""
    w = s.width
    gap = 4 * s.mm
    col = (w - 2 * gap) / 3
    line = s.line("small")
    head = s.line("h2")
    if not sheet.chips:  # a ruleset of its own sequence: no bag to draw from
        return _own_rules(s, sheet, top, paint=paint)
    if paint:
        s.text(QRectF(0, top, w, head), "h2", "Chips in the bag")
    bottom = top + head
    for i, side in enumerate(("French", "Allied")):
        y = top + head
        for chip in (c for c in sheet.chips if not c.special and c.side == side):
            y = _chip_row(s, chip, i * (col + gap), y, col, line, paint=paint)
        bottom = max(bottom, y)
    x = 2 * (col + gap)
    y = top + head
    if paint:
        s.text(QRectF(x, y, col, s.line("bold")), "bold", "Special chips in play")
    y += s.line("bold")
    for chip in sheet.specials:
        text = f"{chip.label}: {chip.meaning or ''}"
        h = s.wrapped_height("small", text, col - 5 * s.mm)
        if paint:
            s.box(QRectF(x, y + 0.6 * s.mm, 3.4 * s.mm, 3.4 * s.mm))
            s.text(QRectF(x + 5 * s.mm, y, col - 5 * s.mm, h), "small", text, flags=_WRAP)
        y += h + 0.4 * s.mm
    return max(bottom, y) - top


def _own_rules(s: _Painter, sheet: SetupSheet, top: float, *, paint: bool) -> float:
    """A ruleset of its own: no chips but its sequence of play, its own figures (how a unit
    and an army are lost) and where each commander goes; the height they take."""
    w = s.width
    head, bold = s.line("h2"), s.line("bold")
    intro = (f"No chips: ruleset {sheet.ruleset} has a sequence of play of its own, which "
             "the battle window leads turn by turn. Each brigade below is the unit it "
             "becomes, with its tally in the ruleset's measure.")
    sections: list[tuple[str, tuple[str, ...]]] = [("", (intro,))]
    if sheet.rules is not None:
        sections += [("Each turn", sheet.rules.sequence),
                     ("Losses and victory", sheet.rules.notes),
                     ("Commanders", sheet.rules.leaders),
                     ("From the campaign's corps", sheet.rules.mapping)]
    y = top
    if paint:
        s.text(QRectF(0, y, w, head), "h2", "Sequence of play")
    y += head
    for title, lines in sections:
        if not lines:
            continue
        if title:
            if paint:
                s.text(QRectF(0, y, w, bold), "bold", title)
            y += bold
        for text in lines:
            h = s.wrapped_height("small" if title else "body", text, w)
            if paint:
                s.text(QRectF(0, y, w, h), "small" if title else "body", text, flags=_WRAP)
            y += h
    return y - top


def _chip_row(s: _Painter, chip: ChipSheet, left: float, y: float, width: float,
              line: float, *, paint: bool) -> float:
    disc = 5.2 * s.mm
    step = max(disc + 1.2 * s.mm, 2 * line * 0.92 + 0.6 * s.mm)
    if not paint:
        return y + step
    colour = SIDE_COLOURS.get(chip.side or "", _INK)
    s.p.setPen(QPen(colour, 0.4 * s.mm))
    s.p.setBrush(QBrush(QColor("#ffffff")))
    s.p.drawEllipse(QRectF(left, y + 0.4 * s.mm, disc, disc))
    s.text(QRectF(left, y + 0.4 * s.mm, disc, disc), "small_b", chip.label, colour=colour,
           flags=int(Qt.AlignmentFlag.AlignCenter))
    x = left + disc + 1.8 * s.mm
    s.text(QRectF(x, y, width - x + left, line), "small_b", chip.commander or "")
    role = {"CinC": "CinC", "reserve commander": "reserve commander"}.get(chip.role or "",
                                                                          chip.command)
    arrives = f" · {chip.meaning}" if chip.meaning else ""  # a CinC marching to the guns
    s.text(QRectF(x, y + line * 0.92, width - x + left, line), "small",
           f"{role} · {chip.grade}{arrives}", colour=_GREY)
    return y + step


def _reserve_block(s: _Painter, sheet: SetupSheet, reserve: ReserveSheet) -> _Block:
    """A side's reserve commander and the cavalry and guns he may take from the corps."""
    line = s.line("body")
    cols = 2
    rows = (len(reserve.candidates) + cols - 1) // cols
    height = s.line("h2") + line + max(rows, 1) * 5 * s.mm + 3 * s.mm

    def paint(top: float) -> None:
        w = s.width
        colour = SIDE_COLOURS.get(reserve.side, _INK)
        s.p.fillRect(QRectF(0, top, 1.6 * s.mm, s.line("h2") - 0.6 * s.mm), colour)
        chip = f"chip {reserve.chip}" if reserve.chip else "no chip"
        s.text(QRectF(2.8 * s.mm, top, w, s.line("h2")), "h2",
               f"Reserve allocation — {reserve.side}")
        y = top + s.line("h2")
        s.text(QRectF(0, y, w, line), "body",
               f"{reserve.commander}, {reserve.grade}, {chip}: tick the cavalry and guns "
               f"taken from the corps before the game starts")
        y += line
        if not reserve.candidates:
            s.text(QRectF(0, y, w, line), "small", "No cavalry or guns to allocate.",
                   colour=_GREY)
        half = w / cols
        for i, (corps, brigade) in enumerate(reserve.candidates):
            x = (i % cols) * half
            yy = y + (i // cols) * 5 * s.mm
            s.box(QRectF(x, yy + 0.8 * s.mm, 3.4 * s.mm, 3.4 * s.mm))
            s.text(QRectF(x + 5 * s.mm, yy, half - 5 * s.mm, 5 * s.mm), "body",
                   f"{brigade} ({corps})")

    return _Block(height, paint)


def _terrain_lines(sheet: SetupSheet) -> list[str]:
    """The terrain that is not a road, square by square, and the roads by bearing."""
    out = []
    for sq in sheet.table.squares:
        marks = [t for t in sq.terrain if not t.startswith("road to ")]
        if marks:
            out.append(f"{sq.name}: {', '.join(marks)}")
    roads = "; ".join(f"{r.to} {r.bearing:.0f}° ({r.road_class}, {r.edge.value} edge)"
                      for r in sheet.table.roads)
    if roads:
        out.append(f"Roads: {roads}")
    if sheet.table.river and not sheet.table.river_from_map:
        out.append(f"The {sheet.table.river}'s course is not on the map: drawn straight "
                   f"across its crossings.")
    return out


def paint_setup_sheet(sheet: SetupSheet, device: QPagedPaintDevice) -> int:
    """Paint the setup sheet onto a QPdfWriter or QPrinter whose page layout is set; the
    number of pages."""
    painter = QPainter()
    if not painter.begin(device):
        raise RuntimeError("the printer could not be started")
    try:
        dpi = device.logicalDpiY()
        full_px = device.pageLayout().paintRectPixels(dpi)
        width, height = float(full_px.width()), float(full_px.height())
        s = _Painter(painter, dpi, width)
        band = s.line("header") + 2 * s.mm
        body_top, body_bottom = band, height - band
        pages = _layout(s, sheet, body_bottom - body_top)
        for number, blocks in enumerate(pages, start=1):
            if number > 1:
                device.newPage()
            _frame(s, sheet, number, len(pages), width, height)
            for top, block in blocks:
                block.paint(body_top + top)
        return len(pages)
    finally:
        painter.end()


def _layout(s: _Painter, sheet: SetupSheet, room: float) -> list[list[tuple[float, _Block]]]:
    """The sheet's blocks on pages: the title and table, the chips (or the ruleset's own
    sequence), the terrain, each corps, the reserves; a block goes whole onto the page it
    starts on, so nothing runs past a page's foot."""
    corps = [_corps_block(s, sheet, c) for c in sheet.corps if not c.reserve]
    gap = 3.0 * s.mm
    opening = _opening(s, sheet)
    chips, terrain = _chips_block(s, sheet), _terrain_block(s, sheet)
    first = opening.height + chips.height + terrain.height + 2 * gap
    if corps and first + gap + corps[0].height > room:
        # A smaller table, if it stays large enough to read, lets the first corps share page 1.
        spare = room - first - gap - corps[0].height
        smaller = _opening(s, sheet, shrink=-spare)
        if smaller.diagram >= 110 * s.mm:
            opening = smaller
    blocks = [opening, chips, terrain, *corps]
    blocks += [_corps_block(s, sheet, c) for c in sheet.corps if c.reserve]
    blocks += [_reserve_block(s, sheet, r) for r in sheet.reserves]
    pages: list[list[tuple[float, _Block]]] = [[]]
    y = 0.0
    for block in blocks:
        if pages[-1] and y + block.height > room:
            pages.append([])
            y = 0.0
        pages[-1].append((y, block))
        y += block.height + gap
    return pages


def _opening(s: _Painter, sheet: SetupSheet, shrink: float = 0.0) -> _Block:
    """The title and the table diagram across the page."""
    w = s.width
    title_h = s.line("title") + s.line("body") + 1.5 * s.mm
    extent = table_extent(sheet)
    diagram_h = w * extent.height() / extent.width()
    diagram_h = min(diagram_h, 150 * s.mm) - shrink
    height = title_h + diagram_h

    def paint(top: float) -> None:
        s.text(QRectF(0, top, w, s.line("title")), "title", f"Setup: {sheet.heading}")
        sub = (f"Battle {sheet.battle} · {sheet.table.size_text}, {sheet.table.town} in the "
               f"centre · rules {sheet.ruleset}, {sheet.turns} turns · dice seed {sheet.seed}")
        s.text(QRectF(0, top + s.line("title"), w, s.line("body")), "body", sub, colour=_GREY)
        paint_table(s.p, sheet, QRectF(0, top + title_h, w, diagram_h))

    return _Block(height, paint, diagram_h)


def _chips_block(s: _Painter, sheet: SetupSheet) -> _Block:
    """The chips in the bag, or the sequence of play of a ruleset that draws none."""

    def paint(top: float) -> None:
        _chips(s, sheet, top, paint=True)

    return _Block(_chips(s, sheet, 0.0, paint=False), paint)


def _terrain_block(s: _Painter, sheet: SetupSheet) -> _Block:
    """The terrain in words."""
    w = s.width
    terrain = _terrain_lines(sheet)
    height = sum(s.wrapped_height("small", t, w) for t in terrain) + s.line("bold")

    def paint(top: float) -> None:
        s.text(QRectF(0, top, w, s.line("bold")), "bold", "Terrain")
        y = top + s.line("bold")
        for t in terrain:
            h = s.wrapped_height("small", t, w)
            s.text(QRectF(0, y, w, h), "small", t, flags=_WRAP)
            y += h

    return _Block(height, paint)


def _frame(s: _Painter, sheet: SetupSheet, page: int, pages: int, width: float,
           height: float) -> None:
    line = s.line("header")
    top = QRectF(0, 0, width, line)
    s.text(top, "header", sheet.campaign, colour=_GREY)
    s.text(top, "header", f"Battle setup — {sheet.place}", colour=_GREY,
           flags=int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter))
    s.text(top, "header", sheet.date_text, colour=_GREY,
           flags=int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))
    s.rule(line + 0.6 * s.mm, 0, width, width=0.2)
    s.text(QRectF(0, height - line, width, line), "header", f"Page {page} of {pages}",
           colour=_GREY, flags=int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter))


def setup_sheet_pdf(sheet: SetupSheet, paper_size: str = "a4") -> bytes:
    """The setup sheet as PDF bytes on ``a4`` or ``letter`` pages (a Qt application must be
    running)."""
    size = check_paper_size(paper_size)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(RESOLUTION)
    writer.setPageLayout(page_layout(size))
    writer.setTitle(f"Setup: {sheet.heading} — {sheet.campaign}")
    writer.setCreator("campaign1813")
    paint_setup_sheet(sheet, writer)
    del writer  # the writer finishes the file when it goes
    buffer.close()
    return bytes(data.data())

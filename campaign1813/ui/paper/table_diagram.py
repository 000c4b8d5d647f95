"""The tabletop of one battle, drawn once with QPainter for the PDF sheet, the SVG and the screen.

:func:`paint_table` paints a :class:`~campaign1813.campaign.export.setup_sheet.SetupSheet`'s
table into any rectangle of any QPaintDevice: the nine 2-ft squares, the battle town in the
centre with its built-up area and fortress, the river on its course and the crossings, the roads
leaving in their real bearings, and round the table each side's entries (edge, turn, the corps
in the order they come on and each corps' column of march, cavalry first) with their blinds.
North is at the top. :func:`table_svg` gives the drawing as an SVG document. A battle in
progress has a ``BattleSetup``; ``export.setup_sheet.setup_sheet(setup)`` gives what this draws.

The drawing works in its own units: the table is ``TABLE`` units across (100 to the foot), with
a ``MARGIN`` beside each edge that corps come on by and a ``SLIM`` one beside the others
(:func:`table_extent`), so text keeps its size relative to the table whatever the device.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QLineF, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)
from PySide6.QtSvg import QSvgGenerator

from campaign1813.campaign.battle.setup import FRENCH, Edge
from campaign1813.campaign.export.setup_sheet import (
    CorpsSheet,
    EntrySheet,
    RoadSheet,
    SetupSheet,
    SquareSheet,
)

__all__ = ["paint_table", "table_svg", "table_extent", "table_plan", "TablePlan", "Mark",
           "TABLE", "MARGIN", "SIDE_COLOURS"]

TABLE = 600.0  # the 6-ft table, 100 units to the foot
MARGIN = 200.0  # beside an edge that corps come on by, for their words
SLIM = 64.0  # beside an edge that none come on by
FAMILY = "DejaVu Sans"

SIDE_COLOURS = {FRENCH: QColor("#1f4e9c"), "Allied": QColor("#a3241c")}
_GROUND = QColor("#e6edd2")
_GRID = QColor("#7d8a66")
_ROAD_EDGE = QColor("#7a5230")
_ROAD_CORE = QColor("#f0d9a8")
_RIVER = QColor("#5b93cf")
_ROOFS = QColor("#b0584c")
_WALL = QColor("#3b3b3b")
_INK = QColor("#1a1a1a")
_GREY = QColor("#5a5a5a")
_WRAP = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)


def _font(size: float, *, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont(FAMILY)
    font.setPixelSize(max(1, round(size)))
    font.setBold(bold)
    font.setItalic(italic)
    return font


def _feet(point: Sequence[float], feet: float = 6.0) -> QPointF:
    """A point in feet from the north-west corner of a table ``feet`` across, in the drawing's
    units (the table is always drawn ``TABLE`` units across)."""
    return QPointF(MARGIN + point[0] * TABLE / feet, MARGIN + point[1] * TABLE / feet)


def table_extent(sheet: SetupSheet) -> QRectF:
    """The part of the drawing's frame that is used: the table and a margin at each edge, wide
    where corps come on and slim where none do; deeper where the words of the entries at an
    edge need it, so that none runs into an arrow or off the drawing."""
    used = {e.edge for e in sheet.entries if e.edge is not None}
    m = {edge: MARGIN if edge in used else SLIM for edge in Edge}
    corps = {c.key: c for c in sheet.corps}
    width = TABLE + m[Edge.WEST] + m[Edge.EAST]
    for edge, below in ((Edge.NORTH, 76.0), (Edge.SOUTH, 72.0)):
        entries = [e for e in sheet.entries if e.edge is edge]
        if entries:
            lo, hi = _edge_span(edge, QRectF(MARGIN - m[Edge.WEST], 0, width, 1))
            size = _box_size(edge, len(entries), lo, hi)
            need = max(_words_height(_paragraphs(e, corps), size - 8) for e in entries)
            m[edge] = max(m[edge], need + below)
    for edge, pad in ((Edge.WEST, 10.0 + 50.0), (Edge.EAST, 80.0 + 4.0)):
        entries = [e for e in sheet.entries if e.edge is edge]
        # Each entry's words, the gap after them, and room to step past its arrow.
        need = sum(_words_height(_paragraphs(e, corps), MARGIN - 16) + 8 + 90 for e in entries)
        have = TABLE + m[Edge.NORTH] + m[Edge.SOUTH] - pad
        if entries and need > have:
            m[Edge.SOUTH] += need - have
    return QRectF(MARGIN - m[Edge.WEST], MARGIN - m[Edge.NORTH],
                  TABLE + m[Edge.WEST] + m[Edge.EAST], TABLE + m[Edge.NORTH] + m[Edge.SOUTH])


def _paragraphs(entry: EntrySheet,
                corps: dict[str, CorpsSheet]) -> list[tuple[QFont, QColor, str, float]]:
    """An entry's words in the margin: the side and turn, the edge and road, and each corps
    with its orders and column; each with its font, colour and the space after it."""
    colour = SIDE_COLOURS.get(entry.side, _INK)
    where = f"{entry.edge.value if entry.edge else ''} edge"
    if entry.road:
        where += f", {entry.road} road"
    out: list[tuple[QFont, QColor, str, float]] = [
        (_font(18, bold=True), colour, f"{entry.side}, turn {entry.turn}", 0.0)]
    if entry.turn > 1:
        out.append((_font(18, bold=True), colour, "reinforcements", 0.0))
    out.append((_font(15), colour, where, 3.0))
    for key in entry.corps:
        c = corps[key]
        out.append((_font(17, bold=True), _INK,
                    f"{c.blind.removeprefix('Blind ')} {c.key} — {c.orders}", 0.0))
        if c.brigades:
            how = "column: " if c.column_of_march else "deployed: "
            march = how + ", ".join(b.short for b in c.brigades)
        else:
            march = "reserve: as allocated"
        out.append((_font(15), _GREY, march, 4.0))
    return out


def _words_height(paragraphs: Sequence[tuple[QFont, QColor, str, float]], width: float) -> float:
    return sum(QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e4), _WRAP, text).height()
               + after for font, _colour, text, after in paragraphs) + 2


def paint_table(painter: QPainter, sheet: SetupSheet, target: QRectF) -> None:
    """Paint the battle's table, its entries and blinds into ``target``, as large as it fits
    without changing its shape, centred."""
    extent = table_extent(sheet)
    scale = min(target.width() / extent.width(), target.height() / extent.height())
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        painter.translate(target.left() + (target.width() - extent.width() * scale) / 2,
                          target.top() + (target.height() - extent.height() * scale) / 2)
        painter.scale(scale, scale)
        painter.translate(-extent.left(), -extent.top())
        _Drawing(painter, sheet, extent).paint()
    finally:
        painter.restore()


class _Drawing:
    """One painting of the table in the drawing's own units."""

    def __init__(self, painter: QPainter, sheet: SetupSheet, extent: QRectF) -> None:
        self.p = painter
        self.extent = extent
        self.sheet = sheet
        self.table = sheet.table
        self.centre = self._at((sheet.table.feet / 2, sheet.table.feet / 2))
        self.corps = {c.key: c for c in sheet.corps}

    def _at(self, point: Sequence[float]) -> QPointF:
        return _feet(point, self.table.feet)

    def paint(self) -> None:
        """Everything, from the ground up: the markers are placed first, then every word
        where it covers no marker (:meth:`plan`)."""
        plan = self.plan()
        self._squares()
        self.p.save()
        self.p.setClipRect(QRectF(MARGIN, MARGIN, TABLE, TABLE))
        self._river()
        self._roads()
        self._town()
        self._crossings()
        self.p.restore()
        self._frame(plan)
        self._labels(plan)
        self._deployed(plan)
        for place in plan.entries:
            self._entry(place)
        self._compass()
        self._scale()

    # -- where everything goes -----------------------------------------------------------------
    def plan(self) -> TablePlan:
        """Where each marker and each word goes: the blinds, arrows, compass and scale where
        the rules put them, the words (road and river names, the squares' names) each at the
        first of its places that covers no marker and no word placed before it."""
        plan = TablePlan()
        table = QRectF(MARGIN, MARGIN, TABLE, TABLE)
        plan.markers.append(Mark("town", self.table.town, _star_fort(self.centre, 78.0, 5)))
        plan.markers.append(Mark("compass", "N", _shape(self._compass_box())))
        plan.markers.append(Mark("scale", f"{self.table.square_feet} ft",
                                 _shape(self._scale_box())))
        self._plan_deployed(plan)
        for edge in Edge:
            entries = [e for e in self.sheet.entries if e.edge is edge]
            if entries:
                self._plan_edge(plan, edge, entries)
        plan.labels.append(Mark("town", self.table.town, _shape(self._town_box())))
        strips = [_strip(QLineF(self.centre, self._at(r.exit)), 8.0) for r in self.table.roads]
        for road in self.table.roads:
            self._plan_road(plan, road, table)
        self._plan_river(plan, strips, table)
        for sq in self.table.squares:
            if sq.name != "centre":  # the town names it
                self._plan_square(plan, sq, strips)
        return plan

    def _clear(self, plan: TablePlan, shape: QPolygonF, inside: QRectF | None = None,
               avoid: Sequence[QPolygonF] = ()) -> bool:
        """Whether words in ``shape`` would cover no marker, no word and nothing of ``avoid``,
        and lie within ``inside``."""
        if inside is not None and not inside.contains(shape.boundingRect()):
            return False
        return not any(shape.intersects(m.shape) for m in (*plan.markers, *plan.labels)) and \
            not any(shape.intersects(a) for a in avoid)

    # -- the ground --------------------------------------------------------------------------
    def _squares(self) -> None:
        p = self.p
        p.setPen(QPen(_GRID, 2.0))
        p.setBrush(QBrush(_GROUND))
        step = TABLE / 3
        for sq in self.table.squares:
            p.drawRect(QRectF(MARGIN + sq.col * step, MARGIN + sq.row * step, step, step))

    def _frame(self, plan: TablePlan) -> None:
        """The table's edge, and each square's name in a corner of it that is clear."""
        p = self.p
        p.setPen(QPen(_INK, 4.0))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(_box(QRectF(MARGIN, MARGIN, TABLE, TABLE)))
        p.setFont(_font(17))
        p.setPen(_GRID)
        for mark in plan.labels:
            if mark.kind == "square":
                p.drawText(mark.shape.boundingRect(), int(Qt.AlignmentFlag.AlignCenter),
                           mark.text)

    def _plan_square(self, plan: TablePlan, sq: SquareSheet, strips: Sequence[QPolygonF]) -> None:
        step = TABLE / 3
        w = QFontMetricsF(_font(17)).horizontalAdvance(sq.name) + 6
        left, top = MARGIN + sq.col * step, MARGIN + sq.row * step
        corners = [QRectF(left + 4, top + 4, w, 22), QRectF(left + step - 4 - w, top + 4, w, 22),
                   QRectF(left + 4, top + step - 26, w, 22),
                   QRectF(left + step - 4 - w, top + step - 26, w, 22)]
        shapes = [_shape(r) for r in corners]
        # A corner clear of roads and river too if there is one; else one clear of words.
        river = self._river_strip()
        spot = next((s for s in shapes if self._clear(plan, s, avoid=[*strips, *river])),
                    next((s for s in shapes if self._clear(plan, s)), None))
        if spot is not None:
            plan.labels.append(Mark("square", sq.name, spot))

    def _river(self) -> None:
        course = [self._at(pt) for pt in self.table.river_course]
        if len(course) < 2:
            return
        path = QPainterPath(course[0])
        for pt in course[1:]:
            path.lineTo(pt)
        self.p.setBrush(Qt.BrushStyle.NoBrush)
        self.p.setPen(QPen(_RIVER, 22.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                           Qt.PenJoinStyle.RoundJoin))
        self.p.drawPath(path)

    def _roads(self) -> None:
        p = self.p
        for road in self.table.roads:
            end = self._at(road.exit)
            line = QLineF(self.centre, end)
            width = {"main": 13.0, "minor": 9.0}.get(road.road_class, 5.0)
            if road.road_class == "track":
                p.setPen(QPen(_ROAD_EDGE, width, Qt.PenStyle.DashLine, Qt.PenCapStyle.FlatCap))
                p.drawLine(line)
                continue
            p.setPen(QPen(_ROAD_EDGE, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            p.drawLine(line)
            p.setPen(QPen(_ROAD_CORE, width * 0.45, Qt.PenStyle.SolidLine,
                          Qt.PenCapStyle.FlatCap))
            p.drawLine(line)

    def _town(self) -> None:
        p, c = self.p, self.centre
        if self.table.fortress:
            p.setPen(QPen(_WALL, 5.0))
            p.setBrush(QBrush(QColor("#d9d2bd")))
            p.drawPolygon(_star_fort(c, 78.0, 5))
        if self.table.built_up:
            p.setPen(QPen(QColor("#6b2f27"), 1.5))
            p.setBrush(QBrush(_ROOFS))
            for dx, dy, w, h in _BLOCKS:
                p.drawPath(_box(QRectF(c.x() + dx, c.y() + dy, w, h)))
        else:
            p.setPen(QPen(QColor("#6b2f27"), 1.5))
            p.setBrush(QBrush(_ROOFS))
            for dx, dy, w, h in _BLOCKS[:4]:
                p.drawPath(_box(QRectF(c.x() + dx, c.y() + dy, w, h)))

    def _crossings(self) -> None:
        """A bridge, ford or ferry where a crossing road meets the river; a short stretch of
        river across the road where the course does not meet it (another river)."""
        course = [self._at(pt) for pt in self.table.river_course]
        for road in self.table.roads:
            if not road.river:
                continue
            road_line = QLineF(self.centre, self._at(road.exit))
            at = _meeting(road_line, course) if road.river == self.table.river else None
            if at is None:
                at = road_line.pointAt(0.72)
                self._river_stub(road_line, at)
            self._crossing_mark(road, road_line, at)

    def _river_stub(self, road: QLineF, at: QPointF) -> None:
        normal = road.normalVector().unitVector()
        d = QPointF(normal.dx() * 45, normal.dy() * 45)
        self.p.setPen(QPen(_RIVER, 16.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        self.p.drawLine(QLineF(at - d, at + d))

    def _crossing_mark(self, road: RoadSheet, line: QLineF, at: QPointF) -> None:
        p = self.p
        unit = line.unitVector()
        along = QPointF(unit.dx(), unit.dy())
        across = QPointF(-along.y(), along.x())
        if road.crossing == "bridge":
            p.setPen(QPen(_WALL, 4.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            for s in (-1, 1):
                off = across * (11.0 * s)
                p.drawLine(QLineF(at - along * 17 + off, at + along * 17 + off))
        elif road.crossing == "ford":
            p.setPen(QPen(_WALL, 3.0, Qt.PenStyle.DotLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(QLineF(at - across * 16, at + across * 16))
        else:
            p.setPen(QPen(_WALL, 3.0))
            p.setBrush(QBrush(QColor("#ffffff")))
            p.drawEllipse(at, 10.0, 10.0)

    # -- words on the table ------------------------------------------------------------------
    def _road_text(self, road: RoadSheet) -> str:
        return f"{road.to} {road.bearing:.0f}°"

    def _plan_road(self, plan: TablePlan, road: RoadSheet, table: QRectF) -> None:
        """A road's name along it, as near the table's edge as it is clear: on the road's
        left or right, drawn in from the edge until nothing is under it."""
        line = QLineF(self.centre, self._at(road.exit))
        text = self._road_text(road)
        # A long name on a short road is set smaller before it may cover anything.
        for size in (17, 15, 13):
            w = QFontMetricsF(_font(size, bold=True)).horizontalAdvance(text) + 10
            tries = [_along_line(line, far, w, side)
                     for far in (0.97, 0.93, 0.89, 0.85, 0.81, 0.77, 0.73, 0.69, 0.65, 0.61,
                                 0.57, 0.53, 0.49)
                     for side in (-28.0, 8.0)]
            spot = next((t for t in tries if self._clear(plan, t, table)), None)
            if spot is not None:
                plan.labels.append(Mark("road", text, spot, size=size))
                return
        spot = next((t for t in tries if self._clear(plan, t)), tries[0])
        plan.labels.append(Mark("road", text, spot, size=13))

    def _labels(self, plan: TablePlan) -> None:
        p = self.p
        for mark in plan.labels:
            if mark.kind != "road":
                continue
            poly = mark.shape
            a, b, d = poly.at(0), poly.at(1), poly.at(3)
            along = QLineF(a, b)
            p.save()
            p.translate(a)
            p.rotate(-along.angle())
            box = QRectF(0, 0, along.length(), QLineF(a, d).length())
            p.setFont(_font(mark.size, bold=True))
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(QColor(255, 255, 255, 200)))
            p.drawRoundedRect(box, 4, 4)
            p.setPen(_ROAD_EDGE)
            p.drawText(box, int(Qt.AlignmentFlag.AlignCenter), mark.text)
            p.restore()
        self._town_label()
        self._river_label(plan)

    def _town_box(self) -> QRectF:
        t, c = self.table, self.centre
        name_w = QFontMetricsF(_font(24, bold=True)).horizontalAdvance(t.town)
        note_w = QFontMetricsF(_font(16)).horizontalAdvance(self._town_note())
        w = max(name_w, note_w) + 16
        return QRectF(c.x() - w / 2, c.y() + 84, w, 50)

    def _town_note(self) -> str:
        t = self.table
        what = [t.kind]
        if t.fortress and t.kind != "fortress":
            what.append("fortress")
        if t.built_up:
            what.append("built-up")
        return ", ".join(what)

    def _town_label(self) -> None:
        p, t = self.p, self.table
        note = self._town_note()
        box = self._town_box()
        p.setPen(QPen(_INK, 1.5))
        p.setBrush(QBrush(QColor(255, 255, 255, 230)))
        p.drawRoundedRect(box, 5, 5)
        p.setPen(_INK)
        p.setFont(_font(24, bold=True))
        p.drawText(QRectF(box.left(), box.top() + 1, box.width(), 28),
                   int(Qt.AlignmentFlag.AlignCenter), t.town)
        p.setFont(_font(16))
        p.setPen(_GREY)
        p.drawText(QRectF(box.left(), box.top() + 27, box.width(), 20),
                   int(Qt.AlignmentFlag.AlignCenter), note)

    def _river_strip(self) -> list[QPolygonF]:
        course = [self._at(pt) for pt in self.table.river_course]
        return [_strip(QLineF(a, b), 12.0) for a, b in zip(course, course[1:], strict=False)]

    def _plan_river(self, plan: TablePlan, roads: Sequence[QPolygonF], table: QRectF) -> None:
        """The river's name along its course: on the stretches farthest from the town first
        (clear of the roofs), where it crosses no road and covers no marker or word."""
        course = [self._at(pt) for pt in self.table.river_course]
        if len(course) < 2 or not self.table.river:
            return
        w = QFontMetricsF(_font(22, bold=True, italic=True)).horizontalAdvance(
            self.table.river) + 12
        segments = sorted(zip(course, course[1:], strict=False),
                          key=lambda ab: -QLineF(self.centre, (ab[0] + ab[1]) / 2).length())
        tries = []
        for a, b in segments:
            line = QLineF(a, b)
            if line.length() < w:
                continue
            for at in (0.5, 0.35, 0.65, 0.2, 0.8):
                tries.append(_centred_on(line, at, w, 28.0))
        if not tries:
            a, b = segments[0]
            tries.append(_centred_on(QLineF(a, b), 0.5, w, 28.0))
        spot = next((t for t in tries if self._clear(plan, t, table, roads)),
                    next((t for t in tries if self._clear(plan, t, table)), tries[0]))
        plan.labels.append(Mark("river", self.table.river, spot))

    def _river_label(self, plan: TablePlan) -> None:
        p = self.p
        for mark in plan.labels:
            if mark.kind != "river":
                continue
            poly = mark.shape
            a, b, d = poly.at(0), poly.at(1), poly.at(3)
            along = QLineF(a, b)
            p.save()
            p.translate(a)
            p.rotate(-along.angle())
            p.setFont(_font(22, bold=True, italic=True))
            p.setPen(QColor("#ffffff"))
            p.drawText(QRectF(0, 0, along.length(), QLineF(a, d).length()),
                       int(Qt.AlignmentFlag.AlignCenter), mark.text)
            p.restore()

    # -- the forces ----------------------------------------------------------------------------
    def _plan_deployed(self, plan: TablePlan) -> None:
        """Blinds of corps deployed on the table at the start, round the town, each with its
        corps' name below it."""
        here = [self.corps[k] for e in self.sheet.entries if e.edge is None for k in e.corps]
        c = self.centre
        # Due south is the town's name; the blinds go in the widest gaps left between the
        # roads and the river's course.
        taken = [r.bearing for r in self.table.roads] + [180.0]
        for point in (self._at(p) for p in self.table.river_course):
            taken.append(math.degrees(math.atan2(point.x() - c.x(), c.y() - point.y())) % 360)
        town = _shape(self._town_box())
        for corps, bearing in zip(here, _gaps(taken, len(here)), strict=True):
            a = math.radians(bearing)
            name = "reserve" if corps.reserve else corps.key
            # At 175 units from the town, or farther out where the town's long name is.
            for reach in (175.0, 205.0, 235.0, 265.0, 145.0):
                at = QPointF(c.x() + reach * math.sin(a), c.y() - reach * math.cos(a))
                blind = _blind_shape(at, 0.0)
                tag = _shape(_tag_box(QPointF(at.x(), at.y() + 13), name))
                placed = [m.shape for m in (*plan.markers, *plan.labels)]
                if not any(x.intersects(y) for x in (blind, tag) for y in (town, *placed)):
                    break
            plan.markers.append(Mark("blind", corps.blind.removeprefix("Blind "), blind,
                                     corps.key))
            plan.labels.append(Mark("tag", name, tag, corps.key))

    def _deployed(self, plan: TablePlan) -> None:
        for mark in plan.markers:
            if mark.kind == "blind" and mark.corps and self.corps[mark.corps].edge is None:
                corps = self.corps[mark.corps]
                self._blind(mark.shape.boundingRect().center(), 0.0, corps,
                            dashed=corps.turn > 1)
        for mark in plan.labels:
            if mark.kind == "tag":
                corps = self.corps[mark.corps]
                self._tag(mark.shape.boundingRect(), mark.text,
                          SIDE_COLOURS.get(corps.side, _INK))

    def _blind(self, at: QPointF, rotation: float, corps: CorpsSheet, *, dashed: bool) -> None:
        """A blind, 6 inches wide, in the side's colour and with its number."""
        p = self.p
        colour = SIDE_COLOURS.get(corps.side, _INK)
        p.save()
        p.translate(at)
        p.rotate(rotation)
        pen = QPen(colour, 3.0, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine)
        p.setPen(pen)
        fill = QColor(colour)
        fill.setAlpha(60 if dashed else 200)
        p.setBrush(QBrush(fill))
        p.drawPath(_box(QRectF(-25, -11, 50, 22)))
        p.setPen(QColor("#ffffff") if not dashed else colour)
        p.setFont(_font(15, bold=True))
        p.drawText(QRectF(-25, -11, 50, 22), int(Qt.AlignmentFlag.AlignCenter),
                   corps.blind.removeprefix("Blind "))
        p.restore()

    def _tag(self, box: QRectF, text: str, colour: QColor) -> None:
        """A short label on a pale ground."""
        p = self.p
        p.setFont(_font(15, bold=True))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(QColor(255, 255, 255, 215)))
        p.drawRoundedRect(box, 4, 4)
        p.setPen(colour)
        p.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)

    def _plan_edge(self, plan: TablePlan, edge: Edge, entries: list[EntrySheet]) -> None:
        """The entries at one edge: an arrow into the table and its blinds for each, beside
        its road and clear of every other entry's (of either side), and in the margin the
        side, turn, corps in the order they come on and their columns."""
        n = len(entries)
        exits = {r.to: r.exit for r in self.table.roads}
        along = [_along(edge, exits[e.road], self.table.feet) if e.road in exits
                 else (i + 1) / (n + 1) for i, e in enumerate(entries)]
        order = sorted(range(n), key=lambda i: (along[i], i))
        rotation = 0.0 if edge in (Edge.NORTH, Edge.SOUTH) else 90.0
        road_strips = [_strip(QLineF(self.centre, self._at(r.exit)), 8.0)
                       for r in self.table.roads]
        placed: list[tuple[float, EntrySheet, QPointF, QPointF]] = []
        for i in order:
            entry = entries[i]
            # Beside the road, not on it, on either side of it, then farther off: the first
            # place where the arrow and the column of blinds cover no other marker.
            steps = [58.0, -58.0, 116.0, -116.0, 174.0, -174.0, 232.0, -232.0]
            tries = [min(max(along[i] + (d / TABLE if entry.road else d / TABLE / 2), 0.06), 0.94)
                     for d in steps]
            if not entry.road:
                tries.insert(0, along[i])
            # The first place clear of every marker and of the roads, else the first clear of
            # the markers, else the first.
            ranked: list[tuple[int, int, _Column]] = []
            for n_try, frac in enumerate(tries):
                edge_pt, inward = _edge_place(edge, frac)
                shapes = [_blind_shape(edge_pt + inward * (44 + 28 * j), rotation)
                          for j in range(len(entry.corps))]
                across = QPointF(abs(inward.y()), abs(inward.x())) * 17  # the head's half
                arrow = _shape(QRectF(edge_pt - inward * 62 - across,
                                      edge_pt + inward * 14 + across).normalized())
                free = not any(sh.intersects(m.shape) for sh in (*shapes, arrow)
                               for m in plan.markers)
                off_road = not any(sh.intersects(r) for sh in shapes for r in road_strips)
                ranked.append((0 if free and off_road else 1 if free else 2, n_try,
                               (frac, edge_pt, inward, shapes, arrow)))
            best = min(ranked, key=lambda r: (r[0], r[1]))[2]
            frac, edge_pt, inward, shapes, arrow = best
            plan.markers.append(Mark("arrow", entry.side, arrow))
            for key, shape in zip(entry.corps, shapes, strict=True):
                plan.markers.append(Mark("blind", self.corps[key].blind.removeprefix("Blind "),
                                         shape, key))
            placed.append((frac, entry, edge_pt, inward))
        # The words in the margin, in the order of the arrows they go with.
        placed.sort(key=lambda item: item[0])
        fracs = [frac for frac, *_rest in placed]
        avoid = [m.shape for m in plan.markers if m.kind in ("arrow", "scale", "compass")]
        if edge in (Edge.NORTH, Edge.SOUTH):
            boxes = _margin_boxes(edge, fracs, self.extent)
            texts = [self._entry_lines(box, item[1], avoid)
                     for box, item in zip(boxes, placed, strict=True)]
        else:
            texts = self._flow(edge, [item[1] for item in placed], fracs, avoid)
        for (_frac, entry, edge_pt, inward), words in zip(placed, texts, strict=True):
            plan.entries.append(EntryPlace(entry, edge_pt, inward, rotation, tuple(words)))
            plan.labels += [Mark("entry", w.text, _shape(w.rect)) for w in words]

    def _flow(self, edge: Edge, entries: Sequence[EntrySheet], fracs: Sequence[float],
              avoid: Sequence[QPolygonF]) -> list[list[Words]]:
        """The words of the entries at an east or west edge, one after another down the
        margin, each from just past its arrow, and none across an arrow; packed from the top
        when that runs past the bottom."""
        x = self.extent.left() + 8 if edge is Edge.WEST else MARGIN + TABLE + 8
        if edge is Edge.WEST:  # above the scale
            top, bottom = self.extent.top() + 10, self.extent.bottom() - 50
        else:  # below the compass
            top, bottom = self.extent.top() + 80, self.extent.bottom() - 4
        out: list[list[Words]] = []
        for packed in (False, True):
            out, y = [], top
            for entry, frac in zip(entries, fracs, strict=True):
                start = y if packed else max(y, MARGIN + TABLE * frac + 36)
                words = self._entry_lines(QRectF(x, start, MARGIN - 16, 0), entry, avoid)
                out.append(words)
                y = words[-1].rect.bottom() + 8
            if y - 8 <= bottom:
                break
        return out

    def _entry(self, place: EntryPlace) -> None:
        entry = place.entry
        colour = SIDE_COLOURS.get(entry.side, _INK)
        late = entry.turn > 1
        self._arrow(place.edge_pt - place.inward * 62, place.edge_pt + place.inward * 6, colour,
                    dashed=late)
        for j, key in enumerate(entry.corps):
            self._blind(place.edge_pt + place.inward * (44 + 28 * j), place.rotation,
                        self.corps[key], dashed=late)
        self._entry_text(place)

    def _arrow(self, start: QPointF, end: QPointF, colour: QColor, *, dashed: bool) -> None:
        p = self.p
        p.setPen(QPen(colour, 7.0, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine,
                      Qt.PenCapStyle.FlatCap))
        line = QLineF(start, end)
        head = line.unitVector()
        d = QPointF(head.dx(), head.dy())
        n = QPointF(-d.y(), d.x())
        tip = end + d * 8
        p.drawLine(QLineF(start, end - d * 12))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(colour))
        p.drawPolygon(QPolygonF([tip, end - d * 20 + n * 16, end - d * 20 - n * 16]))

    def _entry_lines(self, box: QRectF, entry: EntrySheet,
                     avoid: Sequence[QPolygonF]) -> list[Words]:
        """An entry's words in its margin box, each paragraph wrapped to the box and moved
        down past any arrow in its way."""
        out: list[Words] = []
        y = box.top()
        for font, pen, text, after in _paragraphs(entry, self.corps):
            used = QFontMetricsF(font).boundingRect(QRectF(0, 0, box.width(), 1e4), _WRAP, text)
            rect = QRectF(box.left(), y, box.width(), used.height() + 2)
            in_way = [a for a in avoid if _shape(rect).intersects(a)]
            while in_way:  # below the arrows in the way, then below any the move brings
                rect.moveTop(max(a.boundingRect().bottom() for a in in_way) + 3)
                in_way = [a for a in avoid if _shape(rect).intersects(a)]
            out.append(Words(rect, font, pen, text))
            y = rect.top() + used.height() + after
        return out

    def _entry_text(self, place: EntryPlace) -> None:
        p = self.p
        for words in place.words:
            p.setFont(words.font)
            p.setPen(words.colour)
            p.drawText(words.rect, _WRAP, words.text)

    # -- furniture ---------------------------------------------------------------------------
    def _compass_box(self) -> QRectF:
        c = QPointF(self.extent.right() - 26, self.extent.top() + 34)
        return QRectF(c.x() - 42, c.y() - 28, 54, 46)  # the arrow and its "N"

    def _scale_origin(self) -> QPointF:
        """Where the scale bar starts: in the south-west corner, or under the table's own
        corner when the west margin holds words and the south one none."""
        y = self.extent.bottom() - 34
        used = {e.edge for e in self.sheet.entries if e.edge is not None}
        if Edge.WEST in used and Edge.SOUTH not in used:
            return QPointF(MARGIN + 14, y)
        return QPointF(self.extent.left() + 14, y)

    def _scale_box(self) -> QRectF:
        at = self._scale_origin()
        return QRectF(at.x(), at.y() - 7, TABLE / 3, 36)

    def _compass(self) -> None:
        p = self.p
        c = QPointF(self.extent.right() - 26, self.extent.top() + 34)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QBrush(_INK))
        p.drawPolygon(QPolygonF([QPointF(c.x(), c.y() - 28), QPointF(c.x() + 11, c.y() + 18),
                                 QPointF(c.x(), c.y() + 9), QPointF(c.x() - 11, c.y() + 18)]))
        p.setPen(_INK)
        p.setFont(_font(22, bold=True))
        p.drawText(QRectF(c.x() - 52, c.y() - 14, 34, 30), int(Qt.AlignmentFlag.AlignCenter),
                   "N")

    def _scale(self) -> None:
        p = self.p
        step = TABLE / 3
        at = self._scale_origin()
        x0, y = at.x(), at.y()
        p.setPen(QPen(_INK, 3.0))
        p.drawLine(QLineF(x0, y, x0 + step, y))
        for x in (x0, x0 + step / 2, x0 + step):
            p.drawLine(QLineF(x, y - 7, x, y + 7))
        p.setFont(_font(16))
        p.drawText(QRectF(x0, y + 7, step, 22), int(Qt.AlignmentFlag.AlignCenter),
                   f"{self.table.square_feet} ft")


@dataclass(frozen=True)
class Mark:
    """Something on the table: a marker (a blind, an arrow, the town, the compass) or words
    (a road's or the river's name, a square's, a corps' tag), and the shape it covers, in the
    drawing's units; ``corps`` the corps a blind or tag stands for."""

    kind: str
    text: str
    shape: QPolygonF
    corps: str = ""
    size: float = 17.0  # the words' size, in the drawing's units


# Where an entry's column goes: its place along the edge, the point on the edge, the way in,
# its blinds' shapes and its arrow's.
_Column = tuple[float, QPointF, QPointF, list[QPolygonF], QPolygonF]


@dataclass(frozen=True)
class Words:
    """A paragraph of words in a margin: its box, font, colour and text."""

    rect: QRectF
    font: QFont
    colour: QColor
    text: str


@dataclass(frozen=True)
class EntryPlace:
    """Where an entry's arrow, blinds and words go."""

    entry: EntrySheet
    edge_pt: QPointF
    inward: QPointF
    rotation: float
    words: tuple[Words, ...]


@dataclass
class TablePlan:
    """Where everything on a table goes: the markers, then the words placed clear of them."""

    markers: list[Mark] = field(default_factory=list)
    labels: list[Mark] = field(default_factory=list)
    entries: list[EntryPlace] = field(default_factory=list)


def table_plan(sheet: SetupSheet) -> TablePlan:
    """Where the drawing puts each marker and each word of a battle's table (a Qt
    application must be running: words are measured in their fonts)."""
    return _Drawing(QPainter(), sheet, table_extent(sheet)).plan()


def _shape(rect: QRectF) -> QPolygonF:
    return QPolygonF([rect.topLeft(), rect.topRight(), rect.bottomRight(), rect.bottomLeft()])


def _blind_shape(at: QPointF, rotation: float) -> QPolygonF:
    """The ground a blind covers: 50 by 22 units, turned with its edge."""
    w, h = (50.0, 22.0) if rotation == 0.0 else (22.0, 50.0)
    return _shape(QRectF(at.x() - w / 2, at.y() - h / 2, w, h))


def _tag_box(top: QPointF, text: str) -> QRectF:
    w = QFontMetricsF(_font(15, bold=True)).horizontalAdvance(text) + 8
    return QRectF(top.x() - w / 2, top.y(), w, 20)


def _strip(line: QLineF, half: float) -> QPolygonF:
    """The band ``half`` units either side of a line."""
    unit = line.unitVector()
    n = QPointF(-unit.dy() * half, unit.dx() * half)
    return QPolygonF([line.p1() + n, line.p2() + n, line.p2() - n, line.p1() - n])


def _oriented(origin: QPointF, angle: float, box: QRectF) -> QPolygonF:
    """``box`` (in a frame turned ``angle`` degrees clockwise about ``origin``) in the
    drawing's frame, corners in order top-left, top-right, bottom-right, bottom-left."""
    t = QTransform()
    t.translate(origin.x(), origin.y())
    t.rotate(angle)
    return t.map(_shape(box))


def _upright(line: QLineF) -> tuple[float, bool]:
    """A line's angle for text along it, and whether the text is turned over to read."""
    angle = -line.angle()  # Qt's angle is anticlockwise from east
    flip = 90 < (angle % 360) < 270
    return angle + (180 if flip else 0), flip


def _along_line(line: QLineF, far: float, w: float, side: float) -> QPolygonF:
    """A road's name box ``w`` long ending ``far`` along the road from the town (toward the
    edge), ``side`` units off the road (the box is 20 high), upright to read."""
    angle, flip = _upright(line)
    box = QRectF(0 if flip else -w, side, w, 20)
    return _oriented(line.pointAt(far), angle, box)


def _centred_on(line: QLineF, at: float, w: float, h: float) -> QPolygonF:
    angle, _flip = _upright(line)
    return _oriented(line.pointAt(at), angle, QRectF(-w / 2, -h / 2, w, h))


# A town's blocks round the centre (dx, dy, w, h), clear of the middle where the roads meet.
_BLOCKS = ((-48, -44, 30, 22), (14, -46, 34, 24), (-52, 14, 28, 30), (20, 18, 30, 26),
           (-16, -62, 24, 14), (-62, -14, 16, 24), (46, -12, 16, 26), (-14, 44, 30, 16),
           (-30, -22, 14, 12), (16, -20, 14, 12), (-28, 2, 12, 12), (16, 4, 14, 12))


def _box(rect: QRectF) -> QPainterPath:
    """A rectangle as a path: the squares alone are drawn as rectangles, so an SVG reader can
    count them."""
    path = QPainterPath()
    path.addRect(rect)
    return path


def _star_fort(c: QPointF, radius: float, points: int) -> QPolygonF:
    """A bastioned trace: ``points`` bastions round the town."""
    out = []
    for i in range(points * 2):
        r = radius if i % 2 == 0 else radius * 0.68
        a = math.radians(-90 + 180 * i / points)
        out.append(QPointF(c.x() + r * math.cos(a), c.y() + r * math.sin(a)))
    return QPolygonF(out)


def _distance(point: QPointF, line: QLineF) -> float:
    """How far a point lies from a line segment."""
    d = QPointF(line.dx(), line.dy())
    length2 = d.x() ** 2 + d.y() ** 2
    if length2 == 0:
        return QLineF(point, line.p1()).length()
    t = ((point.x() - line.x1()) * d.x() + (point.y() - line.y1()) * d.y()) / length2
    t = min(max(t, 0.0), 1.0)
    return QLineF(point, line.pointAt(t)).length()


def _gaps(bearings: Sequence[float], count: int) -> list[float]:
    """``count`` bearings round the town clear of the roads: each in the middle of the widest
    gap left between roads and bearings already taken."""
    taken = sorted(b % 360.0 for b in bearings)
    out: list[float] = []
    for _ in range(count):
        if not taken:
            pick = 225.0
        else:
            ring = [*taken, taken[0] + 360.0]
            width, start = max((ring[k + 1] - ring[k], ring[k]) for k in range(len(taken)))
            pick = (start + width / 2) % 360.0
        out.append(pick)
        taken = sorted([*taken, pick])
    return out


def _along(edge: Edge, exit_feet: Sequence[float], feet: float) -> float:
    """How far along its edge (0 to 1, west to east or north to south) a road leaves."""
    x, y = exit_feet[0] / feet, exit_feet[1] / feet
    return x if edge in (Edge.NORTH, Edge.SOUTH) else y


def _meeting(road: QLineF, course: Sequence[QPointF]) -> QPointF | None:
    """Where the road crosses the river's course nearest the town, if it does on the table."""
    best: tuple[float, QPointF] | None = None
    for a, b in zip(course, course[1:], strict=False):
        kind, at = road.intersects(QLineF(a, b))
        if kind == QLineF.IntersectionType.BoundedIntersection:
            d = QLineF(road.p1(), at).length()
            if d > 20 and (best is None or d < best[0]):
                best = (d, at)
    return None if best is None else best[1]


def _edge_place(edge: Edge, frac: float) -> tuple[QPointF, QPointF]:
    """A point ``frac`` of the way along an edge, and the way into the table from it."""
    lo, hi = MARGIN, MARGIN + TABLE
    if edge is Edge.NORTH:
        return QPointF(lo + TABLE * frac, lo), QPointF(0, 1)
    if edge is Edge.SOUTH:
        return QPointF(lo + TABLE * frac, hi), QPointF(0, -1)
    if edge is Edge.WEST:
        return QPointF(lo, lo + TABLE * frac), QPointF(1, 0)
    return QPointF(hi, lo + TABLE * frac), QPointF(-1, 0)


def _edge_span(edge: Edge, extent: QRectF) -> tuple[float, float]:
    """The stretch of the margin along an edge that its words may use: clear of the compass
    (north-east corner) and the scale (south-west corner)."""
    if edge is Edge.NORTH:
        return extent.left() + 10, extent.right() - 70
    if edge is Edge.SOUTH:
        return extent.left() + 240, extent.right() - 10
    if edge is Edge.EAST:
        return extent.top() + 80, extent.bottom() - 10
    return extent.top() + 10, extent.bottom() - 70


def _box_size(edge: Edge, n: int, lo: float, hi: float) -> float:
    """How much of its edge each of ``n`` entries' words may take."""
    across_edge = edge in (Edge.NORTH, Edge.SOUTH)
    size = max(min(TABLE / n, 320.0), 200.0) if across_edge else max(TABLE / n, 150.0)
    return min(size, (hi - lo) / n)


def _margin_boxes(edge: Edge, along: Sequence[float], extent: QRectF) -> list[QRectF]:
    """The margin boxes for the words of entries at a north or south edge, in order along
    it: each as near its entry as the others allow, none overlapping, clear of the compass
    and the scale, and between the drawing's edge and the arrows."""
    n = len(along)
    lo, hi = _edge_span(edge, extent)
    size = _box_size(edge, n, lo, hi)
    starts = [min(max(MARGIN + TABLE * a - size / 2, lo), hi - size) for a in along]
    # Pushed apart, first from the far end back, then from the near end on: n boxes of
    # ``size`` fit between lo and hi, so both passes leave each within them.
    for k in range(n - 2, -1, -1):
        starts[k] = min(starts[k], starts[k + 1] - size)
    starts[0] = max(starts[0], lo)
    for k in range(1, n):
        starts[k] = max(starts[k], starts[k - 1] + size)
    if edge is Edge.NORTH:
        top, bottom = extent.top() + 6, MARGIN - 70
    else:
        top, bottom = MARGIN + TABLE + 66, extent.bottom() - 4
    return [QRectF(x + 4, top, size - 8, bottom - top) for x in starts]


def table_svg(sheet: SetupSheet, size: int = 980) -> bytes:
    """The table of a battle as an SVG document, titled with the battle (a Qt application
    must be running: text needs its fonts)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    svg = QSvgGenerator()
    svg.setOutputDevice(buffer)
    extent = table_extent(sheet)
    height = round(size * extent.height() / extent.width())
    svg.setSize(QSize(size, height))
    svg.setViewBox(QRectF(0, 0, size, height))
    svg.setTitle(f"Table for {sheet.heading}")
    svg.setDescription(_description(sheet))
    painter = QPainter()
    if not painter.begin(svg):
        raise RuntimeError("the SVG could not be started")
    try:
        painter.fillPath(_box(QRectF(0, 0, size, height)), QColor("#ffffff"))
        paint_table(painter, sheet, QRectF(0, 0, size, height))
    finally:
        painter.end()
    buffer.close()
    return bytes(data.data())


def _description(sheet: SetupSheet) -> str:
    t = sheet.table
    parts = [f"{t.size_text}; {t.town} in the centre"]
    parts += [f"road to {r.to} {r.bearing:.1f}° ({r.edge.value} edge)" for r in t.roads]
    if t.river:
        parts.append(f"river {t.river}")
    parts += [e.label + ": " + ", ".join(e.corps) for e in sheet.entries]
    return "; ".join(parts)

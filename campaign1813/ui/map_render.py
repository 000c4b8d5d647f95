"""Draw the road map as a printed campaign map: land and sea, rivers, roads, crossings and towns.

``render_map`` paints a ``MapData`` onto a ``QImage`` with QPainter; it needs a running
``QGuiApplication`` (for fonts) but no window. One theatre can be drawn on its own, with the
neighbouring theatres' towns and roads cut off at the frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)

from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.geometry import Bounds, Projection, river_meetings
from campaign1813.maps.land import land_rings
from campaign1813.maps.types import Crossing, MapData, RoadClass, Theatre, Town, TownKind

SEA = QColor("#c5d8e0")
LAND = QColor("#f3ecd6")
COAST = QColor("#6f8fa0")
FRAME = QColor("#3b3127")
RIVER = QColor("#2f6db5")
MAIN_ROAD = QColor("#a3321c")
MINOR_ROAD = QColor("#5c4a38")
INK = QColor("#221c16")
FADED_INK = QColor("#7d7264")
THEATRE_INK = QColor(122, 98, 70, 150)
SIDE_COLOUR = {Side.FRENCH: QColor("#1f4fbf"), Side.ALLIED: QColor("#c0282d")}

# Rivers drawn with a heavier line; the rest are tributaries.
GREAT_RIVERS = frozenset({
    "Elbe", "Oder", "Rhine", "Danube", "Weser", "Main", "Tagus", "Douro", "Ebro", "Loire",
    "Garonne", "Rhône", "Seine", "Guadiana", "Guadalquivir", "Inn", "Moselle", "Meuse", "Saale",
})


@dataclass(frozen=True)
class Marker:
    """A labelled flag at a town, e.g. a corps' starting position, coloured by side."""

    town: str
    label: str
    side: Side


@dataclass(frozen=True)
class _View:
    """Where the map sits on the image: the projection, its scale and its offset in pixels."""

    projection: Projection
    scale: float
    left: float
    top: float

    def point(self, lat: float, lon: float) -> QPointF:
        """Pixel position of a (lat, lon) point."""
        x, y = self.projection.project(lat, lon)
        return QPointF(self.left + x * self.scale, self.top + y * self.scale)

    @property
    def pixels_per_mile(self) -> float:
        """How many pixels one mile covers."""
        return self.scale / self.projection.miles_per_unit


def theatre_bounds(map_data: MapData, theatre: Theatre | None, margin_miles: float) -> Bounds:
    """The box to draw: every town, or one theatre's towns, widened by a margin in miles."""
    towns = [t for t in map_data.towns if theatre is None or t.theatre == theatre]
    if not towns:
        raise ValueError(f"no towns in theatre {theatre}")
    return Bounds.around(((t.lat, t.lon) for t in towns), margin_miles)


def render_map(
    map_data: MapData,
    *,
    theatre: Theatre | None = None,
    width: int = 2400,
    markers: Sequence[Marker] = (),
    title: str | None = None,
    margin_miles: float | None = None,
    label_villages: bool | None = None,
) -> QImage:
    """Paint the map (or one theatre of it) and return the picture.

    ``markers`` put flags at towns (French blue, Allied red). Village names are shown on theatre
    maps and left off the whole map unless ``label_villages`` says otherwise.
    """
    if width < 200:
        raise ValueError(f"map width {width} px is too small to draw; 200 px or more needed")
    towns = {t.name: t for t in map_data.towns}
    unknown = [m.town for m in markers if m.town not in towns]
    if unknown:
        raise ValueError(f"markers name towns not on the map: {', '.join(unknown)}")
    if margin_miles is None:
        margin_miles = 40.0 if theatre is None else 30.0
    if label_villages is None:
        label_villages = theatre is not None
    bounds = theatre_bounds(map_data, theatre, margin_miles)
    projection = Projection(bounds)
    pad = round(width * 0.025)
    head = round(width * 0.045)
    foot = round(width * 0.05)
    inner_w = width - 2 * pad
    scale = inner_w / projection.width
    inner_h = projection.height * scale
    height = round(inner_h + head + foot)
    view = _View(projection, scale, pad, head)
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("#fbf8f0"))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        frame = QRectF(pad, head, inner_w, inner_h)
        unit = max(width / 2400.0, 0.5)  # line widths and fonts grow with the picture
        _Painter(painter, view, frame, unit, map_data, towns, theatre, markers,
                 label_villages).paint(title or _default_title(theatre))
    finally:
        painter.end()
    return image


def _default_title(theatre: Theatre | None) -> str:
    if theatre is None:
        return "The Campaign of 1813 — Hamburg to Gibraltar"
    if theatre is Theatre.FRANCE:
        return "France — the roads joining the theatres"
    return f"The Campaign of 1813 — {theatre.value}"


class _Painter:
    """One drawing of the map; holds the painter, the view and the places labels already take."""

    def __init__(self, painter: QPainter, view: _View, frame: QRectF, unit: float,
                 map_data: MapData, towns: dict[str, Town], theatre: Theatre | None,
                 markers: Sequence[Marker], label_villages: bool) -> None:
        self.p = painter
        self.view = view
        self.frame = frame
        self.u = unit
        self.map = map_data
        self.towns = towns
        self.theatre = theatre
        self.markers = markers
        self.label_villages = label_villages
        self.taken: list[QRectF] = []
        # Towns a little outside the frame still matter: their roads run into it.
        self.visible = {n for n, t in towns.items() if self._near_frame(t)}

    def _near_frame(self, town: Town) -> bool:
        pt = self.view.point(town.lat, town.lon)
        return self.frame.adjusted(-200, -200, 200, 200).contains(pt)

    def _in_frame(self, town: Town) -> bool:
        return self.frame.contains(self.view.point(town.lat, town.lon))

    # ---- the layers, bottom to top ----
    def paint(self, title: str) -> None:
        """Draw every layer and the furniture round the frame."""
        self.p.save()
        self.p.setClipRect(self.frame)
        self._sea_and_land()
        self._theatre_names()
        self._rivers()
        self._roads()
        self._crossings()
        self._towns()
        self._labels(major=True)
        self._markers()
        self._labels(major=False)
        self._river_names()
        self.p.restore()
        self._frame(title)
        self._scale_bar()
        self._north_arrow()
        self._legend()

    def _sea_and_land(self) -> None:
        self.p.fillRect(self.frame, SEA)
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.OddEvenFill)
        for ring in land_rings():
            path.addPolygon(QPolygonF([self.view.point(lat, lon) for lat, lon in ring]))
            path.closeSubpath()
        self.p.fillPath(path, LAND)
        self.p.strokePath(path, QPen(COAST, 1.1 * self.u))

    def _theatre_names(self) -> None:
        if self.theatre is not None:
            return
        font = QFont("DejaVu Serif", round(30 * self.u))
        font.setItalic(True)
        font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 4 * self.u)
        self.p.setFont(font)
        self.p.setPen(THEATRE_INK)
        metrics = QFontMetricsF(font)
        for theatre in Theatre:
            members = [t for t in self.map.towns if t.theatre == theatre]
            if not members:
                continue
            if theatre in THEATRE_NAME_AT:
                centre = self.view.point(*THEATRE_NAME_AT[theatre])
            else:
                centre = self.view.point(sum(t.lat for t in members) / len(members),
                                         sum(t.lon for t in members) / len(members))
            lines = _wrap(theatre.value.upper())
            for i, text in enumerate(lines):
                w = metrics.horizontalAdvance(text)
                y = centre.y() + (i - (len(lines) - 1) / 2) * metrics.height()
                self.p.drawText(QPointF(centre.x() - w / 2, y), text)

    def _rivers(self) -> None:
        for river in self.map.rivers:
            great = river.name in GREAT_RIVERS
            pen = QPen(RIVER, (2.6 if great else 1.6) * self.u)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            self.p.setPen(pen)
            self.p.drawPolyline(QPolygonF([self.view.point(lat, lon) for lat, lon in river.points]))

    def _roads(self) -> None:
        order = {RoadClass.TRACK: 0, RoadClass.MINOR: 1, RoadClass.MAIN: 2}
        for road in sorted(self.map.roads, key=lambda r: order[r.road_class]):
            if road.a not in self.visible and road.b not in self.visible:
                continue
            a, b = self.towns[road.a], self.towns[road.b]
            self.p.setPen(self._road_pen(road.road_class))
            self.p.drawLine(self.view.point(a.lat, a.lon), self.view.point(b.lat, b.lon))

    def _road_pen(self, road_class: RoadClass) -> QPen:
        if road_class is RoadClass.MAIN:
            pen = QPen(MAIN_ROAD, 2.6 * self.u)
        elif road_class is RoadClass.MINOR:
            pen = QPen(MINOR_ROAD, 1.3 * self.u)
        else:
            pen = QPen(MINOR_ROAD, 1.1 * self.u)
            pen.setDashPattern([4.0, 3.0])
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        return pen

    def _crossings(self) -> None:
        meetings: dict[tuple[str, str, str], float] = {}
        for m in river_meetings(self.map):
            key = (m.road_from, m.road_to, m.river)
            # The crossing is drawn where the line first meets the declared river.
            meetings.setdefault(key, m.miles_from_start)
        for road in self.map.roads:
            if road.river is None or road.crossing is None:
                continue
            if road.a not in self.visible and road.b not in self.visible:
                continue
            a, b = self.towns[road.a], self.towns[road.b]
            pa, pb = self.view.point(a.lat, a.lon), self.view.point(b.lat, b.lon)
            miles = meetings.get((road.a, road.b, road.river))
            total = math.dist((pa.x(), pa.y()), (pb.x(), pb.y()))
            if total == 0:
                continue
            if miles is None:
                # The river runs through an end town; mark the crossing just outside it.
                end = a if a.river == road.river else b
                frac = 0.12 if end is a else 0.88
            else:
                frac = min(max(miles * self.view.pixels_per_mile / total, 0.0), 1.0)
            at = pa + (pb - pa) * frac
            self._crossing_mark(at, pb - pa, road.crossing)

    def _crossing_mark(self, at: QPointF, direction: QPointF, crossing: Crossing) -> None:
        length = math.hypot(direction.x(), direction.y())
        dx, dy = direction.x() / length, direction.y() / length
        nx, ny = -dy, dx
        s = 4.5 * self.u
        if crossing is Crossing.BRIDGE:
            # Two rails either side of the road, like the old engraved bridge sign.
            pen = QPen(INK, 1.4 * self.u)
            self.p.setPen(pen)
            for side in (-1, 1):
                ox, oy = nx * s * 0.8 * side, ny * s * 0.8 * side
                self.p.drawLine(QPointF(at.x() + ox - dx * s, at.y() + oy - dy * s),
                                QPointF(at.x() + ox + dx * s, at.y() + oy + dy * s))
        elif crossing is Crossing.FERRY:
            self.p.setPen(QPen(INK, 1.2 * self.u))
            self.p.setBrush(QBrush(QColor("#ffffff")))
            self.p.drawEllipse(at, s * 0.8, s * 0.8)
            self.p.setBrush(Qt.BrushStyle.NoBrush)
        else:
            pen = QPen(INK, 1.3 * self.u)
            pen.setDashPattern([1.0, 1.5])
            self.p.setPen(pen)
            self.p.drawLine(QPointF(at.x() - nx * s * 1.3, at.y() - ny * s * 1.3),
                            QPointF(at.x() + nx * s * 1.3, at.y() + ny * s * 1.3))

    def _towns(self) -> None:
        for town in self.map.towns:
            if not self._near_frame(town):
                continue
            at = self.view.point(town.lat, town.lon)
            r = self._town_radius(town)
            self._town_symbol(at, town, r)
            if self._in_frame(town):
                self.taken.append(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r))

    def _town_radius(self, town: Town) -> float:
        if town.fortress or town.kind is TownKind.FORTRESS:
            base = 7.5 if town.kind is TownKind.CITY else 6.0
        else:
            sizes = {TownKind.CITY: 5.0, TownKind.TOWN: 3.4, TownKind.VILLAGE: 2.4}
            base = sizes.get(town.kind, 3.4)
        return base * self.u

    def _town_symbol(self, at: QPointF, town: Town, r: float) -> None:
        faded = self.theatre is not None and town.theatre != self.theatre
        ink = FADED_INK if faded else INK
        if town.fortress or town.kind is TownKind.FORTRESS:
            # A five-bastioned trace: points out, curtains in.
            pts = []
            for i in range(10):
                ang = -math.pi / 2 + i * math.pi / 5
                rad = r if i % 2 == 0 else r * 0.55
                pts.append(QPointF(at.x() + rad * math.cos(ang), at.y() + rad * math.sin(ang)))
            self.p.setPen(QPen(QColor("#ffffff"), 0.9 * self.u))
            self.p.setBrush(QBrush(ink))
            self.p.drawPolygon(QPolygonF(pts))
            if town.kind is TownKind.CITY:
                self.p.setBrush(QBrush(QColor("#ffffff")))
                self.p.setPen(Qt.PenStyle.NoPen)
                self.p.drawEllipse(at, r * 0.22, r * 0.22)
        elif town.kind is TownKind.CITY:
            self.p.setPen(QPen(ink, 1.3 * self.u))
            self.p.setBrush(QBrush(QColor("#ffffff")))
            self.p.drawEllipse(at, r, r)
            self.p.setBrush(QBrush(ink))
            self.p.setPen(Qt.PenStyle.NoPen)
            self.p.drawEllipse(at, r * 0.55, r * 0.55)
        elif town.kind is TownKind.TOWN:
            self.p.setPen(QPen(QColor("#ffffff"), 0.8 * self.u))
            self.p.setBrush(QBrush(ink))
            self.p.drawEllipse(at, r, r)
        else:
            self.p.setPen(QPen(ink, 1.1 * self.u))
            self.p.setBrush(QBrush(LAND))
            self.p.drawEllipse(at, r, r)
        self.p.setBrush(Qt.BrushStyle.NoBrush)

    def _markers(self) -> None:
        by_town: dict[str, list[Marker]] = {}
        for m in self.markers:
            by_town.setdefault(m.town, []).append(m)
        font = QFont("DejaVu Sans", round(11 * self.u))
        font.setBold(True)
        metrics = QFontMetricsF(font)
        self.p.setFont(font)
        for name in sorted(by_town):
            town = self.towns[name]
            if not self._in_frame(town):
                continue
            at = self.view.point(town.lat, town.lon)
            h = metrics.height() + 4 * self.u
            stack = by_town[name]
            widths = [metrics.horizontalAdvance(m.label) + 8 * self.u for m in stack]
            w = max(widths)
            box = self._place_marker_box(at, w, h * len(stack))
            colour = SIDE_COLOUR[stack[0].side]
            near = QPointF(min(max(at.x(), box.left()), box.right()),
                           min(max(at.y(), box.top()), box.bottom()))
            self.p.setPen(QPen(colour, 1.8 * self.u))
            self.p.drawLine(at, near)
            # A ring round the town shows which sign the flag belongs to.
            self.p.setBrush(Qt.BrushStyle.NoBrush)
            self.p.setPen(QPen(colour, 2.0 * self.u))
            ring = self._town_radius(town) + 3.5 * self.u
            self.p.drawEllipse(at, ring, ring)
            for i, m in enumerate(stack):
                cell = QRectF(box.left(), box.top() + i * h, w, h)
                self.p.setPen(QPen(QColor("#ffffff"), 1.0 * self.u))
                self.p.setBrush(QBrush(SIDE_COLOUR[m.side]))
                self.p.drawRect(cell)
                self.p.setPen(QColor("#ffffff"))
                self.p.drawText(cell, Qt.AlignmentFlag.AlignCenter, m.label)
            self.p.setBrush(Qt.BrushStyle.NoBrush)
            self.taken.append(box)

    def _place_marker_box(self, at: QPointF, w: float, h: float) -> QRectF:
        gap = 9 * self.u
        candidates = [
            QRectF(at.x() - w / 2, at.y() - gap - h, w, h),
            QRectF(at.x() - w / 2, at.y() + gap, w, h),
            QRectF(at.x() + gap, at.y() - h / 2, w, h),
            QRectF(at.x() - gap - w, at.y() - h / 2, w, h),
            QRectF(at.x() + gap, at.y() - gap - h, w, h),
            QRectF(at.x() - gap - w, at.y() - gap - h, w, h),
            QRectF(at.x() + gap, at.y() + gap, w, h),
            QRectF(at.x() - gap - w, at.y() + gap, w, h),
        ]
        for far in (1.0, 2.2, 3.4):
            for c in candidates:
                moved = QRectF(at.x() + (c.center().x() - at.x()) * far - w / 2,
                               at.y() + (c.center().y() - at.y()) * far - h / 2, w, h)
                if self.frame.contains(moved) and not self._clashes(moved):
                    return moved
        return candidates[0]

    def _labels(self, major: bool) -> None:
        """Name the towns: cities and fortresses first (``major``), then the rest where room is."""
        rank = {TownKind.CITY: 0, TownKind.FORTRESS: 1, TownKind.TOWN: 2, TownKind.VILLAGE: 3}
        marked = {m.town for m in self.markers}
        home = self.theatre

        def is_major(t: Town) -> bool:
            return (t.kind is TownKind.CITY or t.fortress) and (home is None or t.theatre == home)

        towns = [t for t in self.map.towns if self._in_frame(t) and is_major(t) == major]
        if not self.label_villages:
            towns = [t for t in towns if t.kind is not TownKind.VILLAGE or t.name in marked
                     or t.fortress]

        def priority(t: Town) -> tuple:
            return (home is not None and t.theatre != home, t.name not in marked,
                    rank[t.kind] - (1 if t.fortress else 0), t.name)

        for town in sorted(towns, key=priority):
            self._label(town, forced=major)

    def _label(self, town: Town, forced: bool) -> None:
        big = town.kind is TownKind.CITY
        size = {TownKind.CITY: 13.5, TownKind.FORTRESS: 12, TownKind.TOWN: 11,
                TownKind.VILLAGE: 9.5}
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(size[town.kind] * self.u)
        font.setBold(big or town.kind is TownKind.FORTRESS)
        if town.kind is TownKind.VILLAGE:
            font.setItalic(True)
        metrics = QFontMetricsF(font)
        w = metrics.horizontalAdvance(town.name)
        h = metrics.ascent() + metrics.descent()
        at = self.view.point(town.lat, town.lon)
        r = self._town_radius(town) + 2.5 * self.u
        spots = []
        for reach in (1.0, 1.9):
            d = r * reach
            spots += [
                (at.x() + d, at.y() - h / 2),          # east
                (at.x() - d - w, at.y() - h / 2),      # west
                (at.x() + d * 0.7, at.y() - d * 0.7 - h),   # north-east
                (at.x() + d * 0.7, at.y() + d * 0.7),       # south-east
                (at.x() - d * 0.7 - w, at.y() - d * 0.7 - h),  # north-west
                (at.x() - d * 0.7 - w, at.y() + d * 0.7),      # south-west
                (at.x() - w / 2, at.y() - d - h),      # north
                (at.x() - w / 2, at.y() + d),          # south
            ]
        chosen = None
        for x, y in spots:
            rect = QRectF(x, y, w, h)
            if self.frame.contains(rect) and not self._clashes(rect):
                chosen = rect
                break
        if chosen is None:
            if not forced:
                return
            # A city or fortress is always named: beside its sign, where it hides least.
            chosen = min((QRectF(x, y, w, h) for x, y in spots[:8]), key=self._overlap)
        self.taken.append(chosen)
        faded = self.theatre is not None and town.theatre != self.theatre
        path = QPainterPath()
        path.addText(QPointF(chosen.left(), chosen.top() + metrics.ascent()), font, town.name)
        halo = QPainterPathStroker()
        halo.setWidth(3.2 * self.u)
        halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self.p.fillPath(halo.createStroke(path), QColor(251, 248, 240, 215))
        self.p.fillPath(path, FADED_INK if faded else INK)

    def _river_names(self) -> None:
        """Name each river once, in blue italics along its longest clear reach in the frame."""
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(10.5 * self.u)
        font.setItalic(True)
        metrics = QFontMetricsF(font)
        for river in self.map.rivers:
            if self.theatre is None and river.name not in GREAT_RIVERS:
                continue
            pts = [self.view.point(lat, lon) for lat, lon in river.points]
            reaches = [(a, b) for a, b in zip(pts, pts[1:], strict=False)
                       if self.frame.contains(a) and self.frame.contains(b)]
            reaches.sort(key=lambda ab: -math.dist((ab[0].x(), ab[0].y()), (ab[1].x(), ab[1].y())))
            w = metrics.horizontalAdvance(river.name)
            for a, b in reaches[:6]:
                if self._name_river(river.name, a, b, w, font, metrics):
                    break

    def _name_river(self, name: str, a: QPointF, b: QPointF, w: float, font: QFont,
                    metrics: QFontMetricsF) -> bool:
        length = math.dist((a.x(), a.y()), (b.x(), b.y()))
        if length < w * 1.2:
            return False
        if b.x() < a.x():
            a, b = b, a  # keep the writing upright
        angle = math.degrees(math.atan2(b.y() - a.y(), b.x() - a.x()))
        mid = (a + b) / 2
        ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
        for side in (-1, 1):
            shift = side * (metrics.height() * 0.6 + 2 * self.u)
            centre = QPointF(mid.x() - uy * shift, mid.y() + ux * shift)
            half_w, half_h = w / 2, metrics.height() / 2
            corners = [QPointF(centre.x() + ux * dx - uy * dy, centre.y() + uy * dx + ux * dy)
                       for dx in (-half_w, half_w) for dy in (-half_h, half_h)]
            xs = [c.x() for c in corners]
            ys = [c.y() for c in corners]
            box = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
            if not self.frame.contains(box) or self._clashes(box):
                continue
            self.taken.append(box)
            self.p.save()
            self.p.translate(centre)
            self.p.rotate(angle)
            path = QPainterPath()
            path.addText(QPointF(-half_w, metrics.ascent() - half_h), font, name)
            halo = QPainterPathStroker()
            halo.setWidth(2.6 * self.u)
            self.p.fillPath(halo.createStroke(path), QColor(243, 236, 214, 200))
            self.p.fillPath(path, RIVER.darker(125))
            self.p.restore()
            return True
        return False

    def _overlap(self, rect: QRectF) -> float:
        """How much of the already placed names and signs ``rect`` would cover."""
        area = 0.0
        for other in self.taken:
            cut = rect.intersected(other)
            area += max(cut.width(), 0.0) * max(cut.height(), 0.0)
        if not self.frame.contains(rect):
            area += rect.width() * rect.height()
        return area

    def _clashes(self, rect: QRectF) -> bool:
        return any(rect.intersects(other) for other in self.taken)

    # ---- furniture outside the clip ----
    def _frame(self, title: str) -> None:
        self.p.setPen(QPen(FRAME, 2.2 * self.u))
        self.p.setBrush(Qt.BrushStyle.NoBrush)
        self.p.drawRect(self.frame)
        self.p.setPen(QPen(FRAME, 0.8 * self.u))
        gap = 4 * self.u
        self.p.drawRect(self.frame.adjusted(-gap, -gap, gap, gap))
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(22 * self.u)
        font.setBold(True)
        self.p.setFont(font)
        self.p.setPen(INK)
        top = QRectF(self.frame.left(), 0, self.frame.width(), self.frame.top() - gap)
        self.p.drawText(top, Qt.AlignmentFlag.AlignCenter, title)

    def _footer(self) -> QRectF:
        """The band under the frame that holds the scale and the legend."""
        device = self.p.device()
        top = self.frame.bottom() + 10 * self.u
        bottom = device.height() - 4 * self.u
        return QRectF(self.frame.left(), top, self.frame.width(), bottom - top)

    def _scale_bar(self) -> None:
        ppm = self.view.pixels_per_mile
        target = self.frame.width() * 0.16 / ppm
        miles = min((10, 20, 25, 50, 100, 200, 250, 500), key=lambda m: abs(m - target))
        length = miles * ppm
        foot = self._footer()
        x0 = foot.left() + 12 * self.u
        y0 = foot.center().y()
        self.p.setPen(QPen(INK, 1.0 * self.u))
        segments = 5 if miles % 5 == 0 else 4
        seg = length / segments
        for i in range(segments):
            cell = QRectF(x0 + i * seg, y0, seg, 6 * self.u)
            self.p.fillRect(cell, INK if i % 2 == 0 else QColor("#ffffff"))
            self.p.drawRect(cell)
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(10 * self.u)
        self.p.setFont(font)
        metrics = QFontMetricsF(font)
        for value, x in ((0, x0), (miles // 2, x0 + length / 2), (miles, x0 + length)):
            text = str(value)
            self.p.drawText(QPointF(x - metrics.horizontalAdvance(text) / 2, y0 - 4 * self.u), text)
        self.p.drawText(QPointF(x0 + length + 10 * self.u, y0 + 7 * self.u), "miles")
        self._scale_right = x0 + length + 10 * self.u + metrics.horizontalAdvance("miles")

    def _north_arrow(self) -> None:
        x = self.frame.right() - 30 * self.u
        y = self.frame.top() + 22 * self.u
        s = 16 * self.u
        arrow = QPolygonF([QPointF(x, y), QPointF(x + s * 0.4, y + s * 1.6),
                           QPointF(x, y + s * 1.2), QPointF(x - s * 0.4, y + s * 1.6)])
        self.p.setPen(QPen(INK, 1.0 * self.u))
        self.p.setBrush(QBrush(INK))
        self.p.drawPolygon(arrow)
        self.p.setBrush(Qt.BrushStyle.NoBrush)
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(11 * self.u)
        font.setBold(True)
        self.p.setFont(font)
        self.p.drawText(QRectF(x - s, y + s * 1.7, 2 * s, s * 1.2), Qt.AlignmentFlag.AlignCenter,
                        "N")

    def _legend(self) -> None:
        font = QFont("DejaVu Serif", 1)
        font.setPointSizeF(10 * self.u)
        self.p.setFont(font)
        metrics = QFontMetricsF(font)
        rows: list[tuple[str, str]] = [
            ("main", "Main road"), ("minor", "Minor road"), ("track", "Track"),
            ("river", "River"), ("bridge", "Bridge"), ("ferry", "Ferry"), ("ford", "Ford"),
            ("city", "City"), ("town", "Town"), ("village", "Village"),
            ("fortress", "Fortress of 1813"),
        ]
        if self.markers:
            rows += [("French", "French"), ("Allied", "Allied")]
        foot = self._footer()
        sym = 36 * self.u
        gap = 16 * self.u
        widths = [sym + 6 * self.u + metrics.horizontalAdvance(t) for _, t in rows]
        x = max(foot.right() - sum(widths) - gap * (len(widths) - 1),
                getattr(self, "_scale_right", foot.left()) + 3 * gap)
        cy = foot.center().y() + 3 * self.u
        for (key, text), w in zip(rows, widths, strict=True):
            sx0, sx1 = x, x + sym
            mid = QPointF((sx0 + sx1) / 2, cy)
            half = metrics.height() * 0.5
            if key in ("main", "minor", "track"):
                self.p.setPen(self._road_pen(RoadClass(key)))
                self.p.drawLine(QPointF(sx0, cy), QPointF(sx1, cy))
            elif key == "river":
                self.p.setPen(QPen(RIVER, 2.6 * self.u))
                self.p.drawLine(QPointF(sx0, cy), QPointF(sx1, cy))
            elif key in ("bridge", "ferry", "ford"):
                self.p.setPen(QPen(RIVER, 2.6 * self.u))
                self.p.drawLine(QPointF(mid.x(), cy - half), QPointF(mid.x(), cy + half))
                self.p.setPen(self._road_pen(RoadClass.MINOR))
                self.p.drawLine(QPointF(sx0, cy), QPointF(sx1, cy))
                self._crossing_mark(mid, QPointF(1, 0), Crossing(key))
            elif key in ("French", "Allied"):
                self.p.fillRect(QRectF(sx0 + 4 * self.u, cy - 6 * self.u, sym - 8 * self.u,
                                       12 * self.u), SIDE_COLOUR[Side(key)])
            else:
                kind = TownKind(key)
                sample = Town("", 0, 0, Theatre.FRANCE, kind, True, fortress=key == "fortress")
                self._town_symbol(mid, sample, self._town_radius(sample))
            self.p.setPen(INK)
            self.p.drawText(QPointF(sx1 + 6 * self.u, cy + metrics.ascent() / 2 - 1), text)
            x += w + gap


# Where the whole map writes each theatre's name (lat, lon): open country or sea beside its towns,
# so that the name covers none of them.
THEATRE_NAME_AT: dict[Theatre, tuple[float, float]] = {
    Theatre.NORTHERN_GERMANY: (54.02, 12.9),
    Theatre.CENTRAL_GERMANY: (50.05, 15.6),
    Theatre.SOUTHERN_GERMANY: (47.15, 13.0),
    Theatre.EASTERN_SPAIN: (40.25, 3.6),
    Theatre.WESTERN_SPAIN: (38.0, -7.7),
    Theatre.FRANCE: (45.6, 3.1),
}


def _wrap(text: str, width: int = 12) -> list[str]:
    """Split a long name into lines of about ``width`` letters at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def markers_at(positions: Iterable[tuple[str, str, Side]]) -> list[Marker]:
    """Markers from (town, label, side) triples."""
    return [Marker(town, label, side) for town, label, side in positions]

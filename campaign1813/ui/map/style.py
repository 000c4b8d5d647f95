"""How the road map looks: its colours, pens, town signs and lettering, and the level of detail
(pixels per mile) from which each thing shows. Shared by the scene's items and the printed
pictures' legend."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QStyleOptionGraphicsItem,
)

from campaign1813.maps.types import Crossing, RoadClass, Theatre, TownKind

LAND = QColor("#f3ecd6")
COAST = QColor("#6f8fa0")
RIVER = QColor("#2f6db5")
MAIN_ROAD = QColor("#a3321c")
MINOR_ROAD = QColor("#5c4a38")
INK = QColor("#221c16")
THEATRE_INK = QColor(122, 98, 70, 150)
HALO = QColor(251, 248, 240, 215)
OTHER_INK = QColor("#8a8378")  # a neighbouring theatre's town names, on a theatre's map
OTHER_OPACITY = 0.4  # and its town signs
OBJECTIVE = QColor("#d4a017")
PREVIEW = QColor(230, 150, 20, 150)
REFUSED = QColor("#a01818")
NOTE_WIDTH = 46  # letters to a line of a note on the map

# Rivers drawn with a heavier line (and named on the whole map); the rest are tributaries.
GREAT_RIVERS = frozenset({
    "Elbe", "Oder", "Rhine", "Danube", "Weser", "Main", "Tagus", "Douro", "Ebro", "Loire",
    "Garonne", "Rhône", "Seine", "Guadiana", "Guadalquivir", "Inn", "Moselle", "Meuse", "Saale",
})

# The great cities: named at every scale, first of all names, and no flag or army group's flag
# stands on their names (the capitals, and the fortresses and cities each theatre turns on).
GREAT_CITIES = frozenset({
    "Hamburg", "Berlin", "Magdeburg", "Stettin", "Hanover", "Dresden", "Leipzig", "Frankfurt",
    "Vienna", "Munich", "Paris", "Lyon", "Bordeaux", "Marseilles", "Madrid", "Lisbon",
    "Seville", "Barcelona", "Valencia", "Saragossa",
})

# Level of detail, in pixels per mile: what shows from which scale up (or down to).
MINOR_ROADS_FROM = 0.7
TRACKS_FROM = 1.4
VILLAGES_FROM = 1.4
CROSSINGS_FROM = 1.4
TOWN_NAMES_FROM = 1.0
VILLAGE_NAMES_FROM = 3.0
TRIBUTARY_NAMES_FROM = 2.5
THEATRE_NAMES_UNTIL = 2.0

# Where the whole map writes each theatre's name (lat, lon): open country or sea beside its towns.
THEATRE_NAME_AT: dict[Theatre, tuple[float, float]] = {
    Theatre.NORTHERN_GERMANY: (54.02, 12.9),
    Theatre.CENTRAL_GERMANY: (50.05, 15.6),
    Theatre.SOUTHERN_GERMANY: (47.15, 13.0),
    Theatre.EASTERN_SPAIN: (40.25, 3.6),
    Theatre.WESTERN_SPAIN: (38.0, -7.7),
    Theatre.FRANCE: (45.6, 3.1),
}

# Stacking order of the scene, bottom to top.
Z_GROUND, Z_ROADS, Z_TOWNS, Z_CONTROL, Z_ORDERS, Z_NAMES = 0, 2, 4, 5, 6, 7
Z_PREVIEW, Z_BATTLES, Z_MARKERS, Z_NOTE = 8, 9, 10, 12
Z_SUPPLY = 5.5  # depots and columns: over the towns' control marks, under the names and flags
SUPPLY_INK = QColor("#2e5e2a")  # a depot's store, a column's wagon and a corps' days
OUT_OF_SUPPLY = QColor("#c62828")


def lod_of(painter: QPainter) -> float:
    """Pixels per scene unit (mile) of the painter's transform."""
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def road_pen(road_class: RoadClass, unit: float = 1.0) -> QPen:
    """The pen of a road class, widths in pixels (cosmetic: the same at every zoom)."""
    if road_class is RoadClass.MAIN:
        pen = QPen(MAIN_ROAD, 2.6 * unit)
    elif road_class is RoadClass.MINOR:
        pen = QPen(MINOR_ROAD, 1.3 * unit)
    else:
        pen = QPen(MINOR_ROAD, 1.1 * unit)
        pen.setDashPattern([4.0, 3.0])
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setCosmetic(True)
    return pen


def river_pen(great: bool, unit: float = 1.0) -> QPen:
    """The pen of a great river or a tributary."""
    pen = QPen(RIVER, (2.6 if great else 1.6) * unit)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pen.setCosmetic(True)
    return pen


def town_radius(kind: TownKind, fortress: bool, unit: float = 1.0) -> float:
    """The radius of a town's sign in pixels."""
    if fortress or kind is TownKind.FORTRESS:
        base = 7.5 if kind is TownKind.CITY else 6.0
    else:
        base = {TownKind.CITY: 5.0, TownKind.TOWN: 3.4, TownKind.VILLAGE: 2.4}.get(kind, 3.4)
    return base * unit


def draw_town_sign(p: QPainter, at: QPointF, kind: TownKind, fortress: bool, r: float,
                   px: float) -> None:
    """A town's sign of radius ``r`` at ``at``; ``px`` is one pixel in the painter's units."""
    if fortress or kind is TownKind.FORTRESS:
        # A five-bastioned trace: points out, curtains in.
        pts = []
        for i in range(10):
            ang = -math.pi / 2 + i * math.pi / 5
            rad = r if i % 2 == 0 else r * 0.55
            pts.append(QPointF(at.x() + rad * math.cos(ang), at.y() + rad * math.sin(ang)))
        p.setPen(QPen(QColor("#ffffff"), 0.9 * px))
        p.setBrush(QBrush(INK))
        p.drawPolygon(QPolygonF(pts))
        if kind is TownKind.CITY:
            p.setBrush(QBrush(QColor("#ffffff")))
            p.setPen(Qt.PenStyle.NoPen)
            p.drawEllipse(at, r * 0.22, r * 0.22)
    elif kind is TownKind.CITY:
        p.setPen(QPen(INK, 1.3 * px))
        p.setBrush(QBrush(QColor("#ffffff")))
        p.drawEllipse(at, r, r)
        p.setBrush(QBrush(INK))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawEllipse(at, r * 0.55, r * 0.55)
    elif kind is TownKind.TOWN:
        p.setPen(QPen(QColor("#ffffff"), 0.8 * px))
        p.setBrush(QBrush(INK))
        p.drawEllipse(at, r, r)
    else:
        p.setPen(QPen(INK, 1.1 * px))
        p.setBrush(QBrush(LAND))
        p.drawEllipse(at, r, r)
    p.setBrush(Qt.BrushStyle.NoBrush)


def draw_crossing(p: QPainter, at: QPointF, direction: QPointF, crossing: Crossing,
                  s: float, px: float) -> None:
    """A bridge (two rails), ferry (a ring) or ford (dots across) where a road meets a river."""
    length = math.hypot(direction.x(), direction.y()) or 1.0
    dx, dy = direction.x() / length, direction.y() / length
    nx, ny = -dy, dx
    if crossing is Crossing.BRIDGE:
        p.setPen(QPen(INK, 1.4 * px))
        for side in (-1, 1):
            ox, oy = nx * s * 0.8 * side, ny * s * 0.8 * side
            p.drawLine(QPointF(at.x() + ox - dx * s, at.y() + oy - dy * s),
                       QPointF(at.x() + ox + dx * s, at.y() + oy + dy * s))
    elif crossing is Crossing.FERRY:
        p.setPen(QPen(INK, 1.2 * px))
        p.setBrush(QBrush(QColor("#ffffff")))
        p.drawEllipse(at, s * 0.8, s * 0.8)
        p.setBrush(Qt.BrushStyle.NoBrush)
    else:
        pen = QPen(INK, 1.3 * px)
        pen.setDashPattern([1.0, 1.5])
        p.setPen(pen)
        p.drawLine(QPointF(at.x() - nx * s * 1.3, at.y() - ny * s * 1.3),
                   QPointF(at.x() + nx * s * 1.3, at.y() + ny * s * 1.3))


def serif(points: float, bold: bool = False, italic: bool = False) -> QFont:
    """The map's lettering."""
    font = QFont("DejaVu Serif", 1)
    font.setPointSizeF(points)
    font.setBold(bold)
    font.setItalic(italic)
    return font


# the halo on screen: the letters drawn again this far round them, in eight directions
HALO_DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def draw_haloed_text(p: QPainter, text: str, font: QFont, ink: QColor, halo: QColor,
                     halo_width: float, *, own_picture: bool = True) -> None:
    """``text`` with its top-left at the painter's origin, in ink over a pale halo, drawn as
    text (Qt's glyph cache: a tenth of the time of filling its outlines) — the halo is the
    letters drawn round them. On a picture of its own (the screen's), the halo is then made
    as see-through as ``halo`` says; elsewhere (``own_picture`` False: an SVG file, whose
    words stay words a reader can find) each of its strokes is drawn in ``halo`` as it is. A
    printed page draws outlines (:func:`text_path`)."""
    base = QFontMetricsF(font).ascent()
    p.setFont(font)
    if halo.alpha():
        solid = QColor(halo)
        if own_picture:
            solid.setAlpha(255)
        p.setPen(solid)
        r = halo_width / 2
        for dx, dy in HALO_DIRECTIONS:
            p.drawText(QPointF(dx * r, base + dy * r), text)
        if own_picture and halo.alpha() < 255:
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
            # the whole picture (wherever the painter's origin was moved): only the halo is
            # on it yet
            p.fillRect(QRectF(-1e4, -1e4, 2e4, 2e4), QColor(0, 0, 0, halo.alpha()))
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
    p.setPen(ink)
    p.drawText(QPointF(0, base), text)


def text_path(text: str, font: QFont, halo_width: float) -> tuple[QPainterPath, QPainterPath]:
    """The letters of ``text`` with their top-left at (0, 0), and the pale halo round them."""
    metrics = QFontMetricsF(font)
    path = QPainterPath()
    path.addText(QPointF(0, metrics.ascent()), font, text)
    stroker = QPainterPathStroker()
    stroker.setWidth(halo_width)
    stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return path, stroker.createStroke(path)

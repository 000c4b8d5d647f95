"""Print the road map: the map scene rendered into a frame, with its title, scale and legend.

``render_map`` builds a :class:`~campaign1813.ui.map.scene.MapScene` for the picture's box,
renders it onto a ``QImage`` through ``QGraphicsScene.render`` (the same items the window
shows) and paints the furniture of a printed map round it. It needs a running
``QGuiApplication`` (for fonts) but no window. One theatre can be drawn on its own, with the
neighbouring theatres' towns and roads cut off at the frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem

from campaign1813.campaign.scenario.types import Side
from campaign1813.maps.geometry import Bounds
from campaign1813.maps.types import Crossing, MapData, RoadClass, Theatre, TownKind
from campaign1813.ui.map.palette import SIDE_COLOUR
from campaign1813.ui.map.scene import MapScene, scene_bounds
from campaign1813.ui.map.specs import MarkerSpec
from campaign1813.ui.map.style import (
    INK,
    draw_crossing,
    draw_town_sign,
    river_pen,
    road_pen,
    town_radius,
)

FRAME = QColor("#3b3127")
PAPER = QColor("#fbf8f0")


@dataclass(frozen=True)
class Marker:
    """A labelled flag at a town, e.g. a corps' starting position, coloured by side."""

    town: str
    label: str
    side: Side


def theatre_bounds(map_data: MapData, theatre: Theatre | None, margin_miles: float) -> Bounds:
    """The box to draw: every town, or one theatre's towns, widened by a margin in miles."""
    return scene_bounds(map_data, theatre, margin_miles)


def render_map(
    map_data: MapData,
    *,
    theatre: Theatre | None = None,
    width: int = 2400,
    markers: Sequence[Marker] = (),
    title: str | None = None,
    margin_miles: float | None = None,
) -> QImage:
    """Paint the map (or one theatre of it) and return the picture.

    ``markers`` put flags at towns (French blue, Allied red). The names shown follow the
    scene's level of detail at the picture's scale: villages are named on theatre maps only.
    """
    if width < 200:
        raise ValueError(f"map width {width} px is too small to draw; 200 px or more needed")
    towns = {t.name for t in map_data.towns}
    unknown = [m.town for m in markers if m.town not in towns]
    if unknown:
        raise ValueError(f"markers name towns not on the map: {', '.join(unknown)}")
    if margin_miles is None:
        margin_miles = 40.0 if theatre is None else 30.0
    bounds = theatre_bounds(map_data, theatre, margin_miles)
    unit = max(width / 2400.0, 0.5)  # line widths and fonts grow with the picture
    scene = MapScene(map_data, bounds, unit=unit, theatre=theatre)
    scene.build()
    scene.set_markers(_flags(markers))
    pad = round(width * 0.025)
    head = round(width * 0.045)
    foot = round(width * 0.05)
    inner_w = width - 2 * pad
    source = scene.ground_rect
    scale = inner_w / source.width()
    inner_h = source.height() * scale
    height = round(inner_h + head + foot)
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(PAPER)
    frame = QRectF(pad, head, inner_w, inner_h)
    painter = QPainter(image)
    try:
        paint_picture(painter, scene, frame, source, unit, title or _default_title(theatre),
                      with_sides=bool(markers))
    finally:
        painter.end()
    return image


def paint_picture(painter: QPainter, scene: MapScene, frame: QRectF, source: QRectF,
                  unit: float, title: str, with_sides: bool = False) -> None:
    """Render ``source`` of the scene into ``frame`` on any paint device, with the printed
    map's frame, title, scale bar, north arrow and legend round it."""
    scale = frame.width() / source.width()
    scene.place_labels(scale, source)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.save()
    painter.setClipRect(frame)
    # a picture paints its ground once: the window's cache of each layer, made whole at the
    # picture's scale (the ground reaches far past a theatre's frame), would cost seconds
    modes = [(layer, layer.cacheMode()) for layer in scene.cached_layers()]
    for layer, _ in modes:
        layer.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        scene.render(painter, frame, source, Qt.AspectRatioMode.IgnoreAspectRatio)
    finally:
        for layer, mode in modes:
            layer.setCacheMode(mode)
    painter.restore()
    _Furniture(painter, frame, unit, scale, with_sides).paint(title)


def _flags(markers: Sequence[Marker]) -> list[MarkerSpec]:
    return [MarkerSpec(f"{i}:{m.label}", m.town, None, 0.0, m.label, m.side,
                       SIDE_COLOUR[m.side].name()) for i, m in enumerate(markers)]


def _default_title(theatre: Theatre | None) -> str:
    if theatre is None:
        return "The Campaign of 1813 — Hamburg to Gibraltar"
    if theatre is Theatre.FRANCE:
        return "France — the roads joining the theatres"
    return f"The Campaign of 1813 — {theatre.value}"


class _Furniture:
    """The frame, title, scale bar, north arrow and legend of a printed map."""

    def __init__(self, painter: QPainter, frame: QRectF, unit: float, pixels_per_mile: float,
                 with_sides: bool) -> None:
        self.p = painter
        self.frame = frame
        self.u = unit
        self.ppm = pixels_per_mile
        self.with_sides = with_sides

    def paint(self, title: str) -> None:
        """Draw it all round the frame."""
        self._frame(title)
        self._scale_bar()
        self._north_arrow()
        self._legend()

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
        ppm = self.ppm
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
        if self.with_sides:
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
                self.p.setPen(_flat(road_pen(RoadClass(key), self.u)))
                self.p.drawLine(QPointF(sx0, cy), QPointF(sx1, cy))
            elif key == "river":
                self.p.setPen(river_pen(True, self.u))
                self.p.drawLine(QPointF(sx0, cy), QPointF(sx1, cy))
            elif key in ("bridge", "ferry", "ford"):
                self.p.setPen(river_pen(True, self.u))
                self.p.drawLine(QPointF(mid.x(), cy - half), QPointF(mid.x(), cy + half))
                self.p.setPen(_flat(road_pen(RoadClass.MINOR, self.u)))
                self.p.drawLine(QPointF(sx0, cy), QPointF(sx1, cy))
                draw_crossing(self.p, mid, QPointF(1, 0), Crossing(key), 4.5 * self.u, self.u)
            elif key in ("French", "Allied"):
                self.p.fillRect(QRectF(sx0 + 4 * self.u, cy - 6 * self.u, sym - 8 * self.u,
                                       12 * self.u), SIDE_COLOUR[Side(key)])
            else:
                kind, fortress = TownKind(key), key == "fortress"
                draw_town_sign(self.p, mid, kind, fortress, town_radius(kind, fortress, self.u),
                               self.u)
            self.p.setPen(INK)
            self.p.drawText(QPointF(sx1 + 6 * self.u, cy + metrics.ascent() / 2 - 1), text)
            x += w + gap


def _flat(pen: QPen) -> QPen:
    """A legend's pen: the map's pen, its width in the picture's pixels."""
    pen.setCosmetic(False)
    return pen


"""Qt's painter of the campaign's history (``campaign.export.history.HistoryPainter``): a day's
map as PNG and SVG, drawn from the same scene and flags as the window's History (one scene per
theatre, built once and given each day's flags), and the history's PDF, one page per day."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import date

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QFont,
    QFontMetricsF,
    QImage,
    QImageWriter,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication

from campaign1813.campaign import queries
from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.history import HistoryDay
from campaign1813.campaign.export.paper import check_paper_size
from campaign1813.campaign.scenario.types import Side
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.maps.types import Theatre
from campaign1813.ui.history_panel import battle_specs, day_markers
from campaign1813.ui.map.render import PAPER, paint_picture, theatre_bounds
from campaign1813.ui.map.scene import MapScene
from campaign1813.ui.map.style import INK

PICTURE_WIDTH = 1600  # pixels of a day's PNG (its SVG has the same size in points)
PDF_RESOLUTION = 150
_app: list[QApplication] = []  # the application made here for the command line, kept alive


def ensure_application() -> QApplication:
    """The running Qt application with widgets (the map's scene needs them), or a new one
    drawing offscreen where there is no display."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    if app is not None:
        raise CampaignError("the history's maps need Qt's widgets, and a plain Qt application "
                            "without them is running")
    if ("QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    _app.append(QApplication(["campaign1813"]))
    return _app[0]


class QtHistoryPainter:
    """Draws the history's pictures and its PDF with Qt."""

    def __init__(self, width: int = PICTURE_WIDTH) -> None:
        self.width = width
        self._scenes: dict[tuple[int, Theatre | None], MapScene] = {}

    def _scene(self, doc: CampaignStore, theatre: Theatre | None) -> MapScene:
        key = (id(doc), theatre)
        if key not in self._scenes:
            map_data = doc.scenario().map
            bounds = theatre_bounds(map_data, theatre, 40.0 if theatre is None else 30.0)
            scene = MapScene(map_data, bounds, unit=self.unit, theatre=theatre)
            scene.build()
            self._scenes[key] = scene
        return self._scenes[key]

    @property
    def unit(self) -> float:
        """Line widths and lettering for the picture's width (as the printed map's)."""
        return max(self.width / 2400.0, 0.5)

    def history_map(self, doc: CampaignStore, day: date, theatre: Theatre | None,
                    side: Side | None, title: str) -> tuple[bytes, bytes]:
        """A day's map as PNG and SVG: its flags, depots and columns as the umpire or the side
        saw them, its battles with their results."""
        ensure_application()
        scene = self._scene(doc, theatre)
        markers, supply = day_markers(doc, day, side, theatre)
        scene.set_markers(markers)
        scene.set_battles(battle_specs(queries.battles_by_day(doc).get(day, ())))
        scene.supply.set_marks(supply)
        source = scene.ground_rect
        pad, head, foot = (round(self.width * f) for f in (0.025, 0.045, 0.05))
        inner_w = self.width - 2 * pad
        inner_h = source.height() * inner_w / source.width()
        height = round(inner_h + head + foot)
        frame = QRectF(pad, head, inner_w, inner_h)
        image = QImage(self.width, height, QImage.Format.Format_ARGB32)
        image.fill(PAPER)
        painter = QPainter(image)
        try:
            paint_picture(painter, scene, frame, source, self.unit, title, with_sides=True)
        finally:
            painter.end()
        png = QByteArray()
        buffer = QBuffer(png)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not QImageWriter(buffer, QByteArray(b"png")).write(image):
            raise CampaignError(f"the map of {title} could not be written as PNG")
        buffer.close()
        svg = QByteArray()
        out = QBuffer(svg)
        out.open(QIODevice.OpenModeFlag.WriteOnly)
        generator = QSvgGenerator()
        generator.setOutputDevice(out)
        generator.setSize(QSize(self.width, height))
        generator.setViewBox(QRectF(0, 0, self.width, height))
        generator.setTitle(title)
        painter = QPainter(generator)
        try:
            painter.fillRect(QRectF(0, 0, self.width, height), PAPER)
            paint_picture(painter, scene, frame, source, self.unit, title, with_sides=True)
        finally:
            painter.end()
        out.close()
        return bytes(png.data()), bytes(svg.data())

    def history_pdf(self, title: str, pages: Sequence[tuple[HistoryDay, bytes]],
                    paper_size: str) -> bytes:
        """One page per day: its title, its map, its battles and its report (what does not
        fit the page is counted, and read in full in the folder's index.html)."""
        size = check_paper_size(paper_size)
        ensure_application()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = QPdfWriter(buffer)
        writer.setResolution(PDF_RESOLUTION)
        writer.setPageLayout(QPageLayout(
            QPageSize(QPageSize.PageSizeId.A4 if size == "a4" else QPageSize.PageSizeId.Letter),
            QPageLayout.Orientation.Portrait, QMarginsF(12, 12, 12, 12)))
        writer.setTitle(title)
        writer.setCreator("campaign1813")
        painter = QPainter(writer)
        try:
            for n, (day, png) in enumerate(pages):
                if n:
                    writer.newPage()
                _paint_page(painter, writer.width(), writer.height(), day, png)
        finally:
            painter.end()
        buffer.close()
        return bytes(data.data())


def _paint_page(painter: QPainter, width: int, height: int, day: HistoryDay,
                png: bytes) -> None:
    """A day's page: title, picture, battles, report."""
    heading = QFont("DejaVu Serif", 14)
    heading.setBold(True)
    painter.setFont(heading)
    painter.setPen(INK)
    top = QFontMetricsF(heading, painter.device()).height() * 1.6
    painter.drawText(QRectF(0, 0, width, top), Qt.AlignmentFlag.AlignLeft, day.title)
    image = QImage()
    image.loadFromData(QByteArray(png))
    shown_h = min(height * 0.62, image.height() * width / max(image.width(), 1))
    shown_w = image.width() * shown_h / max(image.height(), 1)
    painter.drawImage(QRectF(0, top, shown_w, shown_h), image)
    y = top + shown_h + 10
    body = QFont("DejaVu Serif", 8)
    painter.setFont(body)
    metrics = QFontMetricsF(body, painter.device())
    lines = [*(f"Battle: {b}" for b in day.battles),
             *(day.report or ("Nothing was done on this day.",))]
    for i, line in enumerate(lines):
        box = metrics.boundingRect(QRectF(0, 0, width, height), Qt.TextFlag.TextWordWrap, line)
        if y + box.height() > height - metrics.height() * 1.5:
            painter.drawText(QRectF(0, y, width, metrics.height() * 1.5),
                             Qt.AlignmentFlag.AlignLeft,
                             f"… and {len(lines) - i} more lines: see index.html")
            return
        painter.drawText(QRectF(0, y, width, box.height()), Qt.TextFlag.TextWordWrap, line)
        y += box.height() + 2

"""The suggested table drawn small: nine squares, the battle town in the centre, each road by
its bearing out to its edge, the terrain of each square, and the edges the corps enter by."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from campaign1813.campaign.battle.setup import FRENCH

SIDE_COLOURS = {FRENCH: QColor("#1f4e9c"), "Allied": QColor("#8c1c13")}
ROAD_WIDTH = {"main": 3.0, "minor": 2.0, "track": 1.0}


class TableDiagram(QWidget):
    """A QPainter diagram of the 6 × 6 feet table of one battle's setup."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setup: Any = None
        self.setMinimumSize(300, 300)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(380, 380)

    def show_setup(self, setup: Any) -> None:
        """Draw this battle's table."""
        self.setup = setup
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#f4f1e8"))
        if self.setup is None:
            p.end()
            return
        margin = 34
        size = min(self.width(), self.height()) - 2 * margin
        left = (self.width() - size) / 2
        top = (self.height() - size) / 2
        cell = size / 3
        table = self.setup.table
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, self.font().pointSizeF() - 1.5))
        # the squares and what each holds
        p.setPen(QPen(QColor("#888"), 1, Qt.PenStyle.DashLine))
        for r in range(3):
            for c in range(3):
                p.drawRect(QRectF(left + c * cell, top + r * cell, cell, cell))
        p.setFont(small)
        p.setPen(QColor("#555"))
        for sq in table.squares:
            if (sq.row, sq.col) == (1, 1):
                continue
            lines = [t for t in sq.terrain if not t.startswith("road to")]
            if lines:
                rect = QRectF(left + sq.col * cell + 3, top + sq.row * cell + 3, cell - 6,
                              cell - 6)
                p.drawText(rect, int(Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap),
                           "\n".join(lines))
        centre = QPointF(left + 1.5 * cell, top + 1.5 * cell)
        # the roads by bearing, clipped at the table's edge
        taken: list[QRectF] = []
        metrics = p.fontMetrics()
        for road in table.roads:
            rad = math.radians(road.bearing)
            dx, dy = math.sin(rad), -math.cos(rad)
            reach = 1.5 * cell / max(abs(dx), abs(dy))
            end = QPointF(centre.x() + dx * reach, centre.y() + dy * reach)
            p.setPen(QPen(QColor("#7a5230"), ROAD_WIDTH.get(road.road_class, 2.0)))
            p.drawLine(centre, end)
            text = road.to + (f" ({road.river} {road.crossing})" if road.river else "")
            width = metrics.horizontalAdvance(text) + 6
            # the name goes where it overlaps no other road's name
            for far in (0.62, 0.84, 0.45, 0.95, 0.35):
                at = QPointF(centre.x() + dx * reach * far, centre.y() + dy * reach * far)
                rect = QRectF(at.x() - width / 2, at.y() - 8, width, 16)
                if not any(rect.intersects(r) for r in taken):
                    break
            taken.append(rect)
            p.fillRect(rect, QColor(244, 241, 232, 200))
            p.setPen(QColor("#3a2a18"))
            p.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
        # the town
        town = QRectF(centre.x() - cell * 0.36, centre.y() - cell * 0.16, cell * 0.72,
                      cell * 0.32)
        p.setPen(QPen(QColor("#333"), 1.5))
        p.setBrush(QColor("#d9c7a3") if table.built_up else QColor("#eee4cc"))
        p.drawRect(town)
        p.setBrush(Qt.BrushStyle.NoBrush)
        bold = QFont(self.font())
        bold.setBold(True)
        p.setFont(bold)
        p.drawText(town.adjusted(-cell * 0.3, 0, cell * 0.3, 0), int(Qt.AlignmentFlag.AlignCenter),
                   table.town)
        p.setFont(small)
        marks = [x for x in ("fortress" if table.fortress else "",
                             f"river {table.river}" if table.river else "") if x]
        if marks:
            p.drawText(QRectF(town.left() - 20, town.bottom() + 1, town.width() + 40, 16),
                       int(Qt.AlignmentFlag.AlignCenter), ", ".join(marks))
        # the edges the corps come on by, in their side's colour
        self._edges(p, left, top, size)
        p.setPen(QColor("#333"))
        p.drawText(QRectF(left, top + size + 4, size, 16), int(Qt.AlignmentFlag.AlignCenter),
                   f"{table.feet} × {table.feet} feet, {table.square_feet}-foot squares; "
                   "north at the top")
        p.end()

    def _edges(self, p: QPainter, left: float, top: float, size: float) -> None:
        by_edge: dict[str, list[Any]] = {}
        for c in self.setup.corps:
            if c.edge is not None:
                by_edge.setdefault(c.edge.value, []).append(c)
        for edge, corps in by_edge.items():
            text = ", ".join(f"{c.blind} turn {c.turn}" for c in corps)
            colour = SIDE_COLOURS.get(corps[0].side, QColor("#333"))
            p.setPen(QPen(colour, 5))
            if edge == "north":
                p.drawLine(QPointF(left, top), QPointF(left + size, top))
                rect = QRectF(left, top - 22, size, 18)
            elif edge == "south":
                p.drawLine(QPointF(left, top + size), QPointF(left + size, top + size))
                rect = QRectF(left, top + size + 18, size, 16)
            elif edge == "west":
                p.drawLine(QPointF(left, top), QPointF(left, top + size))
                rect = QRectF(2, top - 22, left + size / 2, 18)
            else:
                p.drawLine(QPointF(left + size, top), QPointF(left + size, top + size))
                rect = QRectF(left + size / 2, top - 22, size / 2 + left - 2, 18)
            p.setPen(colour)
            align = {"west": Qt.AlignmentFlag.AlignLeft, "east": Qt.AlignmentFlag.AlignRight}
            p.drawText(rect, int(align.get(edge, Qt.AlignmentFlag.AlignCenter)
                                 | Qt.AlignmentFlag.AlignVCenter), f"{edge}: {text}")

"""The battle's table on the Setup page: the setup sheet's own drawing (``ui/paper``), painted
into the widget, so the window shows what the sheet prints — the squares, the town, the river
on its course from the map, the roads by bearing, the entries and blinds, no word under a
marker."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from campaign1813.campaign.export.setup_sheet import SetupSheet
from campaign1813.ui.paper.table_diagram import paint_table


class TableDiagram(QWidget):
    """The 6 × 6 feet table of one battle, as its setup sheet draws it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.sheet: SetupSheet | None = None
        self.setMinimumSize(360, 360)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(520, 520)

    def show_sheet(self, sheet: SetupSheet | None) -> None:
        """Draw this battle's table (None: nothing)."""
        self.sheet = sheet
        self.setToolTip(f"The table for {sheet.heading}, as the setup sheet prints it"
                        if sheet is not None else "")
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        p = QPainter(self)
        try:
            p.fillRect(self.rect(), QColor("#ffffff"))
            if self.sheet is not None:
                paint_table(p, self.sheet, QRectF(self.rect()).adjusted(4, 4, -4, -4))
        finally:
            p.end()

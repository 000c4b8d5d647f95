"""Qt's painter for the campaign's documents: PDF through QPdfWriter, and the printer.

:class:`QtPaper` is the :class:`~campaign1813.campaign.export.paper.Paper` the console entry and
the window install; the typesetting itself is in :mod:`.layout`, shared with print preview.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QGuiApplication, QPdfWriter

from campaign1813.campaign.export.document import Document
from campaign1813.campaign.export.paper import check_paper_size
from campaign1813.campaign.export.setup_sheet import SetupSheet
from campaign1813.ui.paper.layout import page_layout, paint_document
from campaign1813.ui.paper.setup_sheet import setup_sheet_pdf
from campaign1813.ui.paper.table_diagram import table_svg

__all__ = ["QtPaper", "ensure_gui_application", "paint_document", "page_layout"]

RESOLUTION = 300  # dots per inch of the PDF's layout: fine enough that the text sits true


def ensure_gui_application() -> QGuiApplication:
    """The running Qt application, or a new one; with no display to show on (a terminal over
    ssh, a build machine) Qt is told to draw offscreen, unless the user chose a platform."""
    app = QGuiApplication.instance()
    if app is not None:
        return app  # type: ignore[return-value]
    if ("QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return QGuiApplication(["campaign1813"])


class QtPaper:
    """Puts documents on paper with Qt's own PDF writer; needs no other runtime dependency."""

    def pdf(self, document: Document, paper_size: str) -> bytes:
        """The document as PDF bytes on ``a4`` or ``letter`` pages."""
        size = check_paper_size(paper_size)
        ensure_gui_application()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        writer = QPdfWriter(buffer)
        writer.setResolution(RESOLUTION)
        writer.setPageLayout(page_layout(size))
        writer.setTitle(f"{document.title} — {document.campaign}")
        writer.setCreator("campaign1813")
        paint_document(document, writer)
        del writer  # the writer finishes the file when it goes
        buffer.close()
        return bytes(data.data())

    # -- a battle's setup sheet --
    def setup_sheet_pdf(self, sheet: SetupSheet, paper_size: str) -> bytes:
        """A battle's setup sheet as PDF bytes (``setup_sheet.py``)."""
        ensure_gui_application()
        return setup_sheet_pdf(sheet, paper_size)

    def table_svg(self, sheet: SetupSheet) -> bytes:
        """A battle's table as SVG (``table_diagram.py``)."""
        ensure_gui_application()
        return table_svg(sheet)

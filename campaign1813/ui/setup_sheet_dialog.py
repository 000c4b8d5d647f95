"""Battle ▸ Setup Sheet…: the save dialog, then the battle's setup sheet as PDF or its table as
SVG, drawn by ``ui/paper``. The main window loads this module when the umpire first asks for a
sheet: the sheet brings the battle engine's setup.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QFileDialog, QWidget

from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.queries import battle_setup_view
from campaign1813.campaign.store.protocol import CampaignStore
from campaign1813.ui.paper.setup_sheet import setup_sheet_pdf
from campaign1813.ui.paper.table_diagram import table_svg

__all__ = ["save_setup_sheet"]

_PDF_FILTER = "Setup sheet (*.pdf)"
_SVG_FILTER = "Table diagram (*.svg)"


def save_setup_sheet(parent: QWidget, doc: CampaignStore, battle: int,
                     folder: str) -> Path | None:
    """Battle ▸ Setup Sheet…: ask where, then write the battle's sheet as PDF (the paper the
    locale uses) or its table as SVG; the file written, or None if the umpire cancelled."""
    sheet = battle_setup_view(doc, battle)  # a sheet that cannot be drawn is refused first
    name, chosen = QFileDialog.getSaveFileName(
        parent, f"Setup Sheet of Battle {battle}", str(Path(folder) / f"battle-{battle}.pdf"),
        f"{_PDF_FILTER};;{_SVG_FILTER}")
    if not name:
        return None
    path = Path(name)
    if path.suffix.lower() not in (".pdf", ".svg"):
        path = path.with_name(path.name + (".svg" if chosen == _SVG_FILTER else ".pdf"))
    if path.suffix.lower() == ".svg":
        data = table_svg(sheet)
    else:
        us = QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
        data = setup_sheet_pdf(sheet, "letter" if us else "a4")
    # The dialog has asked before replacing the file it named; not one given a suffix here.
    write_new(path, data, force=str(path) == name)
    return path


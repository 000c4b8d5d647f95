"""File ▸ Print Orders of Battle… and File ▸ Export Orders of Battle…

Both first ask, in a small dialog, what to put on paper — every army group, one theatre, one
army group, or the commands of a battle still to be fought — and on what paper. Print opens
Qt's print preview, painting the same document the PDF export writes (``ui/paper``) onto the
printer. Export writes PDF, HTML, Markdown, CSV or JSON, as the save dialog's file type says,
by the command line's own exporter of each format and through the same ``write_new``; the
dialog offers a file name for what was chosen. An existing file is replaced only when the
umpire has said so (the save dialog's own question counts).

What goes on paper — the scenario's forces (``export.oob_document``, which brings pydantic:
110–175 ms of CPU) and Qt's painter (``ui/paper``, with the setup sheet's types: 45–60 ms) — is
imported by the functions that make the papers, once the umpire has chosen, so the chooser
opens at once (this module alone takes some 10 ms).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QLocale
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QMessageBox,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from campaign1813.campaign.errors import CampaignError
from campaign1813.campaign.export.document import Document
from campaign1813.campaign.export.formats import FORMATS, format_of
from campaign1813.campaign.export.output import write_new
from campaign1813.campaign.export.paper import PAPER_SIZES

if TYPE_CHECKING:
    from campaign1813.campaign.export import oob_document as oob
    from campaign1813.campaign.store.document import CampaignDocument
    from campaign1813.ui.open_campaign import OpenCampaign


class MainWindow(Protocol):
    """What these menu actions use of the main window (which imports this module, so this
    module names it only by what it does)."""

    campaign: OpenCampaign

    @property
    def document(self) -> CampaignDocument | None:
        """The open campaign file, if any."""
        ...

    def report_error(self, message: str) -> None:
        """Tell the umpire what went wrong."""
        ...

    def statusBar(self) -> QStatusBar:  # noqa: N802 (Qt's name)
        """The window's status bar."""
        ...


def _widget(window: MainWindow) -> QWidget:
    """The window as the parent of a dialog (it is a QMainWindow)."""
    return cast(QWidget, window)

FILTERS = FORMATS  # the save dialog's file types: the formats the orders of battle are written in
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}


@dataclass(frozen=True)
class Choice:
    """What to put on paper: ``kind`` all, army, theatre or battle, and which."""

    kind: str
    name: str = ""
    battle: int = 0


def choices(window: MainWindow) -> list[tuple[str, Choice]]:
    """The dialog's list: every army group, each theatre, each army group, each due battle."""
    doc, status = window.document, window.campaign.status
    if doc is None:
        return []
    armies = doc.scenario().armies
    out = [("Every army group", Choice("all"))]
    for theatre in dict.fromkeys(a.theatre for a in armies):
        out.append((f"Theatre: {theatre.value}", Choice("theatre", theatre.value)))
    out += [(f"Army group: {a.name}", Choice("army", a.name)) for a in armies]
    if status is not None:
        out += [(f"Battle {b.id}: {b.title}", Choice("battle", battle=b.id))
                for b in status.battles_due]
    return out


def forces_for(window: MainWindow, choice: Choice) -> oob.Forces:
    """The orders of battle the choice names, read from the open campaign."""
    from campaign1813.campaign.export import oob_document as oob  # once chosen: see above

    doc = window.document
    if doc is None:
        raise CampaignError("no campaign is open")
    armies = doc.scenario().armies
    if choice.kind == "army":
        return oob.army_forces(armies, choice.name)
    if choice.kind == "theatre":
        return oob.theatre_forces(armies, choice.name)
    if choice.kind == "battle":
        status = window.campaign.status
        battles = status.battles if status is not None else ()
        return oob.battle_forces(armies, oob.find_battle(battles, choice.battle))
    return oob.all_forces(armies)


def document_for(window: MainWindow, choice: Choice) -> Document:
    """The printable orders of battle of the choice, headed with the campaign and its date."""
    from campaign1813.campaign.export import oob_document as oob  # once chosen: see above

    assert window.document is not None
    summary = window.document.summary()
    return oob.oob_document(forces_for(window, choice), summary.name, summary.current_date)


def default_paper() -> str:
    """Letter where the umpire's locale measures in inches (the United States), else A4."""
    imperial = QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
    return "letter" if imperial else "a4"


class ChooseOrdersDialog(QDialog):
    """Which orders of battle, and on what paper."""

    def __init__(self, window: MainWindow, title: str) -> None:
        super().__init__(_widget(window))
        self.setWindowTitle(title)
        self.which = QComboBox(self)
        for text, choice in choices(window):
            self.which.addItem(text, choice)
        self.paper = QComboBox(self)
        for size in PAPER_SIZES:
            self.paper.addItem(PAPER_NAMES[size], size)
        self.paper.setCurrentIndex(PAPER_SIZES.index(default_paper()))
        form = QFormLayout()
        form.addRow("Orders of battle of", self.which)
        form.addRow("Paper", self.paper)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    @property
    def choice(self) -> Choice:
        """The orders of battle chosen."""
        chosen: Choice = self.which.currentData()
        return chosen

    @property
    def paper_size(self) -> str:
        """``a4`` or ``letter``."""
        return str(self.paper.currentData())


def preview_dialog(parent: QWidget, document: Document, paper_size: str) -> QPrintPreviewDialog:
    """Qt's print preview of the document, painting it onto the printer as the PDF is made."""
    from campaign1813.ui.paper import page_layout, paint_document  # once chosen: see above

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(page_layout(paper_size))
    printer.setDocName(f"{document.title} — {document.campaign}")
    dialog = QPrintPreviewDialog(printer, parent)
    dialog.printer_kept = printer  # type: ignore[attr-defined]  # the dialog does not own it
    dialog.setWindowTitle(f"Print {document.title}")
    dialog.paintRequested.connect(lambda p: paint_document(document, p))
    return dialog


def export_bytes(window: MainWindow, choice: Choice, fmt: str, paper_size: str) -> bytes:
    """The orders of battle of the choice as the bytes of a PDF, HTML, Markdown, CSV or JSON
    file, by the exporter the command line uses (``oob_document.oob_bytes``)."""
    from campaign1813.campaign.export import oob_document as oob  # once chosen: see above
    from campaign1813.ui.paper import QtPaper  # once chosen: see above

    assert window.document is not None
    summary = window.document.summary()
    return oob.oob_bytes(forces_for(window, choice), summary.name, summary.current_date, fmt,
                         paper_size, QtPaper())


def suggested_name(choice: Choice, fmt: str = "pdf") -> str:
    """The file name the save dialog offers: ``orders-of-battle-second-french-army.pdf``,
    ``orders-of-battle-northern-germany.csv``, ``orders-of-battle-battle-2.json``."""
    if choice.kind == "battle":
        which = f"battle-{choice.battle}"
    else:
        which = choice.name
    folded = unicodedata.normalize("NFKD", which).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return f"orders-of-battle-{slug}.{fmt}" if slug else f"orders-of-battle.{fmt}"


def export_to(window: MainWindow, path: str | Path, choice: Choice, paper_size: str = "a4", *,
              replace: bool | None = None) -> bool:
    """Write the orders of battle to ``path`` in the format its suffix names; an existing file
    is replaced as ``replace`` says, or as the umpire answers when asked (None)."""
    path = Path(path)
    fmt = format_of(path)
    if fmt is None:
        window.report_error(f"Cannot export to {path.name}: name it .pdf, .html, .md, .csv "
                            "or .json")
        return False
    if path.exists() and replace is None:
        answer = QMessageBox.question(
            _widget(window), "Export Orders of Battle",
            f"{path.name} already exists in {path.parent}.\nDo you want to replace it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        replace = answer == QMessageBox.StandardButton.Yes
    if path.exists() and not replace:
        return False
    try:
        write_new(path, export_bytes(window, choice, fmt, paper_size), force=bool(replace))
    except CampaignError as exc:
        window.report_error(f"Cannot export the orders of battle: {exc}")
        return False
    window.statusBar().showMessage(f"Orders of battle written to {path}")
    return True


def save_dialog(window: MainWindow, choice: Choice) -> QFileDialog:
    """The save dialog, in the campaign's folder, offering a name for the orders of battle
    chosen (:func:`suggested_name`) that follows the file type picked."""
    start = window.document.path.parent if window.document else Path.home()
    dialog = QFileDialog(_widget(window), "Export Orders of Battle", str(start))
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setNameFilters(list(FILTERS.values()))
    dialog.setDefaultSuffix("pdf")
    dialog.selectFile(suggested_name(choice, "pdf"))
    by_filter = {text: fmt for fmt, text in FILTERS.items()}

    def on_filter(text: str) -> None:
        fmt = by_filter.get(text, "pdf")
        dialog.setDefaultSuffix(fmt)
        dialog.selectFile(suggested_name(choice, fmt))

    dialog.filterSelected.connect(on_filter)
    return dialog


def _save_dialog(window: MainWindow, choice: Choice) -> tuple[str, bool] | None:
    """A file name from the save dialog, with its suffix; and whether the dialog asked about
    replacing that very file (it did when the name it returned already had the suffix)."""
    dialog = save_dialog(window, choice)
    if not dialog.exec() or not dialog.selectedFiles():
        return None
    chosen = dialog.selectedFiles()[0]
    by_filter = {text: fmt for fmt, text in FILTERS.items()}
    fmt = by_filter.get(dialog.selectedNameFilter(), "pdf")
    if format_of(chosen) is not None:
        return chosen, True
    return f"{chosen}.{fmt}", False


def on_print(window: MainWindow) -> None:
    """File ▸ Print Orders of Battle…: choose, then preview and print."""
    chooser = ChooseOrdersDialog(window, "Print Orders of Battle")
    if not chooser.exec():
        return
    try:
        document = document_for(window, chooser.choice)
    except CampaignError as exc:
        window.report_error(f"Cannot print the orders of battle: {exc}")
        return
    preview_dialog(_widget(window), document, chooser.paper_size).exec()


def on_export(window: MainWindow) -> None:
    """File ▸ Export Orders of Battle…: choose, then name the file (its type by the filter)."""
    chooser = ChooseOrdersDialog(window, "Export Orders of Battle")
    if not chooser.exec():
        return
    chosen = _save_dialog(window, chooser.choice)
    if chosen:
        export_to(window, chosen[0], chooser.choice, chooser.paper_size,
                  replace=True if chosen[1] else None)
